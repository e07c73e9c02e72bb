/**
 * The e-mail kinds (wire/email-kinds.ts: the numbers the API and the outbox use) and the data each
 * one needs.
 */
import { EMAIL_KIND, EMAIL_KIND_NAMES, isEmailKind, type EmailKind, type EmailKindName } from '../../wire/email-kinds.js';

export { EMAIL_KIND, EMAIL_KIND_NAMES, isEmailKind, type EmailKind, type EmailKindName };

/**
 * Which kinds carry a one-time code (sign-up verification, password reset: both are kind 5), one
 * entry for every kind so that a new kind has to decide. A code is the buyer's key to their
 * account: staff must never read it, so the outbox stores such an e-mail with the code masked
 * (`CODE_MASK`) and keeps the code itself beside it only until the e-mail is delivered; and such
 * e-mails have a delivery queue of their own, so they never wait behind other mail. The code is
 * `data.code` (a string) in every kind listed here.
 */
export const EMAIL_KIND_CARRIES_CODE = {
  0: false,
  1: false,
  2: false,
  3: false,
  4: false,
  5: true,
  6: false,
  7: false,
  8: false,
  9: false,
  10: false,
  11: false,
  12: false,
  13: false,
  14: false,
  15: false,
} as const satisfies Record<EmailKind, boolean>;

export function carriesCode(kind: number): boolean {
  return isEmailKind(kind) && EMAIL_KIND_CARRIES_CODE[kind];
}

/** What staff see instead of a code. */
export const CODE_MASK = '••••••';

/** 1 English, 2 Korean, as everywhere in the shop. */
export type EmailLanguageId = 1 | 2;

/** A point in time: a Date or an ISO 8601 string. Shown in UTC (English) or Korean time (Korean). */
export type EmailDate = Date | string;

/**
 * Which profile of a shared account the buyer uses: 0 is the whole account, otherwise the
 * profile number. Leave it out when the platform has a single slot (the panel hides it too).
 */
export type ProfileNumber = number | null | undefined;

/**
 * An order's money when a discount or credit lowered its price (issue 37), each amount for people
 * as `formatMoney` writes it ("€4.99", "₩6,900"). The order e-mail and the receipt list it; without
 * it they show what they showed before.
 */
export interface EmailPrice {
  /** The catalog price, before the discount. */
  subtotal: string;
  /** What the discount took off; null or absent when none. */
  discount?: string | null;
  /** The discount's origin: a promotion code (`promoCode`) or a referred buyer's welcome discount. */
  discountSource?: 'code' | 'welcome' | null;
  promoCode?: string | null;
  /** The part paid from the buyer's credit; null or absent when none. */
  creditApplied?: string | null;
  /** What the order costs: subtotal − discount. */
  total: string;
  /** What the payment provider was asked for (total − credit); listed when credit was applied. */
  toPay?: string | null;
}

export interface WelcomeEmailData {
  /** The buyer's nickname, when known. */
  name?: string | null;
}

export interface PurchasedActiveSubscribeEmailData {
  orderId: number;
  platformName: string;
  endTime: EmailDate;
  profileNumber?: ProfileNumber;
  /** The order's price, discount and total, when a discount or credit lowered it. */
  price?: EmailPrice | null;
  /** Defaults to the buyer's panel, `PUBLIC_URL/user/<userId>`. */
  panelUrl?: string;
}

export interface PurchasedNotActiveSubscribeEmailData {
  orderId: number;
  platformName: string;
  /** Family-group platforms: the buyer must enter their platform login e-mail in the panel. */
  needsInvitation?: boolean;
  /** The order's price, discount and total, when a discount or credit lowered it. */
  price?: EmailPrice | null;
  panelUrl?: string;
}

export interface SubscribeActiveEmailData {
  orderId: number;
  subscriptionId?: number;
  platformName: string;
  startTime?: EmailDate;
  endTime: EmailDate;
  profileNumber?: ProfileNumber;
  panelUrl?: string;
}

export interface TrustPilotInviteEmailData {
  name?: string | null;
  /** Defaults to Trustpilot's review page for the shop's domain. */
  reviewUrl?: string;
}

export interface VerificationCodeEmailData {
  /** The 6-digit code. It is never logged; the outbox shows it masked and keeps it only until the e-mail is sent. */
  code: string;
  /** Defaults to 10. */
  validMinutes?: number;
  /**
   * What the code does: confirm the address (the default) or reset a forgotten password. One kind
   * for both, so that every rule for codes (body cleared after sending, hidden from staff) holds for
   * both; staff `sendemail` builds its own data and so can never send a reset code.
   */
  purpose?: 'emailVerification' | 'passwordReset';
}

export interface AppleTvActiveEmailData {
  orderId: number;
  /** Defaults to "Apple TV". */
  platformName?: string;
  /** The Apple ID the family invitation was sent to. */
  invitationEmail?: string | null;
  endTime: EmailDate;
  panelUrl?: string;
}

export interface ExpiryReminderEmailData {
  subscriptionId: number;
  platformId: number;
  platformName: string;
  endTime: EmailDate;
  /** Defaults to 3. */
  daysLeft?: number;
  /** Defaults to the platform page, `PUBLIC_URL/platform/<platformId>`, where buying again extends the same slot. */
  renewUrl?: string;
}

export interface SubscriptionEndedEmailData {
  subscriptionId: number;
  platformId: number;
  platformName: string;
  endTime: EmailDate;
  renewUrl?: string;
}

export interface SubscriptionReplacedEmailData {
  subscriptionId: number;
  platformName: string;
  /** Unchanged by a replacement, repeated so the buyer sees it. */
  endTime: EmailDate;
  profileNumber?: ProfileNumber;
  /** The new account's login e-mail (the password stays in the panel, never in an e-mail). */
  loginEmail?: string;
  /** Moved by the shop because the old account broke (issue 29): the text says so. */
  accountBroke?: boolean;
  panelUrl?: string;
}

/** To staff alert addresses: an account turned broken, what broke it, where its buyers went. */
export interface AccountBrokenEmailData {
  accountId: number;
  platformName: string;
  accountEmail: string;
  /** What the platform's mail said (an alert kind), its subject, its sender and when it came. Never a code or a link. */
  kind: string;
  subject: string;
  sender: string;
  receivedAt: EmailDate;
  moved: number;
  waiting: number;
  /** The admin page that lists accounts by health. */
  adminUrl?: string;
  offSale?: undefined;
}

/** To staff alert addresses, the same kind (issue 33): every active account of a platform is broken, so it went off sale. */
export interface PlatformOffSaleEmailData {
  offSale: true;
  platformId: number;
  platformName: string;
  /** How many active accounts it has (all broken). */
  accounts: number;
  since: EmailDate;
  adminUrl?: string;
}

/**
 * To staff alert addresses, once per incident: more of a platform's accounts would have turned
 * broken within an hour than the circuit breaker allows (ACCOUNT_BREAKS_PER_HOUR). The further
 * breaks are held; their buyers stay where they are until staff decide.
 */
export interface PlatformIncidentEmailData {
  platformName: string;
  /** The allowance: this many accounts broke within the hour already. */
  breaksPerHour: number;
  /** The first held account: its id, its login e-mail, and what would have broken it (an alert kind or `buyerReports`). */
  accountId: number;
  accountEmail: string;
  cause: string;
  openedAt: EmailDate;
  adminUrl?: string;
}

/**
 * To staff alert addresses, once per period's renewal charge: the payment provider failed an
 * automatic renewal charge for a reason other than the card (a request it refused, an error of its
 * own, rate limiting, no answer). The charge is retried on the dunning schedule; nobody was charged.
 */
export interface RenewalProviderErrorEmailData {
  subscriptionId: number;
  chargeId: number;
  /** The attempt that failed, of maxAttempts. */
  attempt: number;
  maxAttempts: number;
  /** The provider's HTTP status, 0 when no answer came. */
  httpStatus: number;
  errorType: string;
  errorCode: string | null;
  /** The provider's own message. */
  message: string;
  /** The provider's request id (Stripe's Request-Id), for its support. */
  requestId: string | null;
  at: EmailDate;
  adminUrl?: string;
}

/** 15 referralReward (issue 37): a friend's payment earned the inviter credit. */
export interface ReferralRewardEmailData {
  /** The credit earned, for people: "€0.50", "₩1,350". */
  amount: string;
  /** When this credit expires (CREDIT_MONTHS after it was earned). */
  expiresAt: EmailDate;
  /** Defaults to the buyer's panel, `PUBLIC_URL/user/<userId>`, where "Invite friends" shows it. */
  panelUrl?: string;
}

export interface RefundedEmailData {
  orderId: number;
  platformName: string;
  /** What went back, for people: "€8.10", "₩13,500". */
  amount: string;
  /** True when the buyer's bank took the money back (a chargeback), not a refund. */
  chargeback?: boolean;
  /** Defaults to the buyer's panel, `PUBLIC_URL/user/<userId>`. */
  panelUrl?: string;
}

/**
 * Automatic renewal (issue 28), one kind for each step of a period's renewal: `reminder` REMINDER_DAYS
 * before the charge (amount, date, card, one-click cancel link), `renewed` (the receipt),
 * `declined` (a retry is coming; a link to update the card), `final` (the last retry failed: access
 * has ended), `action_required` (the bank wants the buyer to confirm: a link to pay on-session),
 * `pay_link` (the automatic charge could not be made, through no fault of the card: a link to pay).
 */
export interface AutoRenewalEmailData {
  event: 'reminder' | 'renewed' | 'declined' | 'final' | 'action_required' | 'pay_link';
  subscriptionId: number;
  platformName: string;
  /** For people: "€4.99", "₩6,900". */
  amount: string;
  /** reminder: the charge date; renewed: the new end; declined: the next try; final, action_required, pay_link: the end of the held slot. */
  date: EmailDate;
  cardLast4?: string | null;
  /** reminder: stops automatic renewal without logging in (a confirm page, then a POST). */
  cancelUrl?: string;
  /** declined, final: a page to save another card. */
  cardUpdateUrl?: string;
  /** action_required, final, pay_link: pays the renewal on-session. */
  payUrl?: string;
  /** receipt: the renewal order. */
  orderId?: number;
  /**
   * reminder and receipt: the renewal's price, discount, credit and total, when a discount or
   * credit lowers it (then `amount`, the whole price, is not listed again). With credit, the text
   * says the credit and what the card is (or was) charged: `toPay` (issue 37).
   */
  price?: EmailPrice | null;
  /** reminder and receipt: credit pays (paid) the whole renewal, nothing is charged to the card. */
  coveredByCredit?: boolean;
}

export interface EmailDataByKind {
  0: WelcomeEmailData;
  1: PurchasedActiveSubscribeEmailData;
  2: PurchasedNotActiveSubscribeEmailData;
  3: SubscribeActiveEmailData;
  4: TrustPilotInviteEmailData;
  5: VerificationCodeEmailData;
  6: AppleTvActiveEmailData;
  7: ExpiryReminderEmailData;
  8: SubscriptionEndedEmailData;
  9: SubscriptionReplacedEmailData;
  10: RefundedEmailData;
  11: AccountBrokenEmailData | PlatformOffSaleEmailData;
  12: AutoRenewalEmailData;
  13: PlatformIncidentEmailData;
  14: RenewalProviderErrorEmailData;
  15: ReferralRewardEmailData;
}

/** One e-mail to one address, in one language, with the data its kind needs. */
export type EmailMessage<K extends EmailKind = EmailKind> = {
  [P in K]: {
    kind: P;
    to: string;
    languageId: EmailLanguageId;
    /** The user it is about (links the outbox row to the user; also builds the panel link). */
    userId?: number | null;
    data: EmailDataByKind[P];
    /**
     * Makes the call safe to repeat: a second call with the same key writes nothing and returns
     * the first e-mail's id. Name the cause, e.g. `order:42:purchased`.
     */
    idempotencyKey?: string;
  };
}[K];
