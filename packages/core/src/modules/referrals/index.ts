export { referralsModule } from './referrals.module.js';
export { ReferralsService, type ReferralCounts } from './referrals.service.js';
export { REFERRAL_QUEUES } from './queues.js';
export type { ReferralModel, ReferralState } from './models/referral.model.js';
export {
  canonicalCode,
  mailboxOf,
  monthStartUtc,
  newReferralCode,
  sameMailbox,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  REFERRAL_CODE_PATTERN,
  REFUSED_REASONS,
  type RefusedReason,
} from './referral-rules.js';
