/** Korean interface texts; `Dictionary` makes a missing or misspelt key a type error. */
import type { Dictionary } from './en';

export const ko: Dictionary = {
  'app.name': 'subshare',
  'app.loading': '불러오는 중…',
  'common.close': '닫기',
  'common.backHome': '홈으로 돌아가기',

  'nav.home': 'subshare 홈',
  'nav.howItWorks': '이용 방법',
  'nav.login': '로그인 / 회원가입',
  'nav.mySubscriptions': '내 구독',
  'nav.logout': '로그아웃',
  'nav.menu': '메뉴',
  'nav.profilePicture': '내 프로필 사진',

  'language.title': '언어를 선택하세요',
  'language.toggle': '언어 변경, 현재: {name}',

  'home.slogan': '프리미엄 구독, 합리적으로 나누세요',
  'home.subslogan': '스트리밍, 음악, AI 채팅 플랫폼의 나만의 프로필을 정가의 일부 가격으로 이용하세요.',
  'home.promise': '24시간 이내 활성화 · 카드, 암호화폐, 국내 결제 수단 · 클릭 한 번으로 연장',
  'home.platforms': '플랫폼을 선택하세요',
  'home.carousel': 'subshare의 플랫폼',
  'home.empty': '지금은 이용 가능한 플랫폼이 없습니다. 잠시 후 다시 방문해 주세요.',

  'card.perMonth': '/월',
  'card.seeDetails': '자세히 보기',
  'card.purchaseNow': '지금 구매',

  'footer.navigation': '하단 메뉴',
  'footer.business': '사업자 정보',
  'footer.businessName': '상호',
  'footer.registrationNumber': '사업자등록번호',
  'footer.mailOrderNumber': '통신판매업 신고번호',
  'footer.address': '주소',
  'footer.representative': '대표자',
  'footer.phone': '전화',
  'footer.email': '이메일',
  'footer.copyright': '© {year} {name}. All rights reserved.',

  'page.support': '고객 지원',
  'page.howitworks': '이용 방법',
  'page.termsandconditions': '이용약관',
  'page.privacypolicy': '개인정보처리방침',
  'page.aboutus': '회사 소개',
  'page.amlpolicy': '자금세탁방지 정책',
  'page.copyrightpolicy': '저작권 정책',
  'page.refundpolicy': '환불 정책',

  'support.intro': '주문, 결제, 구독 이용에 관한 문의를 도와드립니다.',

  'howItWorks.step1': '플랫폼, 요금제 유형, 기간(1, 3, 6, 12개월)을 선택하세요.',
  'howItWorks.step2': '카드, 암호화폐 또는 국내 결제 수단으로 결제하세요.',
  'howItWorks.step3': '24시간 이내에 계정 정보와 나만의 프로필 번호를 이메일과 내 구독 페이지에서 받습니다.',
  'howItWorks.step4': '계정 비밀번호나 정보를 변경하지 마세요. 다른 프로필은 다른 회원의 것입니다.',
  'howItWorks.step5': '종료일 전에 알려 드리며, 연장하면 같은 프로필을 계속 사용합니다.',

  'policy.termsandconditions': 'subshare 이용, 공유 구독 구매 및 이용 유지에 관한 규칙입니다.',
  'policy.privacypolicy': '보관하는 개인정보의 항목, 목적, 보관 기간을 안내합니다.',
  'policy.aboutus': 'subshare 운영 주체와 연락 방법을 안내합니다.',
  'policy.amlpolicy': '자금세탁 및 결제 악용을 방지하는 방법을 안내합니다.',
  'policy.copyrightpolicy': '콘텐츠 신고 방법과 이의 제기 처리 절차를 안내합니다.',
  'policy.refundpolicy': '구매 후 24시간 이내에 환불 수수료를 제외하고 환불받을 수 있습니다.',

  'notFound.title': '페이지를 찾을 수 없습니다',
  'notFound.text': '찾으시는 페이지가 없거나 이동되었습니다.',

  'platform.title': '플랫폼',
  'platform.preparing': '플랫폼 정보를 불러오는 중입니다.',

  'payment.title': '주문 및 결제',
  'payment.preparing': '주문을 준비하고 있습니다.',
  'payment.success': '결제 성공',
  'payment.successText': '결제가 완료되었습니다.',
  'payment.goToSubscriptions': '내 구독으로 이동',
  'payment.failed': '결제 실패',
  'payment.tryLater': '잠시 후 다시 시도해 주세요',
  'payment.home': '홈',
  'payment.checking': '결제를 확인하고 있습니다…',

  'login.title': '로그인 또는 회원가입',
  'login.preparing': '계속하려면 이메일을 입력하세요.',
  'register.title': '회원가입',
  'naver.loggingIn': '네이버로 로그인하는 중...',

  'panel.title': '내 구독',
  'panel.preparing': '구독 정보를 불러오는 중입니다.',

  'admin.title': '관리자',
  'admin.orders': '주문',
  'admin.ordersCompleted': '완료',
  'admin.ordersNotCompleted': '미완료 (구독 없음)',
  'admin.subscriptions': '구독',
  'admin.createSubscription': '생성',
  'admin.users': '사용자',
  'admin.usersList': '목록',
  'admin.welcome': '메뉴에서 항목을 선택하세요.',
  'admin.ordersTitle': '상태 {state}의 주문',
  'admin.createSubscriptionTitle': '구독 생성',
  'admin.usersTitle': '사용자',
  'admin.userTitle': '사용자 {id}',
};
