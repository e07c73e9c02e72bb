/**
 * The buyer's panel texts in English and Korean (spec section 2, "Customer panel"). Kept with
 * the feature, so they travel in the panel chunk rather than in the storefront's first download.
 * The form messages (required, e-mail) are the shared ones of the language dictionary.
 */
import { defineTexts, type TextTable } from '../language/texts.js';
import { PANEL_CONTROLS } from './controls.js';

const CONTROLS_EN = PANEL_CONTROLS[1];
const CONTROLS_KO = PANEL_CONTROLS[2];

const en = {
  'panel.title': 'My subscriptions',
  'panel.titleOf': 'Subscriptions of {name}',
  'panel.loading': 'Loading your subscriptions…',
  'panel.failed': 'We could not load the subscriptions. Please try again in a moment.',
  'panel.retry': 'Try again',
  'panel.forbiddenTitle': 'This panel is not yours',
  'panel.forbiddenText': 'You can only see your own subscriptions. This page belongs to another account.',
  'panel.notFoundTitle': 'Panel not found',
  'panel.notFoundText': 'There is no customer panel at this address.',
  'panel.toOwnPanel': 'Go to my subscriptions',
  'panel.home': 'Back to the shop',

  'panel.profile': 'Profile',
  'panel.photoAlt': 'Profile picture of {name}',
  'panel.nickname': 'Nickname',
  'panel.name': 'Name',
  'panel.email': 'E-mail',
  'panel.notSet': 'Not set',

  'panel.subscriptions': 'Subscriptions',
  'panel.incomplete': 'Waiting for activation',
  'panel.incompleteEmpty': 'No paid orders are waiting for activation.',
  'panel.active': 'Active subscriptions',
  'panel.activeEmpty': 'No active subscriptions yet.',
  'panel.browse': 'Browse platforms',
  'panel.refunded': 'Refunded orders',
  'panel.refundedBadge': 'Refunded',
  'panel.refundedNote': 'This order was refunded, so its access has ended. The money goes back the way you paid.',

  'panel.logoAlt': '{name} logo',
  'panel.orderId': 'Order ID',
  'panel.type': 'Type',
  'panel.duration': 'Duration',

  'panel.invitationLabel': 'E-mail of your {platform} login',
  'panel.invitationSubmit': 'Submit',
  'panel.invitationNote':
    '{platform} works through a family-group invitation. Enter the e-mail you log in to {platform} with: we invite that login to the family group. Join the group with it, or the membership may be removed. Once saved, the e-mail cannot be changed.',
  'panel.invitationEmail': 'Invitation e-mail',
  'panel.invitationMissing': 'No invitation e-mail yet.',
  'panel.invitationFailed': 'We could not save the e-mail. Please try again.',
  'panel.activationNote': 'Your subscription will be activated within 24 hours. We will send you an e-mail once it is active.',

  'panel.subscriptionId': 'Subscription ID',
  'panel.username': 'Username',
  'panel.password': 'Password',
  'panel.showPassword': 'Show password',
  'panel.hidePassword': 'Hide password',
  'panel.copyUsername': 'Copy username',
  'panel.copyPassword': 'Copy password',
  'panel.copied': 'Copied',
  'panel.slot': 'Profile',
  'panel.slotAll': 'All',
  'panel.healthMoved': 'Your previous account stopped working, so we moved you to this one. These are your new login details; your end date has not changed.',
  'panel.healthRepairing':
    'This account is being repaired. We will move you to a working account as soon as a place is free and e-mail you the new login details.',
  'panel.slotNumber': 'Use profile number {slot}',
  'panel.startTime': 'Start time',
  'panel.endTime': 'End time',
  'panel.renew': 'Renew',
  'panel.renewLabel': 'Renew {platform}',
  'panel.renewNote': 'Buying {platform} again extends this subscription on the same profile from its end date.',

  'panel.household': 'Not part of the household?',
  'panel.householdToggle': 'Show the steps',
  'panel.householdHide': 'Hide the steps',
  'panel.householdStep1': "On your TV, choose 'I'm traveling' (or 'Watch temporarily').",
  'panel.householdStep2': "Choose 'Send email'.",
  'panel.householdStep3': `Click '${CONTROLS_EN.householdFetch}' here and wait a moment.`,
  'panel.householdStep4': 'Open the verification link and follow it: it expires after 15 minutes.',
  'panel.householdFetch': CONTROLS_EN.householdFetch,
  'panel.householdLink': 'Open verification link',
  'panel.codeRequest': CONTROLS_EN.codeRequest,
  'panel.codeNote': 'Start logging in first; when you are asked for a code sent by e-mail, request it here.',
  'panel.codeLabel': 'Verification code',
  'panel.pleaseWait': 'Please wait…',
  'panel.verificationStopped': 'Nothing has arrived yet. Send the e-mail again, then try once more.',
  'panel.verificationRetry': 'Try again',
  'panel.verificationFailed': 'The mailbox of this account cannot be read. Please contact support.',
  'panel.contactSupport': 'Contact support',
} as const;

export type PanelTextKey = keyof typeof en;

const ko: TextTable<PanelTextKey> = {
  'panel.title': '내 구독',
  'panel.titleOf': '{name} 님의 구독',
  'panel.loading': '구독 정보를 불러오는 중입니다…',
  'panel.failed': '구독 정보를 불러오지 못했습니다. 잠시 후 다시 시도해 주세요.',
  'panel.retry': '다시 시도',
  'panel.forbiddenTitle': '내 패널이 아닙니다',
  'panel.forbiddenText': '본인의 구독만 볼 수 있습니다. 이 페이지는 다른 계정의 것입니다.',
  'panel.notFoundTitle': '패널을 찾을 수 없습니다',
  'panel.notFoundText': '이 주소에는 고객 패널이 없습니다.',
  'panel.toOwnPanel': '내 구독으로 이동',
  'panel.home': '쇼핑 계속하기',

  'panel.profile': '프로필',
  'panel.photoAlt': '{name} 님의 프로필 사진',
  'panel.nickname': '닉네임',
  'panel.name': '이름',
  'panel.email': '이메일',
  'panel.notSet': '설정되지 않음',

  'panel.subscriptions': '구독',
  'panel.incomplete': '활성화 대기 중',
  'panel.incompleteEmpty': '활성화를 기다리는 결제 주문이 없습니다.',
  'panel.active': '이용 중인 구독',
  'panel.activeEmpty': '아직 이용 중인 구독이 없습니다.',
  'panel.browse': '플랫폼 둘러보기',
  'panel.refunded': '환불된 주문',
  'panel.refundedBadge': '환불됨',
  'panel.refundedNote': '이 주문은 환불되어 이용이 종료되었습니다. 금액은 결제하신 수단으로 돌아갑니다.',

  'panel.logoAlt': '{name} 로고',
  'panel.orderId': '주문 번호',
  'panel.type': '유형',
  'panel.duration': '기간',

  'panel.invitationLabel': '{platform} 로그인 이메일',
  'panel.invitationSubmit': '제출',
  'panel.invitationNote':
    '{platform}은(는) 가족 그룹 초대로 이용합니다. {platform}에 로그인하는 이메일을 입력해 주세요. 그 계정을 가족 그룹에 초대합니다. 해당 계정으로 그룹에 참여하지 않으면 멤버십이 해제될 수 있습니다. 저장한 이메일은 변경할 수 없습니다.',
  'panel.invitationEmail': '초대 이메일',
  'panel.invitationMissing': '아직 초대 이메일이 없습니다.',
  'panel.invitationFailed': '이메일을 저장하지 못했습니다. 다시 시도해 주세요.',
  'panel.activationNote': '구독은 24시간 이내에 활성화됩니다. 활성화되면 이메일로 알려 드립니다.',

  'panel.subscriptionId': '구독 번호',
  'panel.username': '아이디',
  'panel.password': '비밀번호',
  'panel.showPassword': '비밀번호 보기',
  'panel.hidePassword': '비밀번호 숨기기',
  'panel.copyUsername': '아이디 복사',
  'panel.copyPassword': '비밀번호 복사',
  'panel.copied': '복사됨',
  'panel.slot': '프로필',
  'panel.slotAll': '전체',
  'panel.healthMoved': '이전 계정에 문제가 생겨 이 계정으로 옮겨 드렸습니다. 아래가 새 로그인 정보이며, 이용 기한은 그대로입니다.',
  'panel.healthRepairing': '이 계정은 복구 중입니다. 빈 자리가 생기는 즉시 정상 계정으로 옮겨 드리고 새 로그인 정보를 이메일로 보내 드립니다.',
  'panel.slotNumber': '프로필 번호 {slot} 사용',
  'panel.startTime': '시작 시간',
  'panel.endTime': '종료 시간',
  'panel.renew': '연장하기',
  'panel.renewLabel': '{platform} 연장하기',
  'panel.renewNote': '{platform}을(를) 다시 구매하면 이 구독이 같은 프로필에서 종료일부터 연장됩니다.',

  'panel.household': '가구에 속하지 않나요?',
  'panel.householdToggle': '방법 보기',
  'panel.householdHide': '방법 숨기기',
  'panel.householdStep1': "TV에서 '여행 중입니다'(또는 '임시로 시청')를 선택하세요.",
  'panel.householdStep2': "'이메일 보내기'를 선택하세요.",
  'panel.householdStep3': `여기에서 '${CONTROLS_KO.householdFetch}'를 누르고 잠시 기다리세요.`,
  'panel.householdStep4': '인증 링크를 열어 안내를 따르세요. 링크는 15분 후에 만료됩니다.',
  'panel.householdFetch': CONTROLS_KO.householdFetch,
  'panel.householdLink': '인증 링크 열기',
  'panel.codeRequest': CONTROLS_KO.codeRequest,
  'panel.codeNote': '먼저 로그인을 시작하고, 이메일로 보낸 코드를 요구하면 여기에서 요청하세요.',
  'panel.codeLabel': '인증 코드',
  'panel.pleaseWait': '잠시 기다려 주세요…',
  'panel.verificationStopped': '아직 도착한 메일이 없습니다. 이메일을 다시 보낸 후 한 번 더 시도해 주세요.',
  'panel.verificationRetry': '다시 시도',
  'panel.verificationFailed': '이 계정의 메일함을 확인할 수 없습니다. 고객센터에 문의해 주세요.',
  'panel.contactSupport': '고객센터 문의',
};

export const PANEL_TEXTS = defineTexts<PanelTextKey>(en, ko);
