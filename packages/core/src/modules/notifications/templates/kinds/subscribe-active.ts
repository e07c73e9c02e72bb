/** 3 subscribeActive: a waiting order's subscription is active now. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { emailTemplate, facts, panelButton, paragraph, rows } from '../parts.js';

const en = {
  subject: (platform: string) => `Your ${platform} subscription is now active`,
  preheader: 'Thank you for waiting. Your login details are in your panel.',
  heading: (platform: string) => `Good news: your ${platform} subscription is active`,
  active: (order: string) => `Thank you for waiting. Your order #${order} is now active.`,
  starts: 'Starts',
};

const ko: typeof en = {
  subject: (platform) => `${platform} 구독이 활성화되었습니다`,
  preheader: '기다려 주셔서 감사합니다. 로그인 정보는 내 구독 페이지에서 확인하세요.',
  heading: (platform) => `기다려 주셔서 감사합니다. ${platform} 구독이 활성화되었어요`,
  active: (order) => `주문 #${order}의 구독이 활성화되었습니다.`,
  starts: '시작일',
};

export const subscribeActive = emailTemplate(EMAIL_KIND.subscribeActive, { en, ko }, (data, t, w) => {
  const platform = t.text(data.platformName, 'platformName');
  const order = t.id(data.orderId, 'orderId');
  return {
    subject: w.subject(platform),
    preheader: w.preheader,
    heading: w.heading(platform),
    blocks: [
      paragraph(w.active(order)),
      facts(
        rows.order(t, order),
        data.subscriptionId === undefined ? undefined : rows.subscription(t, t.id(data.subscriptionId, 'subscriptionId')),
        rows.platform(t, platform),
        ...rows.profile(t, data.profileNumber),
        data.startTime === undefined ? undefined : [w.starts, t.date(data.startTime, 'startTime')],
        rows.validUntil(t, t.date(data.endTime, 'endTime')),
      ),
      paragraph(t.shared.loginDetailsInPanel),
      panelButton(t, data.panelUrl),
    ],
  };
});
