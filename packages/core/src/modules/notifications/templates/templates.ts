/**
 * The template registry: for every e-mail kind, its content in English and in Korean. Templates
 * return plain text blocks; the layout escapes and renders them (HTML and text). Dates are shown
 * in UTC in English and in Korean time in Korean, labelled either way.
 */
import { ValidationError } from '../../../shared/errors.js';
import type { BusinessDetails } from '../../../shared/config.js';
import { EMAIL_KIND, type EmailDataByKind, type EmailDate, type EmailKind, type EmailLanguageId, type ProfileNumber } from '../email-kinds.js';
import { renderLayout, safeUrl, singleLine, type EmailContent, type RenderedEmail } from './layout.js';
import { withParticle } from '../../../validation/korean-particles.js';
import { ACTIVATION_HOURS, CODE_DIGITS, REMINDER_DAYS, RENEWAL_ATTEMPTS } from '../../../promises/index.js';

/** Helpers a template uses; each is bound to the e-mail's language and the shop's configuration. */
interface Tools {
  brand: string;
  date(value: EmailDate, field: string): string;
  /** A required piece of text from the data, on one line. */
  text(value: unknown, field: string): string;
  /** An optional piece of text: undefined when missing or blank. */
  optionalText(value: unknown): string | undefined;
  id(value: unknown, field: string): string;
  profile(value: ProfileNumber): Array<[string, string]>;
  /** The buyer's panel, or the given link when it is a valid http(s) URL. */
  panelUrl(given: string | undefined): string;
  /** An absolute link on the shop's site. */
  site(path: string, given?: string): string;
  publicHost: string;
}

type Localized<K extends EmailKind> = Record<'en' | 'ko', (data: EmailDataByKind[K], t: Tools) => EmailContent>;

/** Which kinds carry a one-time code is decided in email-kinds.ts (EMAIL_KIND_CARRIES_CODE), not here. */
interface TemplateDefinition<K extends EmailKind> {
  render: Localized<K>;
}

const WHOLE_ACCOUNT = { en: 'Whole account', ko: '계정 전체' };

const TEMPLATES: { [K in EmailKind]: TemplateDefinition<K> } = {
  [EMAIL_KIND.welcome]: {
    render: {
      en: (data, t) => {
        const name = t.optionalText(data.name);
        return {
          subject: `Welcome to ${t.brand}`,
          preheader: 'Your account is ready.',
          heading: name ? `Welcome, ${name}!` : 'Welcome!',
          blocks: [
            { type: 'paragraph', text: `Your ${t.brand} account is ready.` },
            {
              type: 'paragraph',
              text: `Choose a platform, pay in a minute by card, crypto or a Korean payment method, and your login details and profile number appear in your panel. Most orders are active within minutes, always within ${ACTIVATION_HOURS} hours.`,
            },
            { type: 'button', label: 'Browse platforms', url: t.site('/') },
          ],
        };
      },
      ko: (data, t) => {
        const name = t.optionalText(data.name);
        return {
          subject: `${t.brand}에 오신 것을 환영합니다`,
          preheader: '계정이 만들어졌습니다.',
          heading: name ? `${name}님, 환영합니다!` : '환영합니다!',
          blocks: [
            { type: 'paragraph', text: `${t.brand} 계정이 만들어졌습니다.` },
            {
              type: 'paragraph',
              text: `원하는 플랫폼을 고르고 카드, 암호화폐 또는 국내 결제 수단으로 간편하게 결제하면 내 구독 페이지에서 로그인 정보와 프로필 번호를 바로 확인할 수 있어요. 대부분 몇 분 안에, 늦어도 ${ACTIVATION_HOURS}시간 안에 활성화됩니다.`,
            },
            { type: 'button', label: '플랫폼 둘러보기', url: t.site('/') },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.purchasedActiveSubscribe]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        return {
          subject: `Your ${platform} subscription is active (order #${order})`,
          preheader: 'Your login details and profile number are in your panel.',
          heading: `Thank you! Your ${platform} subscription is active`,
          blocks: [
            { type: 'paragraph', text: 'We received your payment and your subscription is ready to use.' },
            {
              type: 'facts',
              rows: [['Order', `#${order}`], ['Platform', platform], ...t.profile(data.profileNumber), ['Valid until', t.date(data.endTime, 'endTime')]],
            },
            {
              type: 'paragraph',
              text: 'Your login e-mail, password and profile number are in your panel. The account is shared with other members: please use only your own profile and do not change the password or the account details.',
            },
            { type: 'button', label: 'Open my panel', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        return {
          subject: `${platform} 구독이 활성화되었습니다 (주문 #${order})`,
          preheader: '로그인 정보와 프로필 번호는 내 구독 페이지에서 확인하세요.',
          heading: `결제해 주셔서 감사합니다! ${platform} 구독이 시작되었어요`,
          blocks: [
            { type: 'paragraph', text: '결제가 확인되어 지금 바로 이용하실 수 있습니다.' },
            {
              type: 'facts',
              rows: [['주문 번호', `#${order}`], ['플랫폼', platform], ...t.profile(data.profileNumber), ['이용 기한', t.date(data.endTime, 'endTime')]],
            },
            {
              type: 'paragraph',
              text: '로그인 이메일, 비밀번호, 프로필 번호는 내 구독 페이지에서 확인하세요. 다른 회원과 함께 쓰는 계정이므로 반드시 내 프로필만 사용하고, 비밀번호나 계정 정보는 변경하지 말아 주세요.',
            },
            { type: 'button', label: '내 구독 페이지 열기', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.purchasedNotActiveSubscribe]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        return {
          subject: `We received your order #${order}: activation within ${ACTIVATION_HOURS} hours`,
          preheader: 'We will e-mail you again as soon as it is active.',
          heading: `Thank you! Your ${platform} subscription is being prepared`,
          blocks: [
            {
              type: 'paragraph',
              text: `We received your payment. Your subscription will be activated within ${ACTIVATION_HOURS} hours, and we will e-mail you again as soon as it is active.`,
            },
            ...(data.needsInvitation
              ? [
                  {
                    type: 'paragraph' as const,
                    text: `${platform} works with a family-group invitation. Please enter your ${platform} login e-mail in your panel now. It must be the e-mail you will use to join the family group; otherwise you may be removed from the family membership.`,
                  },
                ]
              : []),
            {
              type: 'facts',
              rows: [
                ['Order', `#${order}`],
                ['Platform', platform],
              ],
            },
            { type: 'button', label: 'Open my panel', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        return {
          subject: `주문 #${order} 결제 완료: ${ACTIVATION_HOURS}시간 이내에 활성화됩니다`,
          preheader: '활성화되면 이메일로 바로 알려 드릴게요.',
          heading: `결제해 주셔서 감사합니다! ${platform} 구독을 준비하고 있어요`,
          blocks: [
            {
              type: 'paragraph',
              text: `결제가 확인되었습니다. 구독은 ${ACTIVATION_HOURS}시간 이내에 활성화되며, 활성화되는 즉시 이메일로 다시 알려 드리겠습니다.`,
            },
            ...(data.needsInvitation
              ? [
                  {
                    type: 'paragraph' as const,
                    text: `이 플랫폼은 패밀리 그룹 초대 방식으로 이용합니다. 지금 내 구독 페이지에서 ${platform} 로그인 이메일을 입력해 주세요. 패밀리 그룹 가입에 사용할 이메일과 같아야 하며, 다를 경우 패밀리 멤버십에서 제외될 수 있습니다.`,
                  },
                ]
              : []),
            {
              type: 'facts',
              rows: [
                ['주문 번호', `#${order}`],
                ['플랫폼', platform],
              ],
            },
            { type: 'button', label: '내 구독 페이지 열기', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.subscribeActive]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        return {
          subject: `Your ${platform} subscription is now active`,
          preheader: 'Thank you for waiting. Your login details are in your panel.',
          heading: `Good news: your ${platform} subscription is active`,
          blocks: [
            { type: 'paragraph', text: `Thank you for waiting. Your order #${order} is now active.` },
            {
              type: 'facts',
              rows: [
                ['Order', `#${order}`],
                ...(data.subscriptionId === undefined
                  ? []
                  : ([['Subscription', `#${t.id(data.subscriptionId, 'subscriptionId')}`]] as Array<[string, string]>)),
                ['Platform', platform],
                ...t.profile(data.profileNumber),
                ...(data.startTime === undefined ? [] : ([['Starts', t.date(data.startTime, 'startTime')]] as Array<[string, string]>)),
                ['Valid until', t.date(data.endTime, 'endTime')],
              ],
            },
            {
              type: 'paragraph',
              text: 'Your login e-mail, password and profile number are in your panel. The account is shared with other members: please use only your own profile and do not change the password or the account details.',
            },
            { type: 'button', label: 'Open my panel', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        return {
          subject: `${platform} 구독이 활성화되었습니다`,
          preheader: '기다려 주셔서 감사합니다. 로그인 정보는 내 구독 페이지에서 확인하세요.',
          heading: `기다려 주셔서 감사합니다. ${platform} 구독이 활성화되었어요`,
          blocks: [
            { type: 'paragraph', text: `주문 #${order}의 구독이 활성화되었습니다.` },
            {
              type: 'facts',
              rows: [
                ['주문 번호', `#${order}`],
                ...(data.subscriptionId === undefined ? [] : ([['구독 번호', `#${t.id(data.subscriptionId, 'subscriptionId')}`]] as Array<[string, string]>)),
                ['플랫폼', platform],
                ...t.profile(data.profileNumber),
                ...(data.startTime === undefined ? [] : ([['시작일', t.date(data.startTime, 'startTime')]] as Array<[string, string]>)),
                ['이용 기한', t.date(data.endTime, 'endTime')],
              ],
            },
            {
              type: 'paragraph',
              text: '로그인 이메일, 비밀번호, 프로필 번호는 내 구독 페이지에서 확인하세요. 다른 회원과 함께 쓰는 계정이므로 반드시 내 프로필만 사용하고, 비밀번호나 계정 정보는 변경하지 말아 주세요.',
            },
            { type: 'button', label: '내 구독 페이지 열기', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.trustPilotInvite]: {
    render: {
      en: (data, t) => {
        const name = t.optionalText(data.name);
        return {
          subject: `How was your experience with ${t.brand}?`,
          preheader: 'A short review takes about a minute.',
          heading: 'Would you share your experience?',
          blocks: [
            { type: 'paragraph', text: name ? `Hello ${name},` : 'Hello,' },
            {
              type: 'paragraph',
              text: `Thank you for choosing ${t.brand}. A short review on Trustpilot helps other buyers decide, and tells us what to improve. It takes about a minute.`,
            },
            { type: 'button', label: 'Write a review on Trustpilot', url: t.site('', data.reviewUrl ?? `https://www.trustpilot.com/evaluate/${t.publicHost}`) },
          ],
        };
      },
      ko: (data, t) => {
        const name = t.optionalText(data.name);
        return {
          subject: `${t.brand} 이용은 만족스러우셨나요?`,
          preheader: '짧은 후기는 1분이면 충분해요.',
          heading: '이용 후기를 남겨 주시겠어요?',
          blocks: [
            { type: 'paragraph', text: name ? `${name}님, 안녕하세요.` : '안녕하세요.' },
            {
              type: 'paragraph',
              text: '저희 서비스를 이용해 주셔서 감사합니다. 트러스트파일럿(Trustpilot)에 짧은 후기를 남겨 주시면 다른 구매자분들께 큰 도움이 되고, 서비스를 개선하는 데에도 소중히 반영하겠습니다. 1분이면 충분해요.',
            },
            { type: 'button', label: 'Trustpilot에 후기 남기기', url: t.site('', data.reviewUrl ?? `https://www.trustpilot.com/evaluate/${t.publicHost}`) },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.verificationCode]: {
    render: {
      en: (data, t) => {
        const minutes = validMinutes(data.validMinutes);
        if (data.purpose === 'passwordReset') {
          return {
            subject: `Your ${t.brand} password reset code`,
            preheader: `The code is valid for ${minutes} minutes.`,
            heading: 'Reset your password',
            blocks: [
              { type: 'code', label: 'Enter this code to choose a new password:', value: verificationCode(data.code) },
              { type: 'paragraph', text: `The code is valid for ${minutes} minutes and works once. Choosing a new password logs you out everywhere else.` },
              {
                type: 'note',
                text: 'If you did not ask to reset your password, ignore this e-mail: your password stays as it is. Never share the code with anyone: our staff will never ask you for it.',
              },
            ],
          };
        }
        return {
          subject: `Your ${t.brand} verification code`,
          preheader: `The code is valid for ${minutes} minutes.`,
          heading: 'Confirm your e-mail address',
          blocks: [
            { type: 'code', label: 'Enter this code to confirm your e-mail address:', value: verificationCode(data.code) },
            { type: 'paragraph', text: `The code is valid for ${minutes} minutes and works once.` },
            {
              type: 'note',
              text: 'If you did not ask for this code, you can ignore this e-mail. Never share the code with anyone: our staff will never ask you for it.',
            },
          ],
        };
      },
      ko: (data, t) => {
        const minutes = validMinutes(data.validMinutes);
        if (data.purpose === 'passwordReset') {
          return {
            subject: `${t.brand} 비밀번호 재설정 코드`,
            preheader: `코드는 ${minutes}분 동안 유효합니다.`,
            heading: '비밀번호를 재설정하세요',
            blocks: [
              { type: 'code', label: '아래 코드를 입력한 뒤 새 비밀번호를 정하세요.', value: verificationCode(data.code) },
              {
                type: 'paragraph',
                text: `코드는 ${minutes}분 동안 유효하며 한 번만 사용할 수 있습니다. 새 비밀번호를 정하면 다른 모든 기기에서 로그아웃됩니다.`,
              },
              {
                type: 'note',
                text: '비밀번호 재설정을 요청하지 않으셨다면 이 메일은 무시하셔도 됩니다. 비밀번호는 바뀌지 않습니다. 코드는 누구에게도 알려 주지 마세요. 저희 직원은 절대로 코드를 묻지 않습니다.',
              },
            ],
          };
        }
        return {
          subject: `${t.brand} 이메일 인증 코드`,
          preheader: `인증 코드는 ${minutes}분 동안 유효합니다.`,
          heading: '이메일 주소를 인증해 주세요',
          blocks: [
            { type: 'code', label: '아래 인증 코드를 입력해 이메일 인증을 완료하세요.', value: verificationCode(data.code) },
            { type: 'paragraph', text: `인증 코드는 ${minutes}분 동안 유효하며 한 번만 사용할 수 있습니다.` },
            {
              type: 'note',
              text: '직접 요청하지 않으셨다면 이 메일은 무시하셔도 됩니다. 인증 코드는 누구에게도 알려 주지 마세요. 저희 직원은 절대로 인증 코드를 묻지 않습니다.',
            },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.appleTVActive]: {
    render: {
      en: (data, t) => {
        const platform = t.optionalText(data.platformName) ?? 'Apple TV';
        const order = t.id(data.orderId, 'orderId');
        const invited = t.optionalText(data.invitationEmail);
        return {
          subject: `Your ${platform} access is ready: accept the family invitation`,
          preheader: 'Accept the invitation, then sign in with the same Apple ID.',
          heading: `Your ${platform} subscription is active`,
          blocks: [
            {
              type: 'paragraph',
              text: invited
                ? `We have sent a family-sharing invitation to ${invited}.`
                : 'We have sent a family-sharing invitation to the e-mail address you entered in your panel.',
            },
            {
              type: 'steps',
              items: [
                'Open the invitation e-mail and accept it (look in the spam folder too).',
                `Sign in on your Apple TV or in the ${platform} app with that same Apple ID.`,
                `Enjoy: your access is valid until ${t.date(data.endTime, 'endTime')}.`,
              ],
            },
            { type: 'facts', rows: [['Order', `#${order}`]] },
            { type: 'note', text: 'Please stay in the family group until the end date and do not invite anyone else to it.' },
            { type: 'button', label: 'Open my panel', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.optionalText(data.platformName) ?? 'Apple TV';
        const order = t.id(data.orderId, 'orderId');
        const invited = t.optionalText(data.invitationEmail);
        return {
          subject: `${platform} 이용 준비 완료: 패밀리 초대를 수락해 주세요`,
          preheader: '초대를 수락한 뒤 같은 Apple ID로 로그인하세요.',
          heading: `${platform} 구독이 활성화되었습니다`,
          blocks: [
            {
              type: 'paragraph',
              text: invited
                ? `${invited} 주소로 패밀리 공유 초대를 보내 드렸습니다.`
                : '내 구독 페이지에 입력하신 이메일 주소로 패밀리 공유 초대를 보내 드렸습니다.',
            },
            {
              type: 'steps',
              items: [
                '초대 메일을 열고 초대를 수락하세요. 메일이 보이지 않으면 스팸함도 확인해 주세요.',
                `Apple TV 기기나 ${platform} 앱에서 같은 Apple ID로 로그인하세요.`,
                `이용 기한은 ${t.date(data.endTime, 'endTime')}까지입니다.`,
              ],
            },
            { type: 'facts', rows: [['주문 번호', `#${order}`]] },
            { type: 'note', text: '이용 기한이 끝날 때까지 패밀리 그룹에서 나가지 마시고, 다른 사람을 그룹에 초대하지 말아 주세요.' },
            { type: 'button', label: '내 구독 페이지 열기', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.expiryReminder]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const days = daysLeft(data.daysLeft);
        const end = t.date(data.endTime, 'endTime');
        return {
          subject: `Your ${platform} subscription ends in ${days} ${days === 1 ? 'day' : 'days'}`,
          preheader: `Renew now to keep your profile. Access ends on ${end}.`,
          heading: `Your ${platform} subscription ends soon`,
          blocks: [
            {
              type: 'paragraph',
              text: `Your subscription #${t.id(data.subscriptionId, 'subscriptionId')} ends on ${end}. Renew now to keep your profile and everything in it: buying ${platform} again extends this subscription, on the same profile, from its end date.`,
            },
            { type: 'button', label: 'Renew now', url: t.site(`/platform/${t.id(data.platformId, 'platformId')}`, data.renewUrl) },
            { type: 'note', text: `If you do not renew, your access ends on ${end} and the profile goes to another member.` },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const days = daysLeft(data.daysLeft);
        const end = t.date(data.endTime, 'endTime');
        return {
          subject: `${platform} 구독이 ${days}일 후 만료됩니다`,
          preheader: `지금 연장하면 프로필을 그대로 유지할 수 있어요. 만료일: ${end}`,
          heading: `${platform} 구독 만료가 다가오고 있어요`,
          blocks: [
            {
              type: 'paragraph',
              text: `구독(#${t.id(data.subscriptionId, 'subscriptionId')})이 ${end}에 만료됩니다. 지금 연장하면 현재 프로필과 그 안의 기록을 그대로 이어서 쓸 수 있어요. 같은 플랫폼을 다시 구매하면 지금 쓰는 프로필에서 만료일부터 이용 기간이 늘어납니다.`,
            },
            { type: 'button', label: '지금 연장하기', url: t.site(`/platform/${t.id(data.platformId, 'platformId')}`, data.renewUrl) },
            { type: 'note', text: `연장하지 않으면 ${end}에 이용이 종료되고, 프로필은 다른 회원에게 배정됩니다.` },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.subscriptionEnded]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        return {
          subject: `Your ${platform} subscription has ended`,
          preheader: 'You can start again at any time.',
          heading: `Your ${platform} subscription has ended`,
          blocks: [
            {
              type: 'paragraph',
              text: `Your subscription #${t.id(data.subscriptionId, 'subscriptionId')} ended on ${t.date(data.endTime, 'endTime')}, and its login details no longer work. Thank you for using ${t.brand}.`,
            },
            { type: 'paragraph', text: 'You can start again at any time:' },
            { type: 'button', label: 'Subscribe again', url: t.site(`/platform/${t.id(data.platformId, 'platformId')}`, data.renewUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        return {
          subject: `${platform} 구독이 종료되었습니다`,
          preheader: '언제든지 다시 시작할 수 있어요.',
          heading: `${platform} 구독이 종료되었습니다`,
          blocks: [
            {
              type: 'paragraph',
              text: `구독(#${t.id(data.subscriptionId, 'subscriptionId')})이 ${t.date(data.endTime, 'endTime')}에 종료되어, 해당 로그인 정보는 더 이상 사용할 수 없습니다. 그동안 이용해 주셔서 감사합니다.`,
            },
            { type: 'paragraph', text: '언제든지 다시 시작할 수 있어요.' },
            { type: 'button', label: '다시 구독하기', url: t.site(`/platform/${t.id(data.platformId, 'platformId')}`, data.renewUrl) },
          ],
        };
      },
    },
  },

  [EMAIL_KIND.subscriptionReplaced]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const subscription = t.id(data.subscriptionId, 'subscriptionId');
        return {
          subject: `Your ${platform} subscription has moved to another account`,
          preheader: 'Your new login details are in your panel. The end date does not change.',
          heading: `New login details for ${platform}`,
          blocks: [
            {
              type: 'paragraph',
              text:
                data.accountBroke === true
                  ? `The ${platform} account your subscription #${subscription} was on stopped working, so we have moved you to another ${platform} account. Your end date does not change.`
                  : `We have moved your subscription #${subscription} to another ${platform} account, usually because the previous one had a problem. Your end date does not change.`,
            },
            {
              type: 'facts',
              rows: [
                ['Subscription', `#${subscription}`],
                ['Platform', platform],
                ...loginRow(t.optionalText(data.loginEmail), 'Login e-mail'),
                ...t.profile(data.profileNumber),
                ['Valid until', t.date(data.endTime, 'endTime')],
              ],
            },
            { type: 'paragraph', text: 'Your new login e-mail, password and profile number are in your panel. The old login details no longer work.' },
            { type: 'button', label: 'See my new login details', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const subscription = t.id(data.subscriptionId, 'subscriptionId');
        return {
          subject: `${platform} 구독 계정이 변경되었습니다`,
          preheader: '새 로그인 정보는 내 구독 페이지에서 확인하세요. 이용 기한은 그대로입니다.',
          heading: `${platform} 새 로그인 정보 안내`,
          blocks: [
            {
              type: 'paragraph',
              text:
                data.accountBroke === true
                  ? `구독(#${subscription})이 이용하던 ${platform} 계정에 문제가 생겨, 다른 ${platform} 계정으로 옮겨 드렸습니다. 이용 기한은 변경되지 않습니다.`
                  : `구독(#${subscription})을 다른 ${platform} 계정으로 옮겨 드렸습니다. 주로 기존 계정에 문제가 생겼을 때 진행되며, 이용 기한은 변경되지 않습니다.`,
            },
            {
              type: 'facts',
              rows: [
                ['구독 번호', `#${subscription}`],
                ['플랫폼', platform],
                ...loginRow(t.optionalText(data.loginEmail), '로그인 이메일'),
                ...t.profile(data.profileNumber),
                ['이용 기한', t.date(data.endTime, 'endTime')],
              ],
            },
            {
              type: 'paragraph',
              text: '새 로그인 이메일, 비밀번호, 프로필 번호는 내 구독 페이지에서 확인하세요. 이전 로그인 정보는 더 이상 사용할 수 없습니다.',
            },
            { type: 'button', label: '새 로그인 정보 보기', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
    },
  },
  [EMAIL_KIND.autoRenewal]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const amount = t.text(data.amount, 'amount');
        const date = t.date(data.date, 'date');
        const card = t.optionalText(data.cardLast4);
        const cardText = card ? `your card ending in ${card}` : 'your saved card';
        const facts = (rows: Array<[string, string]>) => ({ type: 'facts' as const, rows });
        switch (data.event) {
          case 'reminder':
            return {
              subject: `Your ${platform} subscription renews on ${date}`,
              preheader: `We will charge ${amount} to ${cardText}. Cancel in one click if you do not want it.`,
              heading: 'Automatic renewal coming up',
              blocks: [
                {
                  type: 'paragraph',
                  text: `Your ${platform} subscription renews automatically. On ${date} we will charge ${amount} to ${cardText} and your subscription continues on the same profile.`,
                },
                facts([
                  ['Amount', amount],
                  ['Charge date', date],
                  ['Card', card ? `•••• ${card}` : 'saved card'],
                ]),
                { type: 'button', label: 'Cancel automatic renewal', url: t.site('/', data.cancelUrl) },
                {
                  type: 'note',
                  text: 'The link works without logging in and asks you to confirm. If you cancel, nothing is charged and access ends on the end date.',
                },
              ],
            };
          case 'renewed':
            return {
              subject: `Receipt: your ${platform} subscription is renewed`,
              preheader: `${amount} charged to ${cardText}.`,
              heading: 'Subscription renewed',
              blocks: [
                { type: 'paragraph', text: `We charged ${amount} to ${cardText}. Your ${platform} subscription continues on the same profile until ${date}.` },
                facts([
                  ['Amount', amount],
                  ['Valid until', date],
                  ...(data.orderId ? ([['Order', `#${t.id(data.orderId, 'orderId')}`]] as Array<[string, string]>) : []),
                ]),
                { type: 'button', label: 'Go to my panel', url: t.panelUrl(undefined) },
              ],
            };
          case 'declined':
            return {
              subject: `We could not renew your ${platform} subscription`,
              preheader: `The charge of ${amount} was declined. We will try again on ${date}.`,
              heading: 'Payment declined',
              blocks: [
                {
                  type: 'paragraph',
                  text: `Your bank declined the charge of ${amount} to ${cardText}. Your profile is kept for you: we will try again on ${date}.`,
                },
                { type: 'button', label: 'Update my card', url: t.panelUrl(data.cardUpdateUrl) },
                { type: 'note', text: 'Your access is paused until the payment goes through.' },
              ],
            };
          case 'final':
            return {
              subject: `Your ${platform} subscription has ended`,
              preheader: `We could not charge ${amount} after ${RENEWAL_ATTEMPTS} tries.`,
              heading: 'Renewal failed',
              blocks: [
                {
                  type: 'paragraph',
                  text: `We tried ${RENEWAL_ATTEMPTS} times to charge ${amount} to ${cardText}, and your bank declined each time. Your ${platform} subscription has ended and its profile goes to another member.`,
                },
                { type: 'button', label: 'Buy it again', url: t.panelUrl(data.payUrl) },
              ],
            };
          case 'action_required':
            return {
              subject: `Confirm the renewal of your ${platform} subscription`,
              preheader: `Your bank asks you to confirm the payment of ${amount}.`,
              heading: 'Your bank needs your confirmation',
              blocks: [
                {
                  type: 'paragraph',
                  text: `Your bank wants you to confirm the charge of ${amount} for your ${platform} subscription. Your profile is kept for you until ${date}.`,
                },
                { type: 'button', label: 'Confirm the payment', url: t.panelUrl(data.payUrl) },
              ],
            };
          case 'pay_link':
            return {
              subject: `Renew your ${platform} subscription with one click`,
              preheader: `We could not take the automatic payment of ${amount}. Your card is not the problem.`,
              heading: 'Please renew by link',
              blocks: [
                {
                  type: 'paragraph',
                  text: `We could not take the automatic payment of ${amount} for your ${platform} subscription because of a problem on our side or our payment provider's, not with your card. Your profile is kept for you until ${date}: pay with the button below to renew.`,
                },
                { type: 'button', label: 'Renew now', url: t.panelUrl(data.payUrl) },
              ],
            };
        }
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const amount = t.text(data.amount, 'amount');
        const date = t.date(data.date, 'date');
        const card = t.optionalText(data.cardLast4);
        const cardText = card ? `끝자리 ${card} 카드` : '저장된 카드';
        const facts = (rows: Array<[string, string]>) => ({ type: 'facts' as const, rows });
        switch (data.event) {
          case 'reminder':
            return {
              subject: `${platform} 구독이 ${date}에 자동 연장됩니다`,
              preheader: `${cardText}로 ${withParticle(amount, '이')} 결제됩니다. 원하지 않으면 한 번에 해지할 수 있어요.`,
              heading: '자동 연장 예정 안내',
              blocks: [
                {
                  type: 'paragraph',
                  text: `${platform} 구독은 자동 연장으로 설정되어 있어요. ${date}에 ${cardText}로 ${withParticle(amount, '을')} 결제하고, 지금 쓰는 프로필에서 구독이 이어집니다.`,
                },
                facts([
                  ['결제 금액', amount],
                  ['결제 예정일', date],
                  ['카드', card ? `•••• ${card}` : '저장된 카드'],
                ]),
                { type: 'button', label: '자동 연장 해지하기', url: t.site('/', data.cancelUrl) },
                { type: 'note', text: '로그인 없이 열리며, 해지 전에 한 번 더 확인합니다. 해지하면 결제되지 않고 만료일에 이용이 끝납니다.' },
              ],
            };
          case 'renewed':
            return {
              subject: `영수증: ${platform} 구독이 연장되었습니다`,
              preheader: `${cardText}로 ${withParticle(amount, '이')} 결제되었습니다.`,
              heading: '구독 연장 완료',
              blocks: [
                {
                  type: 'paragraph',
                  text: `${cardText}로 ${withParticle(amount, '을')} 결제했어요. ${platform} 구독은 같은 프로필에서 ${date}까지 이어집니다.`,
                },
                facts([
                  ['결제 금액', amount],
                  ['이용 기한', date],
                  ...(data.orderId ? ([['주문', `#${t.id(data.orderId, 'orderId')}`]] as Array<[string, string]>) : []),
                ]),
                { type: 'button', label: '내 구독 보기', url: t.panelUrl(undefined) },
              ],
            };
          case 'declined':
            return {
              subject: `${platform} 구독 연장 결제가 거절되었습니다`,
              preheader: `${amount} 결제가 거절되었어요. ${date}에 다시 시도합니다.`,
              heading: '결제 거절 안내',
              blocks: [
                { type: 'paragraph', text: `카드사에서 ${cardText}의 ${amount} 결제를 거절했어요. 프로필은 그대로 보관되며 ${date}에 다시 결제를 시도합니다.` },
                { type: 'button', label: '카드 변경하기', url: t.panelUrl(data.cardUpdateUrl) },
                { type: 'note', text: '결제가 완료될 때까지 이용이 일시 중지됩니다.' },
              ],
            };
          case 'final':
            return {
              subject: `${platform} 구독이 종료되었습니다`,
              preheader: `${RENEWAL_ATTEMPTS}번 시도했지만 ${withParticle(amount, '을')} 결제하지 못했어요.`,
              heading: '자동 연장 실패',
              blocks: [
                {
                  type: 'paragraph',
                  text: `${cardText}로 ${amount} 결제를 ${RENEWAL_ATTEMPTS}번 시도했지만 모두 거절되었어요. ${platform} 구독이 종료되었고 프로필은 다른 회원에게 배정됩니다.`,
                },
                { type: 'button', label: '다시 구매하기', url: t.panelUrl(data.payUrl) },
              ],
            };
          case 'action_required':
            return {
              subject: `${platform} 구독 연장 결제를 확인해 주세요`,
              preheader: `카드사에서 ${amount} 결제 확인을 요청했어요.`,
              heading: '결제 확인이 필요해요',
              blocks: [
                { type: 'paragraph', text: `카드사에서 ${platform} 구독 연장 결제(${amount})에 대한 본인 확인을 요청했어요. 프로필은 ${date}까지 보관됩니다.` },
                { type: 'button', label: '결제 확인하기', url: t.panelUrl(data.payUrl) },
              ],
            };
          case 'pay_link':
            return {
              subject: `${platform} 구독을 링크로 연장해 주세요`,
              preheader: `${amount} 자동 결제를 진행하지 못했어요. 카드 문제는 아닙니다.`,
              heading: '링크로 연장해 주세요',
              blocks: [
                {
                  type: 'paragraph',
                  text: `저희 쪽 또는 결제 대행사의 문제로 ${platform} 구독의 ${amount} 자동 결제를 진행하지 못했어요. 카드에는 문제가 없습니다. 프로필은 ${date}까지 보관되며, 아래 버튼으로 결제하면 구독이 연장됩니다.`,
                },
                { type: 'button', label: '지금 연장하기', url: t.panelUrl(data.payUrl) },
              ],
            };
        }
      },
    },
  },

  [EMAIL_KIND.refunded]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        const amount = t.text(data.amount, 'amount');
        const chargeback = data.chargeback === true;
        return {
          subject: chargeback ? `Your bank took back the payment for order #${order}` : `Your order #${order} has been refunded`,
          preheader: chargeback ? `Your ${platform} subscription has ended.` : `${amount} is on its way back to you.`,
          heading: chargeback ? 'Payment taken back' : 'Refund made',
          blocks: [
            {
              type: 'paragraph',
              text: chargeback
                ? `Your bank has taken back the payment for order #${order}, so your ${platform} subscription has ended and its login details no longer work.`
                : `We have refunded ${amount} for order #${order}. Your ${platform} subscription has ended and its login details no longer work.`,
            },
            {
              type: 'facts',
              rows: [
                ['Order', `#${order}`],
                ['Platform', platform],
                [chargeback ? 'Taken back' : 'Refunded', amount],
              ],
            },
            {
              type: 'paragraph',
              text: chargeback
                ? 'If you did not ask your bank for this, please contact us.'
                : 'Depending on your bank or payment method, the money can take a few days to appear on your statement.',
            },
            { type: 'button', label: 'Go to my panel', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const order = t.id(data.orderId, 'orderId');
        const amount = t.text(data.amount, 'amount');
        const chargeback = data.chargeback === true;
        return {
          subject: chargeback ? `주문 #${order}의 결제가 카드사(은행)에 의해 취소되었습니다` : `${withParticle(`주문 #${order}`, '이')} 환불되었습니다`,
          preheader: chargeback ? `${platform} 구독이 종료되었습니다.` : `${withParticle(amount, '이')} 환불 처리되었습니다.`,
          heading: chargeback ? '결제 취소(차지백) 안내' : '환불 완료 안내',
          blocks: [
            {
              type: 'paragraph',
              text: chargeback
                ? `카드사(은행)에서 주문 #${order}의 결제를 취소하여 ${platform} 구독이 종료되었습니다. 기존 로그인 정보는 더 이상 사용할 수 없습니다.`
                : `주문 #${order}에 대해 ${withParticle(amount, '을')} 환불해 드렸습니다. ${platform} 구독은 종료되었으며 기존 로그인 정보는 더 이상 사용할 수 없습니다.`,
            },
            {
              type: 'facts',
              rows: [
                ['주문 번호', `#${order}`],
                ['플랫폼', platform],
                [chargeback ? '취소 금액' : '환불 금액', amount],
              ],
            },
            {
              type: 'paragraph',
              text: chargeback
                ? '직접 요청하신 것이 아니라면 고객센터로 문의해 주세요.'
                : '카드사나 결제 수단에 따라 환불 금액이 확인되기까지 며칠이 걸릴 수 있습니다.',
            },
            { type: 'button', label: '내 구독 페이지로 가기', url: t.panelUrl(data.panelUrl) },
          ],
        };
      },
    },
  },
  [EMAIL_KIND.accountBroken]: {
    render: {
      en: (data, t) => {
        if (data.offSale) {
          const platform = t.text(data.platformName, 'platformName');
          return {
            subject: `Off sale: every ${platform} account is broken`,
            preheader: `${platform} is off sale until one of its ${data.accounts} accounts is healthy again.`,
            heading: `${platform} is off sale`,
            blocks: [
              {
                type: 'paragraph',
                text: `All ${data.accounts} active ${platform} accounts are broken since ${t.date(data.since, 'since')}. The storefront says so on the platform's page and takes no new orders.`,
              },
              { type: 'paragraph', text: 'Repair an account and set it back to ok, or add one: the platform goes back on sale by itself.' },
              { type: 'button', label: 'Open account health', url: t.site('/jve/health', data.adminUrl) },
            ],
          };
        }
        const platform = t.text(data.platformName, 'platformName');
        const account = t.id(data.accountId, 'accountId');
        const email = t.text(data.accountEmail, 'accountEmail');
        return {
          subject: `Account broken: ${platform} #${account} (${email})`,
          preheader: `${data.moved} buyers moved, ${data.waiting} waiting for a slot.`,
          heading: `A ${platform} account is broken`,
          blocks: [
            {
              type: 'paragraph',
              text: `The platform's own mail says account #${account} (${email}) no longer works. Its buyers are being moved to healthy accounts.`,
            },
            {
              type: 'facts',
              rows: [
                ['What happened', t.text(data.kind, 'kind')],
                ['Mail subject', t.text(data.subject, 'subject')],
                ['Sender', t.text(data.sender, 'sender')],
                ['Received', t.date(data.receivedAt, 'receivedAt')],
                ['Buyers moved', String(data.moved)],
                ['Buyers waiting for a slot', String(data.waiting)],
              ],
            },
            {
              type: 'paragraph',
              text:
                data.waiting > 0
                  ? 'Some buyers could not be moved: there is no free slot on a healthy account. Add an account or repair this one; they are moved as soon as a slot is free.'
                  : 'Every buyer has a new slot. Repair the account, then set it back to ok in the admin area.',
            },
            { type: 'button', label: 'Open account health', url: t.site('/jve/health', data.adminUrl) },
          ],
        };
      },
      ko: (data, t) => {
        if (data.offSale) {
          const platform = t.text(data.platformName, 'platformName');
          return {
            subject: `판매 중지: ${platform}의 모든 계정에 문제가 생겼습니다`,
            preheader: `${platform} 계정 ${data.accounts}개 중 하나가 정상으로 돌아올 때까지 판매가 중지됩니다.`,
            heading: `${platform} 판매 중지`,
            blocks: [
              {
                type: 'paragraph',
                text: `${t.date(data.since, 'since')}부터 ${platform}의 활성 계정 ${data.accounts}개가 모두 고장 상태입니다. 스토어의 플랫폼 페이지에 안내가 표시되고 새 주문을 받지 않습니다.`,
              },
              { type: 'paragraph', text: '계정을 복구해 정상으로 되돌리거나 새 계정을 추가하면 자동으로 다시 판매됩니다.' },
              { type: 'button', label: '계정 상태 보기', url: t.site('/jve/health', data.adminUrl) },
            ],
          };
        }
        const platform = t.text(data.platformName, 'platformName');
        const account = t.id(data.accountId, 'accountId');
        const email = t.text(data.accountEmail, 'accountEmail');
        return {
          subject: `계정 고장: ${platform} #${account} (${email})`,
          preheader: `구매자 ${data.moved}명 이동, ${data.waiting}명 대기 중.`,
          heading: `${platform} 계정에 문제가 생겼습니다`,
          blocks: [
            {
              type: 'paragraph',
              text: `플랫폼에서 보낸 메일에 따르면 계정 #${account} (${email})을 더 이상 사용할 수 없습니다. 구매자를 정상 계정으로 옮기고 있습니다.`,
            },
            {
              type: 'facts',
              rows: [
                ['내용', t.text(data.kind, 'kind')],
                ['메일 제목', t.text(data.subject, 'subject')],
                ['보낸 사람', t.text(data.sender, 'sender')],
                ['받은 시각', t.date(data.receivedAt, 'receivedAt')],
                ['이동한 구매자', String(data.moved)],
                ['빈 자리를 기다리는 구매자', String(data.waiting)],
              ],
            },
            {
              type: 'paragraph',
              text:
                data.waiting > 0
                  ? '정상 계정에 빈 자리가 없어 옮기지 못한 구매자가 있습니다. 계정을 추가하거나 이 계정을 복구하면 바로 옮겨집니다.'
                  : '모든 구매자가 새 자리로 옮겨졌습니다. 계정을 복구한 뒤 관리자 화면에서 정상으로 되돌려 주세요.',
            },
            { type: 'button', label: '계정 상태 보기', url: t.site('/jve/health', data.adminUrl) },
          ],
        };
      },
    },
  },
  [EMAIL_KIND.platformIncident]: {
    render: {
      en: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const account = t.id(data.accountId, 'accountId');
        const email = t.text(data.accountEmail, 'accountEmail');
        return {
          subject: `Platform-wide incident: ${platform}`,
          preheader: `More than ${data.breaksPerHour} ${platform} accounts would have broken within an hour. Further breaks wait for you.`,
          heading: `Platform-wide incident: ${platform}`,
          blocks: [
            {
              type: 'paragraph',
              text: `${data.breaksPerHour} ${platform} accounts turned broken within the last hour, and account #${account} (${email}) would have been next. That looks like the platform itself, or one voice, rather than one account: the shop has stopped breaking ${platform} accounts by itself. Held accounts are marked attention and their buyers stay where they are.`,
            },
            {
              type: 'facts',
              rows: [
                ['First held account', `#${account} (${email})`],
                ['What would have broken it', t.text(data.cause, 'cause')],
                ['Since', t.date(data.openedAt, 'openedAt')],
              ],
            },
            {
              type: 'paragraph',
              text: 'Check the accounts. Break the ones that really are broken by hand (their buyers are moved then); set the others back to ok. This is the only e-mail about this incident.',
            },
            { type: 'button', label: 'Open account health', url: t.site('/jve/health', data.adminUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const platform = t.text(data.platformName, 'platformName');
        const account = t.id(data.accountId, 'accountId');
        const email = t.text(data.accountEmail, 'accountEmail');
        return {
          subject: `플랫폼 전체 장애: ${platform}`,
          preheader: `한 시간 안에 ${platform} 계정 ${data.breaksPerHour}개를 넘게 고장 처리할 뻔했습니다. 이후 고장 처리는 직원 확인을 기다립니다.`,
          heading: `플랫폼 전체 장애: ${platform}`,
          blocks: [
            {
              type: 'paragraph',
              text: `지난 한 시간 동안 ${platform} 계정 ${data.breaksPerHour}개가 고장 처리되었고, 계정 #${account} (${email})도 고장 처리될 뻔했습니다. 한 계정의 문제가 아니라 플랫폼 자체의 문제이거나 한 사람이 보낸 신호일 수 있어, ${platform} 계정을 자동으로 고장 처리하지 않습니다. 보류된 계정은 '주의'로 표시되며 구매자는 그대로 있습니다.`,
            },
            {
              type: 'facts',
              rows: [
                ['처음 보류된 계정', `#${account} (${email})`],
                ['고장 처리 사유', t.text(data.cause, 'cause')],
                ['시작 시각', t.date(data.openedAt, 'openedAt')],
              ],
            },
            {
              type: 'paragraph',
              text: '계정을 확인해 주세요. 실제로 고장 난 계정은 직접 고장 처리하면 구매자가 옮겨지고, 나머지는 정상으로 되돌려 주세요. 이 장애에 대한 이메일은 이것 하나뿐입니다.',
            },
            { type: 'button', label: '계정 상태 보기', url: t.site('/jve/health', data.adminUrl) },
          ],
        };
      },
    },
  },
  [EMAIL_KIND.renewalProviderError]: {
    render: {
      en: (data, t) => {
        const subscription = t.id(data.subscriptionId, 'subscriptionId');
        const message = t.text(data.message, 'message');
        const answer = data.httpStatus > 0 ? `HTTP ${data.httpStatus}` : 'no answer';
        return {
          subject: `Renewal charge failed at the payment provider: subscription #${subscription}`,
          preheader: `${answer}: ${message}`,
          heading: 'A renewal charge failed at the payment provider',
          blocks: [
            {
              type: 'paragraph',
              text:
                data.errorType === 'shop_error'
                  ? `The automatic renewal charge of subscription #${subscription} failed in the shop itself: an error of ours while the charge was sent or recorded (see the logs). If the provider charged the card, the next attempt asks it first and the renewal is paid by that charge; it is never charged twice. The buyer was not told it was declined. The slot is held and the charge is tried again on the dunning schedule; after the last attempt the buyer gets a payment link.`
                  : `The automatic renewal charge of subscription #${subscription} failed for a reason other than the card: the payment provider refused our request, failed, limited our rate or did not answer. Nobody was charged and the buyer was not told it was declined. The slot is held and the charge is tried again on the dunning schedule; after the last attempt the buyer gets a payment link.`,
            },
            {
              type: 'facts',
              rows: [
                ['Attempt', `${data.attempt} of ${data.maxAttempts}`],
                ['Answer', answer],
                ['Error', `${t.text(data.errorType, 'errorType')}${data.errorCode ? ` / ${t.text(data.errorCode, 'errorCode')}` : ''}`],
                ['Message', message],
                ['Request id', data.requestId ? t.text(data.requestId, 'requestId') : 'none'],
                ['At', t.date(data.at, 'at')],
              ],
            },
            { type: 'paragraph', text: "This is the only e-mail about this charge. Later attempts show among the dashboard's failed renewals." },
            { type: 'button', label: 'Open the dashboard', url: t.site('/jve', data.adminUrl) },
          ],
        };
      },
      ko: (data, t) => {
        const subscription = t.id(data.subscriptionId, 'subscriptionId');
        const message = t.text(data.message, 'message');
        const answer = data.httpStatus > 0 ? `HTTP ${data.httpStatus}` : '응답 없음';
        return {
          subject: `결제 대행사 오류로 자동 연장 결제 실패: 구독 #${subscription}`,
          preheader: `${answer}: ${message}`,
          heading: '결제 대행사에서 자동 연장 결제가 실패했습니다',
          blocks: [
            {
              type: 'paragraph',
              text:
                data.errorType === 'shop_error'
                  ? `구독 #${subscription}의 자동 연장 결제가 쇼핑몰 내부 오류로 실패했습니다. 결제를 보내거나 기록하는 중에 저희 쪽 오류가 났습니다(로그를 확인해 주세요). 결제 대행사가 카드를 결제했다면 다음 시도에서 먼저 그 결과를 확인하여 그 결제로 연장하며, 두 번 결제하지 않습니다. 구매자에게 거절 안내를 보내지 않았습니다. 자리는 보관되고 정해진 일정에 따라 다시 결제를 시도하며, 마지막 시도 후에는 구매자에게 결제 링크를 보냅니다.`
                  : `구독 #${subscription}의 자동 연장 결제가 카드가 아닌 다른 이유로 실패했습니다. 결제 대행사가 요청을 거부했거나, 오류가 났거나, 요청 한도를 넘었거나, 응답하지 않았습니다. 결제된 금액은 없으며 구매자에게 거절 안내를 보내지 않았습니다. 자리는 보관되고 정해진 일정에 따라 다시 결제를 시도하며, 마지막 시도 후에는 구매자에게 결제 링크를 보냅니다.`,
            },
            {
              type: 'facts',
              rows: [
                ['시도', `${data.attempt} / ${data.maxAttempts}`],
                ['응답', answer],
                ['오류', `${t.text(data.errorType, 'errorType')}${data.errorCode ? ` / ${t.text(data.errorCode, 'errorCode')}` : ''}`],
                ['메시지', message],
                ['요청 ID', data.requestId ? t.text(data.requestId, 'requestId') : '없음'],
                ['시각', t.date(data.at, 'at')],
              ],
            },
            { type: 'paragraph', text: '이 결제에 대한 이메일은 이것 하나뿐입니다. 이후 시도는 대시보드의 실패한 자동 연장 목록에서 볼 수 있습니다.' },
            { type: 'button', label: '대시보드 열기', url: t.site('/jve', data.adminUrl) },
          ],
        };
      },
    },
  },
};

function validMinutes(value: number | undefined): number {
  if (value === undefined) return 10;
  if (!Number.isInteger(value) || value < 1)
    throw new ValidationError('The e-mail data is invalid.', { 'data.validMinutes': 'must be a whole number of minutes' });
  return value;
}

function daysLeft(value: number | undefined): number {
  if (value === undefined) return REMINDER_DAYS;
  if (!Number.isInteger(value) || value < 1) throw new ValidationError('The e-mail data is invalid.', { 'data.daysLeft': 'must be a whole number of days' });
  return value;
}

const CODE_PATTERN = new RegExp(`^\\d{${CODE_DIGITS}}$`);

function verificationCode(value: unknown): string {
  if (typeof value !== 'string' || !CODE_PATTERN.test(value))
    throw new ValidationError('The e-mail data is invalid.', { 'data.code': `must be ${CODE_DIGITS} digits` });
  return value;
}

/**
 * Dates in e-mails, written out here rather than by ICU's locale data, which differs between Node
 * versions (Node 20 writes Korean time as `AM 9:30`, Node 22+ as `오전 9:30`). ICU only supplies the
 * numbers in the time zone.
 */
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DATE_PARTS = (timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' });
const DATE_FORMATS: Record<
  EmailLanguageId,
  { parts: Intl.DateTimeFormat; write(d: { year: number; month: number; day: number; hour: number; minute: string }): string }
> = {
  // 1 March 2027 at 00:30 UTC
  1: { parts: DATE_PARTS('UTC'), write: (d) => `${d.day} ${EN_MONTHS[d.month - 1]} ${d.year} at ${String(d.hour).padStart(2, '0')}:${d.minute} UTC` },
  // 2027년 3월 1일 오전 9:30 (한국 시간)
  2: {
    parts: DATE_PARTS('Asia/Seoul'),
    write: (d) => `${d.year}년 ${d.month}월 ${d.day}일 ${d.hour < 12 ? '오전' : '오후'} ${d.hour % 12 || 12}:${d.minute} (한국 시간)`,
  },
};

/** A date as the e-mails write it; the pages e-mails link to write it so too (the renewal links' pages). */
export function formatDate(languageId: EmailLanguageId, date: Date): string {
  const { parts, write } = DATE_FORMATS[languageId];
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.formatToParts(date).find((entry) => entry.type === type)?.value ?? '';
  return write({ year: Number(part('year')), month: Number(part('month')), day: Number(part('day')), hour: Number(part('hour')) % 24, minute: part('minute') });
}

export interface RenderContext {
  brand: string;
  publicUrl: string;
  business: BusinessDetails;
}

function tools(languageId: EmailLanguageId, ctx: RenderContext, userId: number | null | undefined): Tools {
  const invalid = (field: string, why: string): never => {
    throw new ValidationError('The e-mail data is invalid.', { [`data.${field}`]: why });
  };
  const base = ctx.publicUrl.replace(/\/+$/, '');
  const home = `${base}/`;
  return {
    brand: ctx.brand,
    publicHost: new URL(base).host,
    date(value, field) {
      const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
      if (Number.isNaN(date.getTime())) return invalid(field, 'must be a date');
      return formatDate(languageId, date);
    },
    text(value, field) {
      const text = typeof value === 'string' ? singleLine(value) : '';
      return text || invalid(field, 'is required');
    },
    optionalText(value) {
      const text = typeof value === 'string' ? singleLine(value) : '';
      return text || undefined;
    },
    id(value, field) {
      return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? String(value) : invalid(field, 'must be a positive whole number');
    },
    profile(value) {
      if (value === undefined || value === null) return [];
      if (!Number.isInteger(value) || value < 0) return invalid('profileNumber', 'must be 0 (whole account) or a profile number');
      const english = languageId === 1;
      const label = english ? 'Profile' : '프로필';
      if (value === 0) return [[label, english ? WHOLE_ACCOUNT.en : WHOLE_ACCOUNT.ko]];
      return [[label, english ? `Profile number ${value}` : `${value}번 프로필`]];
    },
    panelUrl(given) {
      return safeUrl(given, userId ? `${base}/user/${userId}` : home);
    },
    site(path, given) {
      return safeUrl(given, path ? `${base}${path}` : home);
    },
  };
}

/** Renders one e-mail: subject, HTML and text, in its language, with the business details in the footer. */
export function renderEmail<K extends EmailKind>(
  message: { kind: K; languageId: EmailLanguageId; data: EmailDataByKind[K]; userId?: number | null },
  ctx: RenderContext,
): RenderedEmail {
  const template = TEMPLATES[message.kind] as TemplateDefinition<K> | undefined;
  if (!template) throw new ValidationError('This e-mail kind does not exist.', { kind: 'is not a known e-mail kind' });
  if (message.languageId !== 1 && message.languageId !== 2) throw new ValidationError('The e-mail language is invalid.', { languageId: 'must be 1 or 2' });
  if (typeof message.data !== 'object' || message.data === null) throw new ValidationError('The e-mail data is invalid.', { data: 'is required' });
  const content = template.render[message.languageId === 2 ? 'ko' : 'en'](message.data, tools(message.languageId, ctx, message.userId));
  return renderLayout(content, { ...ctx, languageId: message.languageId });
}

export const TEMPLATE_KINDS = Object.keys(TEMPLATES).map(Number) as EmailKind[];

/** A facts row for a login e-mail, when there is one. */
function loginRow(loginEmail: string | undefined, label: string): Array<[string, string]> {
  return loginEmail ? [[label, loginEmail]] : [];
}
