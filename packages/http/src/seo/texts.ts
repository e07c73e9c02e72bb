/**
 * The words of the server-rendered head and first paint, in English and Korean. The slogans,
 * page names and card words repeat the web app's dictionary, so the pre-rendered page reads
 * the same as the app that replaces it; titles and descriptions are written for search results.
 */

export type Lang = 'en' | 'ko';

/** The storefront pages that search engines should find, besides home and platform pages. */
export const CONTENT_PAGES = [
  'support',
  'howitworks',
  'faq',
  'aboutus',
  'termsandconditions',
  'privacypolicy',
  'amlpolicy',
  'copyrightpolicy',
  'refundpolicy',
] as const;
export type ContentPage = (typeof CONTENT_PAGES)[number];

/** Client routes that are nobody's search result: the robots meta says noindex. */
export const PRIVATE_PAGES = ['login', 'register', 'payment', 'paymentresult', 'payssionpaymentresult', 'navercallback', 'user', 'admin'] as const;
export type PrivatePage = (typeof PRIVATE_PAGES)[number];

interface Texts {
  locale: string;
  ogLocale: string;
  languageName: string;
  home: { title: string; description: string; slogan: string; subslogan: string; promise: string; platforms: string };
  card: { perMonth: string; from: string; seeDetails: string };
  platform: {
    title(name: string): string;
    description(name: string, price: string | null): string;
    howItWorks: string;
    prices: string;
    faq: string;
    allPlatforms: string;
    notFoundTitle: string;
    notFoundText: string;
  };
  notFound: { title: string; text: string; home: string };
  nav: { home: string; howItWorks: string; main: string; footer: string };
  content: Record<ContentPage, { title: string; description: string }>;
  private: Record<PrivatePage, string>;
}

export const TEXTS: Record<Lang, Texts> = {
  en: {
    locale: 'en',
    ogLocale: 'en_US',
    languageName: 'English',
    home: {
      title: 'subshare — Premium subscriptions, shared fairly',
      description:
        'Your own profile on streaming, music and AI-chat platforms for a fraction of the full price. Activated within 24 hours, paid by card, crypto or Korean methods.',
      slogan: 'Premium subscriptions, shared fairly',
      subslogan: 'Your own profile on streaming, music and AI-chat platforms for a fraction of the full price.',
      promise: 'Activated within 24 hours · Pay by card, crypto or Korean methods · Renew in one click',
      platforms: 'Choose your platform',
    },
    card: { perMonth: '/month', from: 'from', seeDetails: 'See details' },
    platform: {
      title: (name) => `${name} shared subscription | subshare`,
      description: (name, price) => `${name}: your own profile${price ? ` from ${price}` : ''}, activated within 24 hours.`,
      howItWorks: 'How it works',
      prices: 'Durations and prices',
      faq: 'Frequently asked questions',
      allPlatforms: 'All platforms',
      notFoundTitle: 'Platform not found | subshare',
      notFoundText: 'This platform does not exist or is no longer offered.',
    },
    notFound: { title: 'Page not found | subshare', text: 'The page you are looking for does not exist or has moved.', home: 'Back to the home page' },
    nav: { home: 'subshare home', howItWorks: 'How it works', main: 'Main', footer: 'Footer' },
    content: {
      support: { title: 'Support', description: 'Reach subshare support by phone or e-mail about orders, payments, activation and your shared subscription.' },
      howitworks: {
        title: 'How it works',
        description:
          'How subshare works: choose a platform, a duration and a plan, pay by card, crypto or Korean methods, and get your own profile within 24 hours.',
      },
      faq: {
        title: 'FAQ',
        description: 'Answers to common questions about shared subscriptions at subshare: payments, activation, renewals, devices and refunds.',
      },
      aboutus: {
        title: 'About us',
        description: 'Who runs subshare and how we share subscriptions to streaming, music and AI-chat platforms fairly and safely.',
      },
      termsandconditions: {
        title: 'Terms and conditions',
        description: 'The terms for buying and using a shared subscription at subshare: accounts, devices, renewals, cancellation and liability.',
      },
      privacypolicy: {
        title: 'Privacy policy',
        description: 'How subshare collects, uses and protects your personal data, and which cookies it sets for how long.',
      },
      amlpolicy: {
        title: 'AML policy',
        description: 'The anti-money-laundering policy of subshare: how payments are checked and financial crime is prevented.',
      },
      copyrightpolicy: { title: 'Copyright policy', description: 'How to report a copyright infringement to subshare and how counter-notices are handled.' },
      refundpolicy: {
        title: 'Refund policy',
        description: 'When and how subshare refunds a shared subscription: the 24-hour window, the refund fee and cancellation.',
      },
    },
    private: {
      login: 'Log in or create an account',
      register: 'Create an account',
      payment: 'Order and payment',
      paymentresult: 'Payment result',
      payssionpaymentresult: 'Payment result',
      navercallback: 'Logging in with Naver...',
      user: 'My subscriptions',
      admin: 'Administration',
    },
  },
  ko: {
    locale: 'ko',
    ogLocale: 'ko_KR',
    languageName: '한국어',
    home: {
      title: 'subshare — 프리미엄 구독, 합리적으로 나누세요',
      description: '스트리밍, 음악, AI 채팅 플랫폼의 나만의 프로필을 정가의 일부 가격으로 이용하세요. 24시간 이내 활성화, 카드·암호화폐·국내 결제 수단 지원.',
      slogan: '프리미엄 구독, 합리적으로 나누세요',
      subslogan: '스트리밍, 음악, AI 채팅 플랫폼의 나만의 프로필을 정가의 일부 가격으로 이용하세요.',
      promise: '24시간 이내 활성화 · 카드, 암호화폐, 국내 결제 수단 · 클릭 한 번으로 연장',
      platforms: '플랫폼을 선택하세요',
    },
    card: { perMonth: '/월', from: '최저', seeDetails: '자세히 보기' },
    platform: {
      title: (name) => `${name} 공유 구독 | subshare`,
      description: (name, price) => `${name}: ${price ? `${price}부터 ` : ''}나만의 프로필, 24시간 이내 활성화.`,
      howItWorks: '이용 방법',
      prices: '기간 및 가격',
      faq: '자주 묻는 질문',
      allPlatforms: '모든 플랫폼',
      notFoundTitle: '플랫폼을 찾을 수 없습니다 | subshare',
      notFoundText: '이 플랫폼은 존재하지 않거나 더 이상 판매하지 않습니다.',
    },
    notFound: { title: '페이지를 찾을 수 없습니다 | subshare', text: '찾으시는 페이지가 없거나 이동되었습니다.', home: '홈으로 돌아가기' },
    nav: { home: 'subshare 홈', howItWorks: '이용 방법', main: '메인', footer: '하단 메뉴' },
    content: {
      support: { title: '고객 지원', description: '주문, 결제, 활성화, 공유 구독에 관해 전화나 이메일로 subshare 고객 지원에 문의하세요.' },
      howitworks: {
        title: '이용 방법',
        description: 'subshare 이용 방법: 플랫폼과 기간, 요금제를 고르고 카드·암호화폐·국내 결제 수단으로 결제하면 24시간 이내에 나만의 프로필을 받습니다.',
      },
      faq: { title: '자주 묻는 질문', description: 'subshare 공유 구독에 관한 자주 묻는 질문: 결제, 활성화, 연장, 기기, 환불.' },
      aboutus: { title: '회사 소개', description: 'subshare를 운영하는 회사와 스트리밍, 음악, AI 채팅 구독을 공정하고 안전하게 나누는 방법을 소개합니다.' },
      termsandconditions: { title: '이용약관', description: 'subshare 공유 구독의 구매 및 이용 약관: 계정, 기기, 연장, 해지, 책임 한도.' },
      privacypolicy: { title: '개인정보처리방침', description: 'subshare가 개인정보를 수집, 이용, 보호하는 방법과 쿠키의 종류 및 보관 기간.' },
      amlpolicy: { title: '자금세탁방지 정책', description: 'subshare의 자금세탁방지 정책: 결제 확인과 금융 범죄 예방 방법.' },
      copyrightpolicy: { title: '저작권 정책', description: 'subshare에 저작권 침해를 신고하는 방법과 이의 제기 처리 절차 및 복구 기간을 안내합니다.' },
      refundpolicy: { title: '환불 정책', description: 'subshare 공유 구독의 환불 조건과 방법: 24시간 환불 기간, 환불 수수료, 해지.' },
    },
    private: {
      login: '로그인 또는 회원가입',
      register: '회원가입',
      payment: '주문 및 결제',
      paymentresult: '결제 결과',
      payssionpaymentresult: '결제 결과',
      navercallback: '네이버로 로그인 중...',
      user: '내 구독',
      admin: '관리자',
    },
  },
};
