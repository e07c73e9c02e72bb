/**
 * The words several e-mail kinds share (row labels, the panel's button, the shared-account
 * paragraph), in English and Korean. The Korean is typed as the English: a text missing in one
 * language does not compile. A kind's own words live in its file (kinds/).
 */
const en = {
  order: 'Order',
  platform: 'Platform',
  subscription: 'Subscription',
  validUntil: 'Valid until',
  amount: 'Amount',
  subtotal: 'Price',
  discountCode: (code: string) => `Discount (code ${code})`,
  welcomeDiscount: 'Welcome discount',
  creditApplied: 'Credit applied',
  total: 'Total',
  paid: 'Paid',
  profile: 'Profile',
  wholeAccount: 'Whole account',
  profileNumber: (profile: number) => `Profile number ${profile}`,
  openPanel: 'Open my panel',
  openAccountHealth: 'Open account health',
  loginDetailsInPanel:
    'Your login e-mail, password and profile number are in your panel. The account is shared with other members: please use only your own profile and do not change the password or the account details.',
};

const ko: typeof en = {
  order: '주문 번호',
  platform: '플랫폼',
  subscription: '구독 번호',
  validUntil: '이용 기한',
  amount: '결제 금액',
  subtotal: '상품 금액',
  discountCode: (code) => `할인 (코드 ${code})`,
  welcomeDiscount: '첫 주문 환영 할인',
  creditApplied: '적립금 사용',
  total: '합계',
  paid: '실 결제 금액',
  profile: '프로필',
  wholeAccount: '계정 전체',
  profileNumber: (profile) => `${profile}번 프로필`,
  openPanel: '내 구독 페이지 열기',
  openAccountHealth: '계정 상태 보기',
  loginDetailsInPanel:
    '로그인 이메일, 비밀번호, 프로필 번호는 내 구독 페이지에서 확인하세요. 다른 회원과 함께 쓰는 계정이므로 반드시 내 프로필만 사용하고, 비밀번호나 계정 정보는 변경하지 말아 주세요.',
};

export type SharedWords = typeof en;

/** The e-mail languages by their short name: 1 English, 2 Korean. */
export type Lang = 'en' | 'ko';

export const SHARED_WORDS: Record<Lang, SharedWords> = { en, ko };
