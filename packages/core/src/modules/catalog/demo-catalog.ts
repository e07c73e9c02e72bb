/**
 * The demo catalog: what a fresh `npm start` shows before anyone has touched the catalog
 * editor, and what the tests buy from.
 *
 * Why it looks the way it does:
 * - Every platform is FICTIONAL (our own names, marks and colours), so the demo never shows a
 *   real brand's trademark or implies a partnership we do not have.
 * - It deliberately exercises every rule of the storefront: video streaming (category 0, the
 *   household guide), music (1) and AI chat (8, login codes); one family-group platform that
 *   needs an invitation e-mail; slot counts from 1 (a whole account) to 6; a disabled duration
 *   (so "the first ENABLED duration" decides the home page's monthly price), a disabled plan
 *   type, and one platform without FAQ ("FAQ only if there are entries").
 * - Prices are integer minor units per currency, as everywhere else: EUR in cents, KRW in whole
 *   won rounded to 100. Longer durations cost less per month. Prices exist for every duration ×
 *   type pair, enabled or not, so that switching an option on in the catalog editor never
 *   leaves it without a price.
 * - `color_two` is the buttons' background under white text, so it passes WCAG AA (4.5:1);
 *   `color_one` is the background of the logos, which are drawn in white.
 *
 * Seeding is safe to run on every start: one transaction, serialised by an advisory lock, and
 * a no-op as soon as the `platforms` table has a row. It never duplicates and never touches a
 * catalog that staff have started.
 */
import type { Knex } from 'knex';
import type { CurrencyCode } from '../../shared/money.js';
import { PLATFORM_CATEGORY, type PlatformCategory } from './catalog.types.js';
import { DEMO_ALERT_RULES, shippedAlertRules } from './shipped-alert-rules.js';

export type LanguageKey = 'en' | 'ko';
export type DemoCurrency = CurrencyCode;

/** Language ids as in the spec: 1 English (default), 2 Korean. */
export const DEMO_LANGUAGE_IDS: Readonly<Record<LanguageKey, 1 | 2>> = { en: 1, ko: 2 };

export interface DemoDuration {
  id: number;
  months: number;
}

export interface DemoPlanType {
  id: number;
  code: string;
  names: Record<LanguageKey, string>;
}

export interface DemoFaqEntry {
  question: string;
  answer: string;
}

export interface DemoPrice {
  durationId: number;
  planTypeId: number;
  currency: DemoCurrency;
  /** The regular price in minor units (EUR cents, KRW won). */
  priceMinor: number;
  /** What the buyer pays, in minor units; never more than `priceMinor`. */
  salePriceMinor: number;
}

export interface DemoPlatform {
  id: number;
  slug: string;
  category: PlatformCategory;
  logoBase: string;
  logoCarousel: string;
  colorOne: string;
  colorTwo: string;
  slotsCount: number;
  needsInvitation: boolean;
  maxQuantity: number;
  isEnabled: boolean;
  sortOrder: number;
  texts: Record<LanguageKey, { name: string; description: string }>;
  howItWorks: Record<LanguageKey, string[]>;
  /** Empty lists mean "no FAQ section" on the platform page. */
  faq: Record<LanguageKey, DemoFaqEntry[]>;
  durations: Array<{ durationId: number; isEnabled: boolean }>;
  planTypes: Array<{ planTypeId: number; isEnabled: boolean }>;
  prices: DemoPrice[];
}

/** Serialises concurrent seeders: the bytes of "SUBSDC" as a 48-bit advisory lock key. */
export const DEMO_CATALOG_LOCK_KEY = 0x5355_4253_4443;

export const DEMO_DURATIONS: readonly DemoDuration[] = [
  { id: 1, months: 1 },
  { id: 2, months: 3 },
  { id: 3, months: 6 },
  { id: 4, months: 12 },
];

export const DEMO_PLAN_TYPES: readonly DemoPlanType[] = [
  { id: 1, code: 'standard', names: { en: 'Standard', ko: '스탠다드' } },
  { id: 2, code: 'premium', names: { en: 'Premium', ko: '프리미엄' } },
  { id: 3, code: 'family', names: { en: 'Family', ko: '패밀리' } },
];

const STANDARD = 1;
const PREMIUM = 2;
const FAMILY = 3;

/** Share of the regular price taken off per duration (by months). */
type DiscountLadder = Record<1 | 3 | 6 | 12, number>;
const DEFAULT_DISCOUNTS: DiscountLadder = { 1: 0, 3: 0.05, 6: 0.1, 12: 0.18 };

/** EUR sale prices end in 9 (5.99, 17.09); KRW sale prices are whole hundreds of won. */
function roundSale(amount: number, currency: DemoCurrency): number {
  if (currency === 'KRW') return Math.max(100, Math.round(amount / 100) * 100);
  return Math.max(9, Math.round(amount / 10) * 10 - 1);
}

/**
 * Every duration × type price of one platform from its monthly regular price per type: the
 * regular price is the monthly price times the months, the sale price takes the ladder's
 * discount off it.
 */
function priceGrid(monthly: Record<number, Record<DemoCurrency, number>>, discounts: DiscountLadder = DEFAULT_DISCOUNTS): DemoPrice[] {
  const prices: DemoPrice[] = [];
  for (const duration of DEMO_DURATIONS) {
    for (const [planTypeId, perCurrency] of Object.entries(monthly)) {
      for (const currency of ['EUR', 'KRW'] as const) {
        const priceMinor = perCurrency[currency] * duration.months;
        const discount = discounts[duration.months as keyof DiscountLadder];
        const salePriceMinor = discount > 0 ? Math.min(priceMinor, roundSale(priceMinor * (1 - discount), currency)) : priceMinor;
        prices.push({ durationId: duration.id, planTypeId: Number(planTypeId), currency, priceMinor, salePriceMinor });
      }
    }
  }
  return prices;
}

function logos(slug: string): Pick<DemoPlatform, 'slug' | 'logoBase' | 'logoCarousel'> {
  return { slug, logoBase: `/media/platforms/${slug}.svg`, logoCarousel: `/media/platforms/${slug}-carousel.svg` };
}

const ALL_DURATIONS_ENABLED = DEMO_DURATIONS.map((d) => ({ durationId: d.id, isEnabled: true }));

export const DEMO_PLATFORMS: readonly DemoPlatform[] = [
  {
    id: 1,
    ...logos('orbitview'),
    category: PLATFORM_CATEGORY.videoStreaming,
    colorOne: '#1b1f5e',
    colorTwo: '#4338ca',
    slotsCount: 5,
    needsInvitation: false,
    maxQuantity: 1,
    isEnabled: true,
    sortOrder: 10,
    texts: {
      en: {
        name: 'Orbitview',
        description:
          'Orbitview streams original series, blockbuster films and nature documentaries on your TV, phone and laptop. With a shared plan you get your own profile, with its own watch list and recommendations, for a fraction of the full price.',
      },
      ko: {
        name: '오빗뷰',
        description:
          '오빗뷰는 오리지널 시리즈와 블록버스터 영화, 자연 다큐멘터리를 TV, 휴대폰, 노트북에서 즐길 수 있는 스트리밍 서비스입니다. 공유 요금제로 나만의 시청 목록과 추천이 있는 개인 프로필을 정가보다 훨씬 저렴하게 이용하세요.',
      },
    },
    howItWorks: {
      en: [
        'Choose Standard (Full HD) or Premium (4K HDR) and how many months you want.',
        'Pay by card, crypto or a Korean payment method. Most orders are active within minutes, always within 24 hours.',
        'Your panel shows the login e-mail, the password and your profile number. Use only your own profile.',
        'If the TV says the device is not part of the household, open the household guide in your panel and press "Get verification link".',
      ],
      ko: [
        '스탠다드(풀HD) 또는 프리미엄(4K HDR)과 이용 기간을 선택하세요.',
        '카드, 암호화폐 또는 국내 결제 수단으로 결제하면 대부분 몇 분 안에, 늦어도 24시간 안에 활성화됩니다.',
        '내 구독 페이지에서 로그인 이메일, 비밀번호, 내 프로필 번호를 확인하세요. 반드시 내 프로필만 사용해 주세요.',
        'TV에 "이 기기는 가구에 속해 있지 않습니다"라는 안내가 나오면 내 구독 페이지의 가구 인증 가이드를 열고 "인증 링크 받기"를 누르세요.',
      ],
    },
    faq: {
      en: [
        {
          question: 'Can I change the account password?',
          answer:
            'No. The account is shared with other members, so the password and account details must stay as they are. You may rename your own profile, change its picture and set parental controls.',
        },
        {
          question: 'How many devices can I use?',
          answer: 'One device logged in and one stream at a time on your profile.',
        },
        {
          question: 'What is the difference between Standard and Premium?',
          answer: 'Standard streams in Full HD. Premium adds 4K HDR and spatial audio on devices that support them.',
        },
      ],
      ko: [
        {
          question: '계정 비밀번호를 바꿔도 되나요?',
          answer:
            '아니요. 다른 회원과 함께 쓰는 계정이라 비밀번호와 계정 정보는 변경하시면 안 됩니다. 내 프로필의 이름, 사진, 자녀 보호 설정은 자유롭게 바꿀 수 있어요.',
        },
        {
          question: '몇 대의 기기에서 볼 수 있나요?',
          answer: '내 프로필로는 한 번에 한 대의 기기에 로그인하고, 한 번에 하나의 영상만 재생할 수 있습니다.',
        },
        {
          question: '스탠다드와 프리미엄은 무엇이 다른가요?',
          answer: '스탠다드는 풀HD 화질로 재생됩니다. 프리미엄은 지원 기기에서 4K HDR과 공간 음향까지 제공합니다.',
        },
      ],
    },
    durations: ALL_DURATIONS_ENABLED,
    planTypes: [
      { planTypeId: STANDARD, isEnabled: true },
      { planTypeId: PREMIUM, isEnabled: true },
    ],
    // A launch offer: even the one-month plan is on sale.
    prices: priceGrid(
      {
        [STANDARD]: { EUR: 399, KRW: 5900 },
        [PREMIUM]: { EUR: 599, KRW: 8900 },
      },
      { 1: 0.1, 3: 0.15, 6: 0.2, 12: 0.25 },
    ),
  },
  {
    id: 2,
    ...logos('reelnest'),
    category: PLATFORM_CATEGORY.videoStreaming,
    colorOne: '#6b1a2b',
    colorTwo: '#b91c1c',
    slotsCount: 4,
    needsInvitation: false,
    maxQuantity: 1,
    isEnabled: true,
    sortOrder: 20,
    texts: {
      en: {
        name: 'Reelnest',
        description:
          'Reelnest is the home of independent cinema, festival favourites and restored classics, with a new hand-picked collection every week. Share an account and still keep your own profile, watch list and subtitle settings.',
      },
      ko: {
        name: '릴네스트',
        description:
          '릴네스트는 독립 영화와 영화제 화제작, 복원된 고전 영화를 매주 새롭게 큐레이션하는 스트리밍 서비스입니다. 계정을 함께 쓰면서도 나만의 프로필과 찜 목록, 자막 설정은 그대로 유지됩니다.',
      },
    },
    howItWorks: {
      en: [
        'Pick a plan for 1, 3 or 6 months and pay in the currency you prefer.',
        'Once your order is active, your panel shows the login details and the number of your profile.',
        'Sign in on one device and watch on your own profile only.',
      ],
      ko: [
        '1개월, 3개월, 6개월 중 원하는 기간을 고르고 편한 통화로 결제하세요.',
        '주문이 활성화되면 내 구독 페이지에서 로그인 정보와 내 프로필 번호를 확인할 수 있습니다.',
        '한 대의 기기에서 로그인하고 반드시 내 프로필로만 시청해 주세요.',
      ],
    },
    faq: {
      en: [
        {
          question: 'Why can I not choose Premium?',
          answer: 'Premium profiles are sold out for now. We open them again as soon as new accounts are ready.',
        },
        {
          question: 'Is there a 12-month plan?',
          answer: 'Not at the moment. Buy 6 months and renew from your panel before it ends; the same profile is extended.',
        },
        {
          question: 'Are Korean subtitles available?',
          answer: 'Most titles have Korean and English subtitles. You can switch them for each title in the player.',
        },
      ],
      ko: [
        {
          question: '프리미엄은 왜 선택할 수 없나요?',
          answer: '현재 프리미엄 프로필이 모두 판매되었습니다. 새 계정이 준비되는 대로 다시 열어 드릴게요.',
        },
        {
          question: '12개월 요금제는 없나요?',
          answer: '지금은 제공하지 않습니다. 6개월 요금제를 구매하신 뒤 만료 전에 내 구독 페이지에서 연장하시면 같은 프로필이 그대로 연장됩니다.',
        },
        {
          question: '한국어 자막이 있나요?',
          answer: '대부분의 작품에 한국어와 영어 자막이 있으며, 플레이어에서 작품마다 자막을 바꿀 수 있습니다.',
        },
      ],
    },
    durations: [
      { durationId: 1, isEnabled: true },
      { durationId: 2, isEnabled: true },
      { durationId: 3, isEnabled: true },
      { durationId: 4, isEnabled: false },
    ],
    planTypes: [
      { planTypeId: STANDARD, isEnabled: true },
      { planTypeId: PREMIUM, isEnabled: false },
    ],
    prices: priceGrid({
      [STANDARD]: { EUR: 349, KRW: 4900 },
      [PREMIUM]: { EUR: 499, KRW: 7400 },
    }),
  },
  {
    id: 3,
    ...logos('kinoly'),
    category: PLATFORM_CATEGORY.videoStreaming,
    colorOne: '#0f3d3e',
    colorTwo: '#0f766e',
    slotsCount: 1,
    needsInvitation: false,
    maxQuantity: 1,
    isEnabled: true,
    sortOrder: 30,
    texts: {
      en: {
        name: 'Kinoly',
        description:
          'Kinoly brings live sport, K-dramas and variety shows to every screen in your home. This plan is a whole account to yourself: every profile on it is yours to use.',
      },
      ko: {
        name: '키노리',
        description:
          '키노리는 스포츠 생중계와 드라마, 예능을 집 안의 모든 화면으로 전해 드립니다. 이 요금제는 계정 하나를 통째로 혼자 쓰는 상품이라 계정의 모든 프로필을 자유롭게 사용할 수 있어요.',
      },
    },
    howItWorks: {
      en: [
        'Choose how many months you want; the plan always includes the whole account.',
        'After payment, your panel shows the login e-mail and password of your account.',
        'Create and rename profiles as you like, but keep the password and the account e-mail unchanged.',
      ],
      ko: [
        '원하는 이용 기간을 선택하세요. 이 요금제는 항상 계정 전체를 제공합니다.',
        '결제가 끝나면 내 구독 페이지에서 계정의 로그인 이메일과 비밀번호를 확인할 수 있습니다.',
        '프로필은 자유롭게 만들고 이름을 바꿔도 되지만, 비밀번호와 계정 이메일은 변경하지 마세요.',
      ],
    },
    // Deliberately no FAQ: the platform page shows the FAQ section only when it has entries.
    faq: { en: [], ko: [] },
    durations: ALL_DURATIONS_ENABLED,
    planTypes: [{ planTypeId: PREMIUM, isEnabled: true }],
    prices: priceGrid({
      [PREMIUM]: { EUR: 1299, KRW: 18900 },
    }),
  },
  {
    id: 4,
    ...logos('tunewell'),
    category: PLATFORM_CATEGORY.music,
    colorOne: '#14532d',
    colorTwo: '#15803d',
    slotsCount: 6,
    needsInvitation: true,
    maxQuantity: 1,
    isEnabled: true,
    sortOrder: 40,
    texts: {
      en: {
        name: 'Tunewell',
        description:
          'Tunewell offers ad-free music and podcasts with lossless audio and offline downloads. You join one of our family groups with your own Tunewell login, so your playlists, library and recommendations stay yours.',
      },
      ko: {
        name: '튠웰',
        description:
          '튠웰은 광고 없는 음악과 팟캐스트를 무손실 음질과 오프라인 저장으로 즐길 수 있는 서비스입니다. 내 튠웰 계정으로 저희 패밀리 그룹에 참여하는 방식이라 플레이리스트와 보관함, 추천 목록이 모두 그대로 유지됩니다.',
      },
    },
    howItWorks: {
      en: [
        'Choose how many months you want and pay.',
        'Enter the e-mail address of your own Tunewell account: it must be the one you will use to join the family group.',
        'We send a family invitation to that address within 24 hours. Accept it from the e-mail or in the app.',
        'Keep using the same account; if the address does not match, you may be removed from the family membership.',
      ],
      ko: [
        '원하는 이용 기간을 선택하고 결제하세요.',
        '내 튠웰 계정의 이메일 주소를 입력하세요. 패밀리 그룹에 참여할 때 사용할 바로 그 주소여야 합니다.',
        '24시간 안에 해당 주소로 패밀리 초대장을 보내 드립니다. 이메일이나 앱에서 초대를 수락하세요.',
        '같은 계정을 계속 사용해 주세요. 주소가 일치하지 않으면 패밀리 멤버십에서 제외될 수 있습니다.',
      ],
    },
    faq: {
      en: [
        {
          question: 'Do I need my own Tunewell account?',
          answer: 'Yes. A free Tunewell account is enough; the family group upgrades it for as long as your plan runs.',
        },
        {
          question: 'I entered the wrong e-mail. What now?',
          answer:
            'Contact support before the invitation is sent and we will correct it. Afterwards, the invitation can only be accepted from the address you gave.',
        },
        {
          question: 'Can I rejoin after being removed?',
          answer: 'A member removed from a Premium family group cannot join another one for 12 months, so please keep the account you gave us.',
        },
      ],
      ko: [
        {
          question: '튠웰 계정이 따로 있어야 하나요?',
          answer: '네. 무료 튠웰 계정이면 충분하며, 이용 기간 동안 패밀리 그룹을 통해 업그레이드됩니다.',
        },
        {
          question: '이메일을 잘못 입력했어요. 어떻게 하나요?',
          answer: '초대장이 발송되기 전에 고객센터로 연락 주시면 수정해 드립니다. 발송 후에는 입력하신 주소에서만 초대를 수락할 수 있습니다.',
        },
        {
          question: '패밀리에서 제외되면 다시 가입할 수 있나요?',
          answer: '프리미엄 패밀리 그룹에서 제외된 회원은 12개월 동안 다른 그룹에 가입할 수 없으니, 알려 주신 계정을 꼭 계속 사용해 주세요.',
        },
      ],
    },
    durations: ALL_DURATIONS_ENABLED,
    planTypes: [{ planTypeId: FAMILY, isEnabled: true }],
    prices: priceGrid({
      [FAMILY]: { EUR: 299, KRW: 4400 },
    }),
  },
  {
    id: 5,
    ...logos('echora'),
    category: PLATFORM_CATEGORY.music,
    colorOne: '#4a1760',
    colorTwo: '#9d174d',
    slotsCount: 3,
    needsInvitation: false,
    maxQuantity: 1,
    isEnabled: true,
    sortOrder: 50,
    texts: {
      en: {
        name: 'Echora',
        description:
          'Echora is a music app built around radio, live sessions and playlists made by DJs around the world. Get your own profile on a shared Echora account and listen ad-free on your phone, speaker or car.',
      },
      ko: {
        name: '에코라',
        description:
          '에코라는 라디오와 라이브 세션, 전 세계 DJ가 직접 만든 플레이리스트를 중심으로 한 음악 앱입니다. 공유 계정의 내 프로필로 휴대폰, 스피커, 자동차에서 광고 없이 음악을 즐겨 보세요.',
      },
    },
    howItWorks: {
      en: [
        'Choose Standard (high quality) or Premium (hi-res audio) and a plan of 3, 6 or 12 months.',
        'Your panel shows the login details and your profile number as soon as the order is active.',
        'Sign in on one device at a time and listen on your own profile.',
      ],
      ko: [
        '스탠다드(고음질) 또는 프리미엄(하이레스 음원)과 3개월, 6개월, 12개월 중 이용 기간을 고르세요.',
        '주문이 활성화되면 바로 내 구독 페이지에서 로그인 정보와 내 프로필 번호를 확인할 수 있습니다.',
        '한 번에 한 대의 기기에서만 로그인하고 내 프로필로 감상해 주세요.',
      ],
    },
    faq: {
      en: [
        {
          question: 'Why is there no 1-month plan?',
          answer: 'Echora accounts renew every quarter, so plans start at 3 months.',
        },
        {
          question: 'Can I download songs for offline listening?',
          answer: 'Yes, on up to one device. Downloads stay available while your plan is active.',
        },
      ],
      ko: [
        {
          question: '1개월 요금제는 왜 없나요?',
          answer: '에코라 계정은 분기마다 갱신되기 때문에 3개월 요금제부터 제공합니다.',
        },
        {
          question: '오프라인으로 들을 수 있게 저장할 수 있나요?',
          answer: '네, 기기 한 대에서 저장할 수 있으며 이용 기간 동안 계속 들을 수 있습니다.',
        },
      ],
    },
    durations: [
      { durationId: 1, isEnabled: false },
      { durationId: 2, isEnabled: true },
      { durationId: 3, isEnabled: true },
      { durationId: 4, isEnabled: true },
    ],
    planTypes: [
      { planTypeId: STANDARD, isEnabled: true },
      { planTypeId: PREMIUM, isEnabled: true },
    ],
    prices: priceGrid({
      [STANDARD]: { EUR: 249, KRW: 3500 },
      [PREMIUM]: { EUR: 399, KRW: 5500 },
    }),
  },
  {
    id: 6,
    ...logos('quillmind'),
    category: PLATFORM_CATEGORY.aiChat,
    colorOne: '#1f2937',
    colorTwo: '#c2410c',
    slotsCount: 2,
    needsInvitation: false,
    maxQuantity: 1,
    isEnabled: true,
    sortOrder: 60,
    texts: {
      en: {
        name: 'Quillmind',
        description:
          'Quillmind is an AI assistant that writes, summarises, translates and explains code in Korean, English and 40 other languages. A shared seat gives you the advanced model for a fraction of the price.',
      },
      ko: {
        name: '퀼마인드',
        description:
          '퀼마인드는 글쓰기와 요약, 번역, 코드 설명까지 도와주는 AI 어시스턴트로 한국어와 영어를 포함해 40여 개 언어를 지원합니다. 공유 좌석으로 상위 모델을 정가보다 훨씬 저렴하게 이용해 보세요.',
      },
    },
    howItWorks: {
      en: [
        'Choose Standard or Premium (the advanced model with higher limits) and how many months you want.',
        'Sign in with the login e-mail and password shown in your panel.',
        'When Quillmind asks for a login code, press "Request Verification Code" in your panel; the code appears within a minute.',
        'Start a new chat for each task and do not share personal data: the other member of the seat can see the history.',
      ],
      ko: [
        '스탠다드 또는 프리미엄(사용 한도가 더 높은 상위 모델)과 이용 기간을 선택하세요.',
        '내 구독 페이지에 표시된 로그인 이메일과 비밀번호로 로그인하세요.',
        '퀼마인드가 로그인 코드를 요구하면 내 구독 페이지에서 "인증 코드 요청"을 누르세요. 1분 안에 코드가 표시됩니다.',
        '작업마다 새 대화를 시작하고 개인 정보는 입력하지 마세요. 같은 좌석을 쓰는 다른 회원이 대화 기록을 볼 수 있습니다.',
      ],
    },
    faq: {
      en: [
        {
          question: 'Can the other member see my chats?',
          answer: 'Yes, chat history belongs to the account. Delete chats you no longer need and never paste passwords or personal data.',
        },
        {
          question: 'Why does it ask for a code when I sign in?',
          answer:
            'Quillmind confirms new sign-ins with a code sent to the account e-mail. Our system reads it for you: press "Request Verification Code" in your panel.',
        },
        {
          question: 'What happens when I reach the usage limit?',
          answer: 'The limit resets after a few hours. Premium has a much higher limit than Standard.',
        },
      ],
      ko: [
        {
          question: '다른 회원이 제 대화를 볼 수 있나요?',
          answer: '네, 대화 기록은 계정에 저장됩니다. 필요 없는 대화는 삭제하시고 비밀번호나 개인 정보는 절대 입력하지 마세요.',
        },
        {
          question: '로그인할 때 왜 코드를 요구하나요?',
          answer:
            '퀼마인드는 새 로그인을 계정 이메일로 보낸 코드로 확인합니다. 저희 시스템이 코드를 대신 받아 드리니 내 구독 페이지에서 "인증 코드 요청"을 누르세요.',
        },
        {
          question: '사용 한도에 도달하면 어떻게 되나요?',
          answer: '몇 시간이 지나면 한도가 초기화됩니다. 프리미엄은 스탠다드보다 훨씬 넉넉한 한도를 제공합니다.',
        },
      ],
    },
    durations: ALL_DURATIONS_ENABLED,
    planTypes: [
      { planTypeId: STANDARD, isEnabled: true },
      { planTypeId: PREMIUM, isEnabled: true },
    ],
    prices: priceGrid({
      [STANDARD]: { EUR: 999, KRW: 14500 },
      [PREMIUM]: { EUR: 1499, KRW: 21900 },
    }),
  },
];

/**
 * Makes sure each demo duration (by months) and plan type (by code) exists and returns the
 * database id of each demo id. Rows that staff already created are reused as they are.
 */
async function ensureSharedOptions(trx: Knex.Transaction): Promise<{ durationIds: Map<number, number>; planTypeIds: Map<number, number> }> {
  const durationIds = new Map<number, number>();
  const existingDurations: Array<{ id: number; months: number }> = await trx('durations').select('id', 'months');
  const takenDurationIds = new Set(existingDurations.map((d) => d.id));
  for (const duration of DEMO_DURATIONS) {
    const found = existingDurations.find((d) => d.months === duration.months);
    if (found) {
      durationIds.set(duration.id, found.id);
      continue;
    }
    const id = takenDurationIds.has(duration.id) ? Math.max(...takenDurationIds) + 1 : duration.id;
    await trx('durations').insert({ id, months: duration.months });
    takenDurationIds.add(id);
    durationIds.set(duration.id, id);
  }

  const planTypeIds = new Map<number, number>();
  const existingTypes: Array<{ id: number; code: string }> = await trx('plan_types').select('id', 'code');
  const takenTypeIds = new Set(existingTypes.map((t) => t.id));
  for (const planType of DEMO_PLAN_TYPES) {
    let id = existingTypes.find((t) => t.code === planType.code)?.id;
    if (id === undefined) {
      id = takenTypeIds.has(planType.id) ? Math.max(...takenTypeIds) + 1 : planType.id;
      await trx('plan_types').insert({ id, code: planType.code });
      takenTypeIds.add(id);
    }
    planTypeIds.set(planType.id, id);
    await trx('plan_type_texts')
      .insert(
        (Object.keys(DEMO_LANGUAGE_IDS) as LanguageKey[]).map((lang) => ({
          plan_type_id: id,
          language_id: DEMO_LANGUAGE_IDS[lang],
          name: planType.names[lang],
        })),
      )
      .onConflict(['plan_type_id', 'language_id'])
      .ignore();
  }
  return { durationIds, planTypeIds };
}

/**
 * Seeds the demo catalog unless the catalog already has a platform. Safe to call from any
 * number of processes at once: the advisory lock makes the second wait for the first, and then
 * see its platforms. `platforms` is the number of platforms this call inserted (0 if none).
 */
export async function seedDemoCatalog(knex: Knex): Promise<{ seeded: boolean; platforms: number }> {
  return knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?::bigint)', [String(DEMO_CATALOG_LOCK_KEY)]);
    const existing = await trx('platforms').first('id');
    if (existing) {
      await shipAlertRules(trx);
      return { seeded: false, platforms: 0 };
    }

    const { durationIds, planTypeIds } = await ensureSharedOptions(trx);
    const mapped = (ids: Map<number, number>, demoId: number): number => {
      const id = ids.get(demoId);
      if (id === undefined) throw new Error(`demo catalog: no database id for option ${demoId}`);
      return id;
    };
    const durationId = (demoId: number): number => mapped(durationIds, demoId);
    const planTypeId = (demoId: number): number => mapped(planTypeIds, demoId);
    const languages = Object.keys(DEMO_LANGUAGE_IDS) as LanguageKey[];

    // A shop seeded before the account-health migration (the migration tests seed at older levels) has no rules column yet.
    const withAlertRules = await trx.schema.hasColumn('platforms', 'alert_rules');
    await trx('platforms').insert(
      DEMO_PLATFORMS.map((p) => ({
        id: p.id,
        slug: p.slug,
        category: p.category,
        logo_base: p.logoBase,
        logo_carousel: p.logoCarousel,
        color_one: p.colorOne,
        color_two: p.colorTwo,
        slots_count: p.slotsCount,
        needs_invitation: p.needsInvitation,
        max_quantity: p.maxQuantity,
        is_enabled: p.isEnabled,
        sort_order: p.sortOrder,
        ...(withAlertRules ? { alert_rules: JSON.stringify(shippedAlertRules(p.slug) ?? { senders: [], rules: [] }) } : {}),
      })),
    );
    // The ids were given explicitly; move the serial on so that the catalog editor's next
    // platform does not collide with them.
    await trx.raw("select setval(pg_get_serial_sequence('platforms', 'id'), (select max(id) from platforms))");

    await trx('platform_texts').insert(
      DEMO_PLATFORMS.flatMap((p) =>
        languages.map((lang) => ({
          platform_id: p.id,
          language_id: DEMO_LANGUAGE_IDS[lang],
          name: p.texts[lang].name,
          description: p.texts[lang].description,
        })),
      ),
    );
    await trx('platform_how_it_works').insert(
      DEMO_PLATFORMS.flatMap((p) =>
        languages.flatMap((lang) => p.howItWorks[lang].map((text, position) => ({ platform_id: p.id, language_id: DEMO_LANGUAGE_IDS[lang], position, text }))),
      ),
    );
    const faqRows = DEMO_PLATFORMS.flatMap((p) =>
      languages.flatMap((lang) =>
        p.faq[lang].map((entry, position) => ({
          platform_id: p.id,
          language_id: DEMO_LANGUAGE_IDS[lang],
          position,
          question: entry.question,
          answer: entry.answer,
        })),
      ),
    );
    if (faqRows.length > 0) await trx('platform_faq').insert(faqRows);

    await trx('platform_durations').insert(
      DEMO_PLATFORMS.flatMap((p) => p.durations.map((d) => ({ platform_id: p.id, duration_id: durationId(d.durationId), is_enabled: d.isEnabled }))),
    );
    await trx('platform_plan_types').insert(
      DEMO_PLATFORMS.flatMap((p) =>
        p.planTypes.map((t, position) => ({ platform_id: p.id, plan_type_id: planTypeId(t.planTypeId), is_enabled: t.isEnabled, position })),
      ),
    );
    await trx('platform_prices').insert(
      DEMO_PLATFORMS.flatMap((p) =>
        p.prices.map((price) => ({
          platform_id: p.id,
          duration_id: durationId(price.durationId),
          plan_type_id: planTypeId(price.planTypeId),
          currency: price.currency,
          price_minor: price.priceMinor,
          sale_price_minor: price.salePriceMinor,
        })),
      ),
    );

    return { seeded: true, platforms: DEMO_PLATFORMS.length };
  });
}

/**
 * A shop seeded before alert rules existed gets the shipped ones (issue 29) on its demo
 * platforms, by slug, where the rules are still empty; rules staff have written are never
 * touched.
 */
async function shipAlertRules(trx: Knex.Transaction): Promise<void> {
  for (const slug of Object.keys(DEMO_ALERT_RULES)) {
    await trx('platforms')
      .where({ slug })
      .andWhereRaw(`alert_rules = '{"senders":[],"rules":[]}'::jsonb`)
      .update({ alert_rules: JSON.stringify(shippedAlertRules(slug)) });
  }
}
