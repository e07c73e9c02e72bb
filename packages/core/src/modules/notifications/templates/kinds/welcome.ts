/** 0 welcome: the account is made. */
import { ACTIVATION_HOURS } from '../../../../promises/index.js';
import { EMAIL_KIND } from '../../email-kinds.js';
import { EMAIL_PAGES } from '../links.js';
import { button, emailTemplate, paragraph } from '../parts.js';

const en = {
  subject: (brand: string) => `Welcome to ${brand}`,
  preheader: 'Your account is ready.',
  heading: (name: string | undefined) => (name ? `Welcome, ${name}!` : 'Welcome!'),
  ready: (brand: string) => `Your ${brand} account is ready.`,
  how: `Choose a platform, pay in a minute by card, crypto or a Korean payment method, and your login details and profile number appear in your panel. Most orders are active within minutes, always within ${ACTIVATION_HOURS} hours.`,
  browse: 'Browse platforms',
};

const ko: typeof en = {
  subject: (brand) => `${brand}에 오신 것을 환영합니다`,
  preheader: '계정이 만들어졌습니다.',
  heading: (name) => (name ? `${name}님, 환영합니다!` : '환영합니다!'),
  ready: (brand) => `${brand} 계정이 만들어졌습니다.`,
  how: `원하는 플랫폼을 고르고 카드, 암호화폐 또는 국내 결제 수단으로 간편하게 결제하면 내 구독 페이지에서 로그인 정보와 프로필 번호를 바로 확인할 수 있어요. 대부분 몇 분 안에, 늦어도 ${ACTIVATION_HOURS}시간 안에 활성화됩니다.`,
  browse: '플랫폼 둘러보기',
};

export const welcome = emailTemplate(EMAIL_KIND.welcome, { en, ko }, (data, t, w) => ({
  subject: w.subject(t.brand),
  preheader: w.preheader,
  heading: w.heading(t.optionalText(data.name)),
  blocks: [paragraph(w.ready(t.brand)), paragraph(w.how), button(w.browse, t.page(EMAIL_PAGES.home()))],
}));
