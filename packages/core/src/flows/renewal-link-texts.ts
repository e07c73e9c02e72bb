/**
 * The words of the pages the renewal e-mails' links open (cancel, pay), in both languages. The page
 * is in the language of the order, as the e-mail is, and says what the e-mail said: the platform,
 * the period, the amount (the shop's one money format) and the date written as the e-mail writes
 * it. A link that names no order (forged, expired) is answered in the visitor's language.
 */
import type { EmailLanguageId as LanguageId } from '../modules/notifications/index.js';
import { withParticle } from '../validation/korean-particles.js';

/** What a page says about the subscription, each already written for the page's language. */
export interface RenewalLinkFacts {
  /** The ID the buyer knows (the first of a replacement chain). */
  subscriptionId: number;
  platform: string;
  /** The length of one period: "1 month", "3개월". */
  period: string;
  /** "€4.99", "₩13,500". */
  amount: string;
  /** When access ends without a renewal, as the e-mail writes a date. */
  endsAt: string;
}

export interface RenewalLinkTexts {
  period(months: number): string;
  labels: { platform: string; period: string; amount: string; endsAt: string; toPay: string };
  invalidTitle: string;
  invalidCancel: string;
  invalidPay: string;
  gone: string;
  ended: string;
  notHere: string;
  offTitle: string;
  off(f: RenewalLinkFacts): string;
  cancelTitle: string;
  cancel(f: RenewalLinkFacts): string;
  cancelLabel: string;
  cancelledTitle: string;
  cancelled(f: RenewalLinkFacts): string;
  renewedTitle: string;
  renewed(f: RenewalLinkFacts): string;
  payTitle(f: RenewalLinkFacts): string;
  pay(f: RenewalLinkFacts): string;
  /** Said just above the button: what will be charged. */
  payNote(f: RenewalLinkFacts): string;
  payLabel(f: RenewalLinkFacts): string;
  panel: string;
  shop: string;
}

export const RENEWAL_LINK_TEXTS: Record<LanguageId, RenewalLinkTexts> = {
  1: {
    period: (months) => (months === 1 ? '1 month' : `${months} months`),
    labels: { platform: 'Platform', period: 'Period', amount: 'Amount', endsAt: 'Access ends', toPay: 'To pay' },
    invalidTitle: 'Link not valid',
    invalidCancel: 'This link is not valid or has expired. You can turn automatic renewal off in your panel.',
    invalidPay: 'This link is not valid or has expired. Renew from the platform page.',
    gone: 'This subscription no longer exists.',
    ended: 'This subscription has ended. Buy it again from the platform page.',
    notHere: 'This subscription cannot be renewed here.',
    offTitle: 'Automatic renewal is off',
    off: (f) => `Nothing will be charged for your ${f.platform} subscription (#${f.subscriptionId}). Its access ends on ${f.endsAt}.`,
    cancelTitle: 'Cancel automatic renewal?',
    cancel: (f) =>
      `Your ${f.platform} subscription (#${f.subscriptionId}) will not renew: ${f.amount} for ${f.period} will not be charged, and its access ends on ${f.endsAt}.`,
    cancelLabel: 'Yes, cancel automatic renewal',
    cancelledTitle: 'Automatic renewal cancelled',
    cancelled: (f) =>
      `Nothing will be charged for your ${f.platform} subscription (#${f.subscriptionId}). Its access ends on ${f.endsAt}; you can turn renewal back on in your panel before then.`,
    renewedTitle: 'Already renewed',
    renewed: (f) => `Your ${f.platform} subscription (#${f.subscriptionId}) has been renewed already: its access now ends on ${f.endsAt}.`,
    payTitle: (f) => `Renew your ${f.platform} subscription`,
    pay: (f) =>
      `${f.period} more of your ${f.platform} subscription (#${f.subscriptionId}), on the same profile. Without renewal, its access ends on ${f.endsAt}.`,
    payNote: (f) => `You will be charged ${f.amount} on the payment page that opens next.`,
    payLabel: (f) => `Pay ${f.amount}`,
    panel: 'Go to my panel',
    shop: 'Back to the shop',
  },
  2: {
    period: (months) => `${months}개월`,
    labels: { platform: '플랫폼', period: '기간', amount: '금액', endsAt: '이용 종료일', toPay: '결제 금액' },
    invalidTitle: '유효하지 않은 링크',
    invalidCancel: '링크가 유효하지 않거나 만료되었습니다. 자동 연장은 내 구독 페이지에서 해지할 수 있어요.',
    invalidPay: '링크가 유효하지 않거나 만료되었습니다. 플랫폼 페이지에서 연장해 주세요.',
    gone: '이 구독은 더 이상 존재하지 않습니다.',
    ended: '이 구독은 종료되었습니다. 플랫폼 페이지에서 다시 구매해 주세요.',
    notHere: '이 구독은 여기에서 연장할 수 없습니다.',
    offTitle: '자동 연장이 꺼져 있어요',
    off: (f) => `${f.platform} 구독(#${f.subscriptionId})에는 결제되지 않습니다. 이용은 ${f.endsAt}에 끝납니다.`,
    cancelTitle: '자동 연장을 해지할까요?',
    cancel: (f) =>
      `${f.platform} 구독(#${f.subscriptionId})이 연장되지 않습니다. ${f.period} 이용료 ${withParticle(f.amount, '이')} 결제되지 않고, 이용은 ${f.endsAt}에 끝납니다.`,
    cancelLabel: '네, 자동 연장을 해지합니다',
    cancelledTitle: '자동 연장이 해지되었어요',
    cancelled: (f) =>
      `${f.platform} 구독(#${f.subscriptionId})에는 결제되지 않습니다. 이용은 ${f.endsAt}에 끝나며, 그 전에 내 구독 페이지에서 다시 켤 수 있어요.`,
    renewedTitle: '이미 연장되었어요',
    renewed: (f) => `${f.platform} 구독(#${f.subscriptionId})은 이미 연장되어 ${f.endsAt}까지 이용할 수 있어요.`,
    payTitle: (f) => `${f.platform} 구독 연장하기`,
    pay: (f) => `${f.platform} 구독(#${f.subscriptionId})을 같은 프로필에서 ${f.period} 더 이용합니다. 연장하지 않으면 ${f.endsAt}에 이용이 끝납니다.`,
    payNote: (f) => `다음 결제 페이지에서 ${withParticle(f.amount, '이')} 결제됩니다.`,
    payLabel: (f) => `${f.amount} 결제하기`,
    panel: '내 구독 페이지로 가기',
    shop: '쇼핑몰로 돌아가기',
  },
};
