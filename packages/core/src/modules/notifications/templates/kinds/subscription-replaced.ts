/** 9 subscriptionReplaced: the subscription moved to another account (issue 29: because the old one broke). */
import { EMAIL_KIND } from '../../email-kinds.js';
import { button, emailTemplate, facts, paragraph, rows } from '../parts.js';

const en = {
  subject: (platform: string) => `Your ${platform} subscription has moved to another account`,
  preheader: 'Your new login details are in your panel. The end date does not change.',
  heading: (platform: string) => `New login details for ${platform}`,
  broke: (platform: string, subscription: string) =>
    `The ${platform} account your subscription #${subscription} was on stopped working, so we have moved you to another ${platform} account. Your end date does not change.`,
  moved: (platform: string, subscription: string) =>
    `We have moved your subscription #${subscription} to another ${platform} account, usually because the previous one had a problem. Your end date does not change.`,
  loginEmail: 'Login e-mail',
  inPanel: 'Your new login e-mail, password and profile number are in your panel. The old login details no longer work.',
  see: 'See my new login details',
};

const ko: typeof en = {
  subject: (platform) => `${platform} 구독 계정이 변경되었습니다`,
  preheader: '새 로그인 정보는 내 구독 페이지에서 확인하세요. 이용 기한은 그대로입니다.',
  heading: (platform) => `${platform} 새 로그인 정보 안내`,
  broke: (platform, subscription) =>
    `구독(#${subscription})이 이용하던 ${platform} 계정에 문제가 생겨, 다른 ${platform} 계정으로 옮겨 드렸습니다. 이용 기한은 변경되지 않습니다.`,
  moved: (platform, subscription) =>
    `구독(#${subscription})을 다른 ${platform} 계정으로 옮겨 드렸습니다. 주로 기존 계정에 문제가 생겼을 때 진행되며, 이용 기한은 변경되지 않습니다.`,
  loginEmail: '로그인 이메일',
  inPanel: '새 로그인 이메일, 비밀번호, 프로필 번호는 내 구독 페이지에서 확인하세요. 이전 로그인 정보는 더 이상 사용할 수 없습니다.',
  see: '새 로그인 정보 보기',
};

export const subscriptionReplaced = emailTemplate(EMAIL_KIND.subscriptionReplaced, { en, ko }, (data, t, w) => {
  const platform = t.text(data.platformName, 'platformName');
  const subscription = t.id(data.subscriptionId, 'subscriptionId');
  const loginEmail = t.optionalText(data.loginEmail);
  return {
    subject: w.subject(platform),
    preheader: w.preheader,
    heading: w.heading(platform),
    blocks: [
      paragraph(data.accountBroke === true ? w.broke(platform, subscription) : w.moved(platform, subscription)),
      facts(
        rows.subscription(t, subscription),
        rows.platform(t, platform),
        loginEmail ? [w.loginEmail, loginEmail] : undefined,
        ...rows.profile(t, data.profileNumber),
        rows.validUntil(t, t.date(data.endTime, 'endTime')),
      ),
      paragraph(w.inPanel),
      button(w.see, t.panelUrl(data.panelUrl)),
    ],
  };
});
