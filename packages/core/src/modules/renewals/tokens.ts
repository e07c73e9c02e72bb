export const RENEWALS = {
  Service: Symbol.for('subshare.renewals.RenewalsService'),
} as const;
