/** 13 platformIncident, to staff alert addresses, once per incident: the circuit breaker held further account breaks. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { accountHealthButton, emailTemplate, facts, paragraph } from '../parts.js';

const en = {
  subject: (platform: string) => `Platform-wide incident: ${platform}`,
  preheader: (platform: string, breaks: number) => `More than ${breaks} ${platform} accounts would have broken within an hour. Further breaks wait for you.`,
  heading: (platform: string) => `Platform-wide incident: ${platform}`,
  what: (platform: string, breaks: number, account: string, email: string) =>
    `${breaks} ${platform} accounts turned broken within the last hour, and account #${account} (${email}) would have been next. That looks like the platform itself, or one voice, rather than one account: the shop has stopped breaking ${platform} accounts by itself. Held accounts are marked attention and their buyers stay where they are.`,
  labels: { held: 'First held account', cause: 'What would have broken it', since: 'Since' },
  todo: 'Check the accounts. Break the ones that really are broken by hand (their buyers are moved then); set the others back to ok. This is the only e-mail about this incident.',
};

const ko: typeof en = {
  subject: (platform) => `플랫폼 전체 장애: ${platform}`,
  preheader: (platform, breaks) => `한 시간 안에 ${platform} 계정 ${breaks}개를 넘게 고장 처리할 뻔했습니다. 이후 고장 처리는 직원 확인을 기다립니다.`,
  heading: (platform) => `플랫폼 전체 장애: ${platform}`,
  what: (platform, breaks, account, email) =>
    `지난 한 시간 동안 ${platform} 계정 ${breaks}개가 고장 처리되었고, 계정 #${account} (${email})도 고장 처리될 뻔했습니다. 한 계정의 문제가 아니라 플랫폼 자체의 문제이거나 한 사람이 보낸 신호일 수 있어, ${platform} 계정을 자동으로 고장 처리하지 않습니다. 보류된 계정은 '주의'로 표시되며 구매자는 그대로 있습니다.`,
  labels: { held: '처음 보류된 계정', cause: '고장 처리 사유', since: '시작 시각' },
  todo: '계정을 확인해 주세요. 실제로 고장 난 계정은 직접 고장 처리하면 구매자가 옮겨지고, 나머지는 정상으로 되돌려 주세요. 이 장애에 대한 이메일은 이것 하나뿐입니다.',
};

export const platformIncident = emailTemplate(EMAIL_KIND.platformIncident, { en, ko }, (data, t, w) => {
  const platform = t.text(data.platformName, 'platformName');
  const account = t.id(data.accountId, 'accountId');
  const email = t.text(data.accountEmail, 'accountEmail');
  return {
    subject: w.subject(platform),
    preheader: w.preheader(platform, data.breaksPerHour),
    heading: w.heading(platform),
    blocks: [
      paragraph(w.what(platform, data.breaksPerHour, account, email)),
      facts([w.labels.held, `#${account} (${email})`], [w.labels.cause, t.text(data.cause, 'cause')], [w.labels.since, t.date(data.openedAt, 'openedAt')]),
      paragraph(w.todo),
      accountHealthButton(t, data.adminUrl),
    ],
  };
});
