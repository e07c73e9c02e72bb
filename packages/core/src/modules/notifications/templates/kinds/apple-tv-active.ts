/** 6 appleTVActive: a family-sharing platform is active; the buyer accepts the invitation. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { emailTemplate, facts, note, panelButton, paragraph, rows, steps } from '../parts.js';

const en = {
  subject: (platform: string) => `Your ${platform} access is ready: accept the family invitation`,
  preheader: 'Accept the invitation, then sign in with the same Apple ID.',
  heading: (platform: string) => `Your ${platform} subscription is active`,
  invited: (address: string | undefined) =>
    address
      ? `We have sent a family-sharing invitation to ${address}.`
      : 'We have sent a family-sharing invitation to the e-mail address you entered in your panel.',
  steps: (platform: string, end: string) => [
    'Open the invitation e-mail and accept it (look in the spam folder too).',
    `Sign in on your Apple TV or in the ${platform} app with that same Apple ID.`,
    `Enjoy: your access is valid until ${end}.`,
  ],
  stay: 'Please stay in the family group until the end date and do not invite anyone else to it.',
};

const ko: typeof en = {
  subject: (platform) => `${platform} 이용 준비 완료: 패밀리 초대를 수락해 주세요`,
  preheader: '초대를 수락한 뒤 같은 Apple ID로 로그인하세요.',
  heading: (platform) => `${platform} 구독이 활성화되었습니다`,
  invited: (address) =>
    address ? `${address} 주소로 패밀리 공유 초대를 보내 드렸습니다.` : '내 구독 페이지에 입력하신 이메일 주소로 패밀리 공유 초대를 보내 드렸습니다.',
  steps: (platform, end) => [
    '초대 메일을 열고 초대를 수락하세요. 메일이 보이지 않으면 스팸함도 확인해 주세요.',
    `Apple TV 기기나 ${platform} 앱에서 같은 Apple ID로 로그인하세요.`,
    `이용 기한은 ${end}까지입니다.`,
  ],
  stay: '이용 기한이 끝날 때까지 패밀리 그룹에서 나가지 마시고, 다른 사람을 그룹에 초대하지 말아 주세요.',
};

export const appleTvActive = emailTemplate(EMAIL_KIND.appleTVActive, { en, ko }, (data, t, w) => {
  const platform = t.optionalText(data.platformName) ?? 'Apple TV';
  return {
    subject: w.subject(platform),
    preheader: w.preheader,
    heading: w.heading(platform),
    blocks: [
      paragraph(w.invited(t.optionalText(data.invitationEmail))),
      steps(...w.steps(platform, t.date(data.endTime, 'endTime'))),
      facts(rows.order(t, t.id(data.orderId, 'orderId'))),
      note(w.stay),
      panelButton(t, data.panelUrl),
    ],
  };
});
