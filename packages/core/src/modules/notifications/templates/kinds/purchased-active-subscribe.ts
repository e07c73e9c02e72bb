/** 1 purchasedActiveSubscribe: paid, and the subscription is active at once. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { emailTemplate, facts, panelButton, paragraph, priceFacts, rows } from '../parts.js';

const en = {
  subject: (platform: string, order: string) => `Your ${platform} subscription is active (order #${order})`,
  preheader: 'Your login details and profile number are in your panel.',
  heading: (platform: string) => `Thank you! Your ${platform} subscription is active`,
  paid: 'We received your payment and your subscription is ready to use.',
};

const ko: typeof en = {
  subject: (platform, order) => `${platform} 구독이 활성화되었습니다 (주문 #${order})`,
  preheader: '로그인 정보와 프로필 번호는 내 구독 페이지에서 확인하세요.',
  heading: (platform) => `결제해 주셔서 감사합니다! ${platform} 구독이 시작되었어요`,
  paid: '결제가 확인되어 지금 바로 이용하실 수 있습니다.',
};

export const purchasedActiveSubscribe = emailTemplate(EMAIL_KIND.purchasedActiveSubscribe, { en, ko }, (data, t, w) => {
  const platform = t.text(data.platformName, 'platformName');
  const order = t.id(data.orderId, 'orderId');
  return {
    subject: w.subject(platform, order),
    preheader: w.preheader,
    heading: w.heading(platform),
    blocks: [
      paragraph(w.paid),
      facts(rows.order(t, order), rows.platform(t, platform), ...rows.profile(t, data.profileNumber), rows.validUntil(t, t.date(data.endTime, 'endTime'))),
      ...priceFacts(t, data.price),
      paragraph(t.shared.loginDetailsInPanel),
      panelButton(t, data.panelUrl),
    ],
  };
});
