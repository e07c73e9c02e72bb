export { renewalsModule } from './renewals.module.js';
export { RENEWAL_QUEUES } from './queues.js';
export { OPEN_CHARGE_STATUSES } from './renewals.service.js';
export {
  RenewalsService,
  type AutoRenewal,
  type RenewalCharge,
  type ChargeStatus,
  type UnitKey,
  type NewRenewalCharge,
  type ChargePatch,
} from './renewals.service.js';
export { signRenewalLink, readRenewalLink, type RenewalLink, type RenewalLinkPurpose } from './renewal-links.js';
