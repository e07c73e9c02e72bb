/** 8 subscriptionEnded: the subscription is over; the buyer can start again. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { EMAIL_PAGES } from '../links.js';
import { button, emailTemplate, paragraph } from '../parts.js';

const en = {
  subject: (platform: string) => `Your ${platform} subscription has ended`,
  preheader: 'You can start again at any time.',
  heading: (platform: string) => `Your ${platform} subscription has ended`,
  ended: (subscription: string, end: string, brand: string) =>
    `Your subscription #${subscription} ended on ${end}, and its login details no longer work. Thank you for using ${brand}.`,
  again: 'You can start again at any time:',
  subscribe: 'Subscribe again',
};

const ko: typeof en = {
  subject: (platform) => `${platform} 구독이 종료되었습니다`,
  preheader: '언제든지 다시 시작할 수 있어요.',
  heading: (platform) => `${platform} 구독이 종료되었습니다`,
  ended: (subscription, end) => `구독(#${subscription})이 ${end}에 종료되어, 해당 로그인 정보는 더 이상 사용할 수 없습니다. 그동안 이용해 주셔서 감사합니다.`,
  again: '언제든지 다시 시작할 수 있어요.',
  subscribe: '다시 구독하기',
};

export const subscriptionEnded = emailTemplate(EMAIL_KIND.subscriptionEnded, { en, ko }, (data, t, w) => {
  const platform = t.text(data.platformName, 'platformName');
  return {
    subject: w.subject(platform),
    preheader: w.preheader,
    heading: w.heading(platform),
    blocks: [
      paragraph(w.ended(t.id(data.subscriptionId, 'subscriptionId'), t.date(data.endTime, 'endTime'), t.brand)),
      paragraph(w.again),
      button(w.subscribe, t.page(EMAIL_PAGES.platform(Number(t.id(data.platformId, 'platformId'))), data.renewUrl)),
    ],
  };
});
