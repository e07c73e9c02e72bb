/** 7 expiryReminder: the subscription ends in a few days; buying the platform again extends it. */
import { REMINDER_DAYS } from '../../../../promises/index.js';
import { EMAIL_KIND } from '../../email-kinds.js';
import { EMAIL_PAGES } from '../links.js';
import { button, emailTemplate, note, paragraph } from '../parts.js';

const en = {
  subject: (platform: string, days: number) => `Your ${platform} subscription ends in ${days} ${days === 1 ? 'day' : 'days'}`,
  preheader: (end: string) => `Renew now to keep your profile. Access ends on ${end}.`,
  heading: (platform: string) => `Your ${platform} subscription ends soon`,
  ends: (subscription: string, end: string, platform: string) =>
    `Your subscription #${subscription} ends on ${end}. Renew now to keep your profile and everything in it: buying ${platform} again extends this subscription, on the same profile, from its end date.`,
  renew: 'Renew now',
  otherwise: (end: string) => `If you do not renew, your access ends on ${end} and the profile goes to another member.`,
};

const ko: typeof en = {
  subject: (platform, days) => `${platform} 구독이 ${days}일 후 만료됩니다`,
  preheader: (end) => `지금 연장하면 프로필을 그대로 유지할 수 있어요. 만료일: ${end}`,
  heading: (platform) => `${platform} 구독 만료가 다가오고 있어요`,
  ends: (subscription, end) =>
    `구독(#${subscription})이 ${end}에 만료됩니다. 지금 연장하면 현재 프로필과 그 안의 기록을 그대로 이어서 쓸 수 있어요. 같은 플랫폼을 다시 구매하면 지금 쓰는 프로필에서 만료일부터 이용 기간이 늘어납니다.`,
  renew: '지금 연장하기',
  otherwise: (end) => `연장하지 않으면 ${end}에 이용이 종료되고, 프로필은 다른 회원에게 배정됩니다.`,
};

export const expiryReminder = emailTemplate(EMAIL_KIND.expiryReminder, { en, ko }, (data, t, w) => {
  const platform = t.text(data.platformName, 'platformName');
  const days = data.daysLeft ?? REMINDER_DAYS;
  if (!Number.isInteger(days) || days < 1) t.invalid('daysLeft', 'must be a whole number of days');
  const end = t.date(data.endTime, 'endTime');
  return {
    subject: w.subject(platform, days),
    preheader: w.preheader(end),
    heading: w.heading(platform),
    blocks: [
      paragraph(w.ends(t.id(data.subscriptionId, 'subscriptionId'), end, platform)),
      button(w.renew, t.page(EMAIL_PAGES.platform(Number(t.id(data.platformId, 'platformId'))), data.renewUrl)),
      note(w.otherwise(end)),
    ],
  };
});
