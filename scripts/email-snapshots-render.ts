/**
 * The reviewed e-mail snapshots: every e-mail kind (and each variant a kind has) rendered in both
 * languages from fixed sample data, as the files in test/snapshots/emails/: `<name>.<lang>.html`
 * (the HTML part) and `<name>.<lang>.txt` (the subject line, a blank line, then the plain-text
 * part). `npm run snapshots:emails` writes them (scripts/email-snapshots.ts);
 * test/unit/email-snapshots.test.ts fails when the rendering differs from them. A change to a
 * shared block shows in the diff of every file it lands in, for a reviewer to read.
 */
import { fileURLToPath } from 'node:url';
import { EMAIL_KIND, EMAIL_KIND_NAMES, renderEmail, type EmailDataByKind, type EmailKind, type EmailRenderContext } from '@subshare/core';
import { formatMoney } from '@subshare/core/storefront';

export const SNAPSHOT_DIR = fileURLToPath(new URL('../test/snapshots/emails/', import.meta.url));

const CONTEXT: EmailRenderContext = {
  brand: 'subshare',
  publicUrl: 'https://shop.example.test',
  business: {
    name: 'Subshare Ltd',
    registrationNumber: '123-45-67890',
    mailOrderNumber: '2026-Seoul-0042',
    address: '7 Example Road, Seoul',
    representative: 'Jiwoo Kim',
    supportPhone: '+82 2 0000 0000',
    supportEmail: 'help@shop.example.test',
  },
};

const USER_ID = 77;
const END = '2027-03-01T00:30:00Z';
const AT = '2027-02-26T06:05:00Z';
const AMOUNT = formatMoney(4.99, 'EUR');

type Sample<K extends EmailKind = EmailKind> = { kind: K; variant?: string; data: EmailDataByKind[K] };
const sample = <K extends EmailKind>(kind: K, data: EmailDataByKind[K], variant?: string): Sample => ({ kind, data, variant }) as Sample;

const renewal = { subscriptionId: 11, platformName: 'Netflix Premium', amount: AMOUNT, date: END, cardLast4: '4242' } as const;
const token = (path: string) => `https://shop.example.test/api/subscribe/autorenew/${path}?token=sample`;

/** Every kind, and every variant of its text (each `if`/`switch` a template makes on its data). */
export const EMAIL_SAMPLES: Sample[] = [
  sample(EMAIL_KIND.welcome, { name: 'Minji' }),
  sample(EMAIL_KIND.purchasedActiveSubscribe, { orderId: 42, platformName: 'Netflix Premium', endTime: END, profileNumber: 2 }),
  sample(EMAIL_KIND.purchasedNotActiveSubscribe, { orderId: 43, platformName: 'YouTube Premium', needsInvitation: true }),
  // Issue 37: an order with a promotion code; one with the welcome discount and credit applied.
  sample(
    EMAIL_KIND.purchasedActiveSubscribe,
    {
      orderId: 42,
      platformName: 'Netflix Premium',
      endTime: END,
      profileNumber: 2,
      price: {
        subtotal: formatMoney(12.99, 'EUR'),
        discount: formatMoney(1.3, 'EUR'),
        discountSource: 'code',
        promoCode: 'LAUNCH10',
        total: formatMoney(11.69, 'EUR'),
      },
    },
    'discount',
  ),
  sample(
    EMAIL_KIND.purchasedNotActiveSubscribe,
    {
      orderId: 43,
      platformName: 'YouTube Premium',
      price: {
        subtotal: formatMoney(19900, 'KRW'),
        discount: formatMoney(1990, 'KRW'),
        discountSource: 'welcome',
        total: formatMoney(17910, 'KRW'),
        creditApplied: formatMoney(5000, 'KRW'),
        toPay: formatMoney(12910, 'KRW'),
      },
    },
    'welcomeAndCredit',
  ),
  sample(EMAIL_KIND.subscribeActive, {
    orderId: 44,
    subscriptionId: 7,
    platformName: 'Netflix Premium',
    startTime: '2027-02-01T00:30:00Z',
    endTime: END,
    profileNumber: 0,
  }),
  sample(EMAIL_KIND.trustPilotInvite, { name: 'Minji' }),
  sample(EMAIL_KIND.verificationCode, { code: '042917' }),
  sample(EMAIL_KIND.verificationCode, { code: '042917', purpose: 'passwordReset' }, 'passwordReset'),
  sample(EMAIL_KIND.appleTVActive, { orderId: 45, platformName: 'Apple TV+', invitationEmail: 'apple-id@example.test', endTime: END }),
  sample(EMAIL_KIND.expiryReminder, { subscriptionId: 8, platformId: 3, platformName: 'Netflix Premium', endTime: END }),
  sample(EMAIL_KIND.subscriptionEnded, { subscriptionId: 9, platformId: 3, platformName: 'Netflix Premium', endTime: END }),
  sample(EMAIL_KIND.subscriptionReplaced, { subscriptionId: 10, platformName: 'Netflix Premium', endTime: END, profileNumber: 4 }),
  sample(
    EMAIL_KIND.subscriptionReplaced,
    { subscriptionId: 10, platformName: 'Netflix Premium', endTime: END, profileNumber: 4, loginEmail: 'share3@mail.example.test', accountBroke: true },
    'accountBroke',
  ),
  sample(EMAIL_KIND.refunded, { orderId: 46, platformName: 'Netflix Premium', amount: formatMoney(8.1, 'EUR') }),
  sample(EMAIL_KIND.refunded, { orderId: 46, platformName: 'Netflix Premium', amount: formatMoney(13500, 'KRW'), chargeback: true }, 'chargeback'),
  sample(EMAIL_KIND.accountBroken, {
    accountId: 12,
    platformName: 'Netflix Premium',
    accountEmail: 'acct@mail.example.test',
    kind: 'passwordChanged',
    subject: 'Your password was changed',
    sender: 'info@account.netflix.com',
    receivedAt: AT,
    moved: 2,
    waiting: 1,
  }),
  sample(
    EMAIL_KIND.accountBroken,
    {
      accountId: 12,
      platformName: 'Netflix Premium',
      accountEmail: 'acct@mail.example.test',
      kind: 'passwordChanged',
      subject: 'Your password was changed',
      sender: 'info@account.netflix.com',
      receivedAt: AT,
      moved: 3,
      waiting: 0,
    },
    'allMoved',
  ),
  sample(EMAIL_KIND.accountBroken, { offSale: true, platformId: 3, platformName: 'Netflix Premium', accounts: 4, since: AT }, 'offSale'),
  sample(EMAIL_KIND.autoRenewal, { ...renewal, event: 'reminder', cancelUrl: token('cancel') }, 'reminder'),
  sample(EMAIL_KIND.autoRenewal, { ...renewal, event: 'renewed', orderId: 47 }, 'renewed'),
  sample(
    EMAIL_KIND.autoRenewal,
    {
      ...renewal,
      event: 'renewed',
      orderId: 47,
      // Credit paid part of the renewal: the card was charged the rest.
      price: { subtotal: AMOUNT, total: AMOUNT, creditApplied: formatMoney(2, 'EUR'), toPay: formatMoney(2.99, 'EUR') },
    },
    'renewed-credit',
  ),
  sample(
    EMAIL_KIND.autoRenewal,
    {
      ...renewal,
      event: 'renewed',
      orderId: 47,
      // Credit paid all of it: nothing was charged to the card.
      price: { subtotal: AMOUNT, total: AMOUNT, creditApplied: AMOUNT, toPay: formatMoney(0, 'EUR') },
      coveredByCredit: true,
    },
    'renewed-credit-all',
  ),
  sample(
    EMAIL_KIND.autoRenewal,
    {
      ...renewal,
      event: 'reminder',
      cancelUrl: token('cancel'),
      // The buyer holds €2.00 of credit: it pays first, the card the rest.
      price: { subtotal: AMOUNT, total: AMOUNT, creditApplied: formatMoney(2, 'EUR'), toPay: formatMoney(2.99, 'EUR') },
    },
    'reminder-credit',
  ),
  sample(
    EMAIL_KIND.autoRenewal,
    {
      ...renewal,
      event: 'reminder',
      cancelUrl: token('cancel'),
      price: { subtotal: AMOUNT, total: AMOUNT, creditApplied: AMOUNT, toPay: formatMoney(0, 'EUR') },
      coveredByCredit: true,
    },
    'reminder-credit-all',
  ),
  sample(EMAIL_KIND.autoRenewal, { ...renewal, event: 'declined', cardUpdateUrl: token('card') }, 'declined'),
  sample(EMAIL_KIND.autoRenewal, { ...renewal, event: 'final', payUrl: token('pay') }, 'final'),
  sample(EMAIL_KIND.autoRenewal, { ...renewal, event: 'action_required', payUrl: token('pay') }, 'action_required'),
  sample(EMAIL_KIND.autoRenewal, { ...renewal, event: 'pay_link', payUrl: token('pay'), cardLast4: null }, 'pay_link'),
  sample(EMAIL_KIND.platformIncident, {
    platformName: 'Netflix Premium',
    breaksPerHour: 2,
    accountId: 13,
    accountEmail: 'acct3@mail.example.test',
    cause: 'passwordChanged',
    openedAt: AT,
  }),
  sample(EMAIL_KIND.renewalProviderError, {
    subscriptionId: 14,
    chargeId: 3,
    attempt: 1,
    maxAttempts: 3,
    httpStatus: 400,
    errorType: 'invalid_request_error',
    errorCode: 'parameter_missing',
    message: 'Missing required param: customer.',
    requestId: 'req_abc123',
    at: AT,
  }),
  sample(
    EMAIL_KIND.renewalProviderError,
    {
      subscriptionId: 14,
      chargeId: 3,
      attempt: 2,
      maxAttempts: 3,
      httpStatus: 0,
      errorType: 'shop_error',
      errorCode: null,
      message: 'connection reset',
      requestId: null,
      at: AT,
    },
    'shopError',
  ),
  sample(EMAIL_KIND.referralReward, { amount: '€0.50', expiresAt: '2027-12-16T09:00:00Z' }),
];

const LANGUAGES = [
  [1, 'en'],
  [2, 'ko'],
] as const;

/** The snapshot files by name, as the current code renders them. */
export function emailSnapshots(): Map<string, string> {
  const files = new Map<string, string>();
  for (const { kind, variant, data } of EMAIL_SAMPLES) {
    for (const [languageId, lang] of LANGUAGES) {
      const email = renderEmail({ kind, languageId, data, userId: USER_ID }, CONTEXT);
      const name = `${EMAIL_KIND_NAMES[kind]}${variant ? `-${variant}` : ''}.${lang}`;
      files.set(`${name}.html`, email.html.endsWith('\n') ? email.html : `${email.html}\n`);
      files.set(`${name}.txt`, `Subject: ${email.subject}\n\n${email.text}`);
    }
  }
  return files;
}
