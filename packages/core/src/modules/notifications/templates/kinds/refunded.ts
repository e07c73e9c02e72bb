/** 10 refunded: the order was refunded, or (chargeback) the buyer's bank took the payment back. */
import { withParticle } from '../../../../validation/korean-particles.js';
import { EMAIL_KIND } from '../../email-kinds.js';
import { button, emailTemplate, facts, paragraph, rows } from '../parts.js';

const en = {
  refund: {
    subject: (order: string) => `Your order #${order} has been refunded`,
    preheader: (platform: string, amount: string) => `${amount} is on its way back to you.`,
    heading: 'Refund made',
    what: (order: string, platform: string, amount: string) =>
      `We have refunded ${amount} for order #${order}. Your ${platform} subscription has ended and its login details no longer work.`,
    amountLabel: 'Refunded',
    after: 'Depending on your bank or payment method, the money can take a few days to appear on your statement.',
  },
  chargeback: {
    subject: (order: string) => `Your bank took back the payment for order #${order}`,
    preheader: (platform: string) => `Your ${platform} subscription has ended.`,
    heading: 'Payment taken back',
    what: (order: string, platform: string) =>
      `Your bank has taken back the payment for order #${order}, so your ${platform} subscription has ended and its login details no longer work.`,
    amountLabel: 'Taken back',
    after: 'If you did not ask your bank for this, please contact us.',
  },
  panel: 'Go to my panel',
};

const ko: typeof en = {
  refund: {
    subject: (order) => `${withParticle(`주문 #${order}`, '이')} 환불되었습니다`,
    preheader: (platform, amount) => `${withParticle(amount, '이')} 환불 처리되었습니다.`,
    heading: '환불 완료 안내',
    what: (order, platform, amount) =>
      `주문 #${order}에 대해 ${withParticle(amount, '을')} 환불해 드렸습니다. ${platform} 구독은 종료되었으며 기존 로그인 정보는 더 이상 사용할 수 없습니다.`,
    amountLabel: '환불 금액',
    after: '카드사나 결제 수단에 따라 환불 금액이 확인되기까지 며칠이 걸릴 수 있습니다.',
  },
  chargeback: {
    subject: (order) => `주문 #${order}의 결제가 카드사(은행)에 의해 취소되었습니다`,
    preheader: (platform) => `${platform} 구독이 종료되었습니다.`,
    heading: '결제 취소(차지백) 안내',
    what: (order, platform) =>
      `카드사(은행)에서 주문 #${order}의 결제를 취소하여 ${platform} 구독이 종료되었습니다. 기존 로그인 정보는 더 이상 사용할 수 없습니다.`,
    amountLabel: '취소 금액',
    after: '직접 요청하신 것이 아니라면 고객센터로 문의해 주세요.',
  },
  panel: '내 구독 페이지로 가기',
};

export const refunded = emailTemplate(EMAIL_KIND.refunded, { en, ko }, (data, t, words) => {
  const platform = t.text(data.platformName, 'platformName');
  const order = t.id(data.orderId, 'orderId');
  const amount = t.text(data.amount, 'amount');
  const w = data.chargeback === true ? words.chargeback : words.refund;
  return {
    subject: w.subject(order),
    preheader: w.preheader(platform, amount),
    heading: w.heading,
    blocks: [
      paragraph(w.what(order, platform, amount)),
      facts(rows.order(t, order), rows.platform(t, platform), rows.amount(t, amount, w.amountLabel)),
      paragraph(w.after),
      button(words.panel, t.panelUrl(data.panelUrl)),
    ],
  };
});
