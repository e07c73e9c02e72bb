/**
 * 12 autoRenewal (issue 28), one e-mail for each step of a period's renewal: `reminder` (before
 * the charge, with a one-click cancel link), `renewed` (the receipt), `declined` (a retry is
 * coming), `final` (the last retry failed), `action_required` (the bank wants the buyer to
 * confirm), `pay_link` (the charge could not be made, through no fault of the card).
 */
import { RENEWAL_ATTEMPTS } from '../../../../promises/index.js';
import { withParticle } from '../../../../validation/korean-particles.js';
import { EMAIL_KIND, type AutoRenewalEmailData } from '../../email-kinds.js';
import type { Block } from '../layout.js';
import { EMAIL_PAGES } from '../links.js';
import { button, emailTemplate, facts, note, paragraph, priceFacts, rows } from '../parts.js';
import type { Tools } from '../tools.js';

/** What every step's text may say: the platform, the amount (as `formatMoney` writes it), the step's date and the card. */
interface Renewal {
  platform: string;
  amount: string;
  date: string;
  /** "your card ending in 4242", or the saved card when its digits are unknown. */
  card: string;
}

/** The reminder's and the receipt's money when credit pays part (`charged` the card's part) or all (`charged` null) of it (issue 37). */
interface CreditPart {
  credit: string;
  charged: string | null;
}

type Step = AutoRenewalEmailData['event'];

const en = {
  card: (last4: string | undefined) => (last4 ? `your card ending in ${last4}` : 'your saved card'),
  cardRow: (last4: string | undefined) => (last4 ? `•••• ${last4}` : 'saved card'),
  labels: { chargeDate: 'Charge date', card: 'Card', order: 'Order', toCharge: 'To be charged to your card' },
  reminder: {
    subject: (r: Renewal) => `Your ${r.platform} subscription renews on ${r.date}`,
    preheader: (r: Renewal) => `We will charge ${r.amount} to ${r.card}. Cancel in one click if you do not want it.`,
    heading: 'Automatic renewal coming up',
    text: (r: Renewal) =>
      `Your ${r.platform} subscription renews automatically. On ${r.date} we will charge ${r.amount} to ${r.card} and your subscription continues on the same profile.`,
    withCredit: {
      preheader: (r: Renewal, c: CreditPart) =>
        c.charged
          ? `We will use ${c.credit} of your credit and charge ${c.charged} to ${r.card}. Cancel in one click if you do not want it.`
          : `Your credit pays the ${r.amount}: nothing is charged to your card. Cancel in one click if you do not want it.`,
      text: (r: Renewal, c: CreditPart) =>
        c.charged
          ? `Your ${r.platform} subscription renews automatically. On ${r.date} we will use ${c.credit} of your credit for the ${r.amount} and charge the rest, ${c.charged}, to ${r.card}; your subscription continues on the same profile.`
          : `Your ${r.platform} subscription renews automatically. On ${r.date} your credit pays the ${r.amount}, so nothing is charged to your card, and your subscription continues on the same profile.`,
      note: 'The credit is what you hold today: if it changes before the renewal, your card is charged for the rest.',
    },
    button: 'Cancel automatic renewal',
    note: 'The link works without logging in and asks you to confirm. If you cancel, nothing is charged and access ends on the end date.',
  },
  renewed: {
    subject: (r: Renewal) => `Receipt: your ${r.platform} subscription is renewed`,
    preheader: (r: Renewal) => `${r.amount} charged to ${r.card}.`,
    heading: 'Subscription renewed',
    text: (r: Renewal) => `We charged ${r.amount} to ${r.card}. Your ${r.platform} subscription continues on the same profile until ${r.date}.`,
    withCredit: {
      preheader: (r: Renewal, c: CreditPart) =>
        c.charged
          ? `${c.credit} paid from your credit, ${c.charged} charged to ${r.card}.`
          : `${r.amount} paid from your credit; nothing charged to your card.`,
      text: (r: Renewal, c: CreditPart) =>
        c.charged
          ? `We used ${c.credit} of your credit and charged the rest, ${c.charged}, to ${r.card}. Your ${r.platform} subscription continues on the same profile until ${r.date}.`
          : `Your credit paid the ${r.amount}, so nothing was charged to your card. Your ${r.platform} subscription continues on the same profile until ${r.date}.`,
    },
    button: 'Go to my panel',
  },
  declined: {
    subject: (r: Renewal) => `We could not renew your ${r.platform} subscription`,
    preheader: (r: Renewal) => `The charge of ${r.amount} was declined. We will try again on ${r.date}.`,
    heading: 'Payment declined',
    text: (r: Renewal) => `Your bank declined the charge of ${r.amount} to ${r.card}. Your profile is kept for you: we will try again on ${r.date}.`,
    button: 'Update my card',
    note: 'Your access is paused until the payment goes through.',
  },
  final: {
    subject: (r: Renewal) => `Your ${r.platform} subscription has ended`,
    preheader: (r: Renewal) => `We could not charge ${r.amount} after ${RENEWAL_ATTEMPTS} tries.`,
    heading: 'Renewal failed',
    text: (r: Renewal) =>
      `We tried ${RENEWAL_ATTEMPTS} times to charge ${r.amount} to ${r.card}, and your bank declined each time. Your ${r.platform} subscription has ended and its profile goes to another member.`,
    button: 'Buy it again',
  },
  action_required: {
    subject: (r: Renewal) => `Confirm the renewal of your ${r.platform} subscription`,
    preheader: (r: Renewal) => `Your bank asks you to confirm the payment of ${r.amount}.`,
    heading: 'Your bank needs your confirmation',
    text: (r: Renewal) =>
      `Your bank wants you to confirm the charge of ${r.amount} for your ${r.platform} subscription. Your profile is kept for you until ${r.date}.`,
    button: 'Confirm the payment',
  },
  pay_link: {
    subject: (r: Renewal) => `Renew your ${r.platform} subscription with one click`,
    preheader: (r: Renewal) => `We could not take the automatic payment of ${r.amount}. Your card is not the problem.`,
    heading: 'Please renew by link',
    text: (r: Renewal) =>
      `We could not take the automatic payment of ${r.amount} for your ${r.platform} subscription because of a problem on our side or our payment provider's, not with your card. Your profile is kept for you until ${r.date}: pay with the button below to renew.`,
    button: 'Renew now',
  },
};

const ko: typeof en = {
  card: (last4) => (last4 ? `끝자리 ${last4} 카드` : '저장된 카드'),
  cardRow: (last4) => (last4 ? `•••• ${last4}` : '저장된 카드'),
  labels: { chargeDate: '결제 예정일', card: '카드', order: '주문', toCharge: '카드 결제 예정 금액' },
  reminder: {
    subject: (r) => `${r.platform} 구독이 ${r.date}에 자동 연장됩니다`,
    preheader: (r) => `${r.card}로 ${withParticle(r.amount, '이')} 결제됩니다. 원하지 않으면 한 번에 해지할 수 있어요.`,
    heading: '자동 연장 예정 안내',
    text: (r) =>
      `${r.platform} 구독은 자동 연장으로 설정되어 있어요. ${r.date}에 ${r.card}로 ${withParticle(r.amount, '을')} 결제하고, 지금 쓰는 프로필에서 구독이 이어집니다.`,
    withCredit: {
      preheader: (r, c) =>
        c.charged
          ? `적립금 ${withParticle(c.credit, '을')} 먼저 사용하고 ${r.card}로 ${withParticle(c.charged, '이')} 결제됩니다. 원하지 않으면 한 번에 해지할 수 있어요.`
          : `${r.amount} 전액을 적립금으로 결제해 카드로는 결제되지 않아요. 원하지 않으면 한 번에 해지할 수 있어요.`,
      text: (r, c) =>
        c.charged
          ? `${r.platform} 구독은 자동 연장으로 설정되어 있어요. ${r.date}에 ${r.amount} 중 적립금 ${withParticle(c.credit, '을')} 먼저 사용하고, 나머지 ${withParticle(c.charged, '을')} ${r.card}로 결제하며, 지금 쓰는 프로필에서 구독이 이어집니다.`
          : `${r.platform} 구독은 자동 연장으로 설정되어 있어요. ${r.date}에 ${r.amount} 전액을 적립금으로 결제하므로 카드로는 결제되지 않으며, 지금 쓰는 프로필에서 구독이 이어집니다.`,
      note: '적립금은 오늘 보유한 금액 기준이에요. 연장 전에 달라지면 부족한 금액은 카드로 결제됩니다.',
    },
    button: '자동 연장 해지하기',
    note: '로그인 없이 열리며, 해지 전에 한 번 더 확인합니다. 해지하면 결제되지 않고 만료일에 이용이 끝납니다.',
  },
  renewed: {
    subject: (r) => `영수증: ${r.platform} 구독이 연장되었습니다`,
    preheader: (r) => `${r.card}로 ${withParticle(r.amount, '이')} 결제되었습니다.`,
    heading: '구독 연장 완료',
    text: (r) => `${r.card}로 ${withParticle(r.amount, '을')} 결제했어요. ${r.platform} 구독은 같은 프로필에서 ${r.date}까지 이어집니다.`,
    withCredit: {
      preheader: (r, c) =>
        c.charged
          ? `적립금 ${withParticle(c.credit, '을')} 사용하고 ${r.card}로 ${withParticle(c.charged, '이')} 결제되었습니다.`
          : `${r.amount} 전액을 적립금으로 결제했어요. 카드로는 결제되지 않았습니다.`,
      text: (r, c) =>
        c.charged
          ? `적립금 ${withParticle(c.credit, '을')} 사용하고 나머지 ${withParticle(c.charged, '을')} ${r.card}로 결제했어요. ${r.platform} 구독은 같은 프로필에서 ${r.date}까지 이어집니다.`
          : `${r.amount} 전액을 적립금으로 결제해 카드로는 결제되지 않았어요. ${r.platform} 구독은 같은 프로필에서 ${r.date}까지 이어집니다.`,
    },
    button: '내 구독 보기',
  },
  declined: {
    subject: (r) => `${r.platform} 구독 연장 결제가 거절되었습니다`,
    preheader: (r) => `${r.amount} 결제가 거절되었어요. ${r.date}에 다시 시도합니다.`,
    heading: '결제 거절 안내',
    text: (r) => `카드사에서 ${r.card}의 ${r.amount} 결제를 거절했어요. 프로필은 그대로 보관되며 ${r.date}에 다시 결제를 시도합니다.`,
    button: '카드 변경하기',
    note: '결제가 완료될 때까지 이용이 일시 중지됩니다.',
  },
  final: {
    subject: (r) => `${r.platform} 구독이 종료되었습니다`,
    preheader: (r) => `${RENEWAL_ATTEMPTS}번 시도했지만 ${withParticle(r.amount, '을')} 결제하지 못했어요.`,
    heading: '자동 연장 실패',
    text: (r) =>
      `${r.card}로 ${r.amount} 결제를 ${RENEWAL_ATTEMPTS}번 시도했지만 모두 거절되었어요. ${r.platform} 구독이 종료되었고 프로필은 다른 회원에게 배정됩니다.`,
    button: '다시 구매하기',
  },
  action_required: {
    subject: (r) => `${r.platform} 구독 연장 결제를 확인해 주세요`,
    preheader: (r) => `카드사에서 ${r.amount} 결제 확인을 요청했어요.`,
    heading: '결제 확인이 필요해요',
    text: (r) => `카드사에서 ${r.platform} 구독 연장 결제(${r.amount})에 대한 본인 확인을 요청했어요. 프로필은 ${r.date}까지 보관됩니다.`,
    button: '결제 확인하기',
  },
  pay_link: {
    subject: (r) => `${r.platform} 구독을 링크로 연장해 주세요`,
    preheader: (r) => `${r.amount} 자동 결제를 진행하지 못했어요. 카드 문제는 아닙니다.`,
    heading: '링크로 연장해 주세요',
    text: (r) =>
      `저희 쪽 또는 결제 대행사의 문제로 ${r.platform} 구독의 ${r.amount} 자동 결제를 진행하지 못했어요. 카드에는 문제가 없습니다. 프로필은 ${r.date}까지 보관되며, 아래 버튼으로 결제하면 구독이 연장됩니다.`,
    button: '지금 연장하기',
  },
};

export const autoRenewal = emailTemplate(EMAIL_KIND.autoRenewal, { en, ko }, (data, t, w) => {
  const last4 = t.optionalText(data.cardLast4);
  const renewal: Renewal = {
    platform: t.text(data.platformName, 'platformName'),
    amount: t.text(data.amount, 'amount'),
    date: t.date(data.date, 'date'),
    card: w.card(last4),
  };
  const step = w[data.event] ?? t.invalid('event', `must be one of ${Object.keys(STEP_LINKS).join(', ')}`);
  const credit = creditPart(data, t);
  // The reminder and the receipt say what credit pays and what the card is charged (issue 37).
  const said = credit && 'withCredit' in step ? step.withCredit : undefined;
  return {
    subject: step.subject(renewal),
    preheader: said && credit ? said.preheader(renewal, credit) : step.preheader(renewal),
    heading: step.heading,
    blocks: [
      paragraph(said && credit ? said.text(renewal, credit) : step.text(renewal)),
      ...stepFacts(data, t, w, renewal, last4),
      button(step.button, STEP_LINKS[data.event](data, t)),
      // Credit held now may change before the charge: the reminder says the card pays the rest then.
      ...(credit && data.event === 'reminder' ? [note(w.reminder.withCredit.note)] : []),
      ...('note' in step ? [note(step.note)] : []),
    ],
  };
});

/** The credit the renewal takes and the card's part (null when credit pays it all), from `price`; none without credit. */
function creditPart(data: AutoRenewalEmailData, t: Tools): CreditPart | undefined {
  const credit = t.optionalText(data.price?.creditApplied);
  if (!credit) return undefined;
  return { credit, charged: data.coveredByCredit ? null : t.text(data.price?.toPay, 'price.toPay') };
}

/** The reminder and the receipt list the money; the other steps say it in their text. */
function stepFacts(data: AutoRenewalEmailData, t: Tools, w: typeof en, renewal: Renewal, last4: string | undefined): Block[] {
  if (data.event === 'reminder') {
    // With credit, the price rows say the credit and what the card is to be charged.
    const price = priceFacts(t, data.price, w.labels.toCharge);
    return [
      facts(price.length > 0 ? undefined : rows.amount(t, renewal.amount), [w.labels.chargeDate, renewal.date], [w.labels.card, w.cardRow(last4)]),
      ...price,
    ];
  }
  if (data.event === 'renewed') {
    // With a discount or credit, the price rows say what was paid; else the one amount does.
    const price = priceFacts(t, data.price);
    return [
      facts(
        price.length > 0 ? undefined : rows.amount(t, renewal.amount),
        rows.validUntil(t, renewal.date),
        data.orderId ? [w.labels.order, `#${t.id(data.orderId, 'orderId')}`] : undefined,
      ),
      ...price,
    ];
  }
  return [];
}

/** Where each step's button goes: the caller's link for the step, else the panel (the reminder's cancel link, else the home page). */
const STEP_LINKS: Record<Step, (data: AutoRenewalEmailData, t: Tools) => string> = {
  reminder: (data, t) => t.page(EMAIL_PAGES.home(), data.cancelUrl),
  renewed: (_data, t) => t.panelUrl(undefined),
  declined: (data, t) => t.panelUrl(data.cardUpdateUrl),
  final: (data, t) => t.panelUrl(data.payUrl),
  action_required: (data, t) => t.panelUrl(data.payUrl),
  pay_link: (data, t) => t.panelUrl(data.payUrl),
};
