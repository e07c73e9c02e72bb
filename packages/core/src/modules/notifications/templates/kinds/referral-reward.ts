/** 15 referralReward (issue 37): a friend the buyer invited paid, kept the purchase, and the buyer earned credit. */
import { withParticle } from '../../../../validation/korean-particles.js';
import { CREDIT_MONTHS } from '../../../../promises/index.js';
import { EMAIL_KIND } from '../../email-kinds.js';
import { button, emailTemplate, facts, paragraph, rows } from '../parts.js';

const en = {
  subject: (amount: string) => `You earned ${amount} in credit`,
  preheader: 'A friend you invited made their first purchase.',
  heading: 'Thank you for inviting a friend',
  what: (amount: string) => `A friend who signed up with your invitation link made their first purchase, so you have earned ${amount} in credit.`,
  how: `Your credit is used first at checkout and for automatic renewals, in the same currency, and lasts ${CREDIT_MONTHS} months.`,
  amountLabel: 'Credit earned',
  expiresLabel: 'Expires',
  more: 'Keep sharing your link from your panel: every friend who buys earns you more.',
  panel: 'Invite more friends',
};

const ko: typeof en = {
  subject: (amount) => `${withParticle(amount, '이')} 적립되었습니다`,
  preheader: '초대하신 친구가 첫 구매를 완료했습니다.',
  heading: '친구를 초대해 주셔서 감사합니다',
  what: (amount) => `회원님의 초대 링크로 가입한 친구가 첫 구매를 완료하여 ${withParticle(amount, '이')} 적립금으로 지급되었습니다.`,
  how: `적립금은 같은 통화의 결제와 자동 갱신에 먼저 사용되며, ${CREDIT_MONTHS}개월 동안 사용할 수 있습니다.`,
  amountLabel: '적립 금액',
  expiresLabel: '만료일',
  more: '내 구독 페이지에서 초대 링크를 계속 공유해 보세요. 친구가 구매할 때마다 적립금이 쌓입니다.',
  panel: '친구 더 초대하기',
};

export const referralReward = emailTemplate(EMAIL_KIND.referralReward, { en, ko }, (data, t, w) => {
  const amount = t.text(data.amount, 'amount');
  const expires = t.date(data.expiresAt, 'expiresAt');
  return {
    subject: w.subject(amount),
    preheader: w.preheader,
    heading: w.heading,
    blocks: [
      paragraph(w.what(amount)),
      facts(rows.amount(t, amount, w.amountLabel), [w.expiresLabel, expires]),
      paragraph(w.how),
      paragraph(w.more),
      button(w.panel, t.panelUrl(data.panelUrl)),
    ],
  };
});
