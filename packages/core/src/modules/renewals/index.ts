export { RENEWALS } from './tokens.js';
export { renewalsModule } from './renewals.module.js';
export { RENEWAL_QUEUES } from './queues.js';
export { OPEN_CHARGE_STATUSES } from './renewals.service.js';
export type { RenewalsService, AutoRenewal, RenewalCharge, ChargeStatus, UnitKey, NewRenewalCharge, ChargePatch } from './renewals.service.js';
export { signRenewalLink, readRenewalLink, type RenewalLink, type RenewalLinkPurpose } from './renewal-links.js';
