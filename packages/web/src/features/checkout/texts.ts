/**
 * The checkout pages' texts in English and Korean (spec section 2: the result pages' English
 * texts are the spec's own, word for word). Kept with the feature, so they travel in the
 * checkout chunk rather than in the storefront's first download.
 */
import { defineTexts, type TextKey } from '../language/texts';

/** English, then Korean: `defineTexts` makes a key missing from either a type error. */
export const CHECKOUT_TEXTS = defineTexts(
  {
    'payment.title': 'Order and payment',
    'payment.creating': 'Creating your order…',
    'payment.failed': 'We could not create your order. Please try again in a moment.',
    'payment.refused': 'This choice cannot be ordered (any more). Choose again in the shop.',
    'payment.retry': 'Try again',
    'payment.backToShop': 'Back to the shop',
    'payment.logoAlt': '{name} logo',
    'payment.items': 'Your order',
    'payment.orderNumber': 'Order number',
    'payment.type': 'Type',
    'payment.duration': 'Duration',
    'payment.total': 'Total',
    'payment.subtotal': 'Price',
    'payment.discountCode': 'Discount (code {code})',
    'payment.welcomeDiscount': 'Welcome discount',
    'payment.creditApplied': 'Credit applied',
    'payment.toPay': 'To pay',
    'payment.promo.toggle': 'Have a code?',
    'payment.promo.label': 'Promotion code',
    'payment.promo.apply': 'Apply',
    'payment.promo.applied': 'Code {code} applied.',
    'payment.promo.malformed': 'This code does not exist. Please check how it is written.',
    'payment.methods': 'Payment method',
    'payment.payNow': 'Pay now',
    'payment.renewAutomatically': 'Renew automatically',
    'payment.renewAutomaticallyNote':
      'Your card is saved and charged for the next period at the end date. We e-mail you {reminderDays} days before each charge, with a link to cancel in one click.',
    'payment.activation':
      'Most orders are active as soon as the payment is confirmed. If no place is free yet, yours is activated within {activationHours} hours; we send you an e-mail once it is active.',
    'payment.invitation': 'This platform works through a family-group invitation: after paying, enter the e-mail of your platform login in My subscriptions.',
    'payment.method.1': 'Card',
    'payment.method.2': 'Crypto (BTC, ETH, USDT, SOL, TRX and 60+ more)',
    'payment.method.3': 'KakaoPay',
    'payment.method.4': 'Samsung Pay',
    'payment.method.5': 'Korean credit card',
    'payment.method.6': 'Korean internet banking',

    'result.title': 'Payment result',
    'result.success': 'Payment Successful',
    'result.successText': 'Your Payment has been completed.',
    'result.activation':
      'Most orders are active as soon as the payment is confirmed, with the login details in your panel. If no place is free yet, yours is activated within {activationHours} hours, and we e-mail you once it is active.',
    'result.goToSubscriptions': 'GO TO YOUR SUBSCRIBE',
    'result.failed': 'Payment Failed',
    'result.tryLater': 'Try again later',
    'result.home': 'HOME',

    'payssion.checking': 'Checking your payment…',
    'payssion.success': 'Payment Successful!',
    'payssion.successText': 'Your Payment has been completed.',
    'payssion.failed': 'Payment Failed!',
    'payssion.tryLater': 'Try again later.',
  },
  {
    'payment.title': '주문 및 결제',
    'payment.creating': '주문을 생성하고 있습니다…',
    'payment.failed': '주문을 생성하지 못했습니다. 잠시 후 다시 시도해 주세요.',
    'payment.refused': '이 선택은 주문할 수 없습니다. 쇼핑몰에서 다시 선택해 주세요.',
    'payment.retry': '다시 시도',
    'payment.backToShop': '쇼핑 계속하기',
    'payment.logoAlt': '{name} 로고',
    'payment.items': '주문 내역',
    'payment.orderNumber': '주문 번호',
    'payment.type': '유형',
    'payment.duration': '기간',
    'payment.total': '총 결제 금액',
    'payment.subtotal': '상품 금액',
    'payment.discountCode': '할인 (코드 {code})',
    'payment.welcomeDiscount': '첫 주문 환영 할인',
    'payment.creditApplied': '적립금 사용',
    'payment.toPay': '결제할 금액',
    'payment.promo.toggle': '코드가 있으신가요?',
    'payment.promo.label': '프로모션 코드',
    'payment.promo.apply': '적용',
    'payment.promo.applied': '{code} 코드가 적용되었습니다.',
    'payment.promo.malformed': '존재하지 않는 코드입니다. 입력한 코드를 확인해 주세요.',
    'payment.methods': '결제 수단',
    'payment.payNow': '지금 결제하기',
    'payment.renewAutomatically': '자동 연장',
    'payment.renewAutomaticallyNote':
      '카드가 저장되어 종료일에 다음 기간이 결제됩니다. 결제 {reminderDays}일 전마다 한 번에 해지할 수 있는 링크와 함께 이메일을 보내 드려요.',
    'payment.activation':
      '대부분의 주문은 결제가 확인되는 즉시 활성화됩니다. 빈자리가 아직 없으면 {activationHours}시간 이내에 활성화되며, 활성화되면 이메일로 알려 드립니다.',
    'payment.invitation': '이 플랫폼은 가족 그룹 초대로 이용합니다. 결제 후 내 구독에서 플랫폼 로그인 이메일을 입력해 주세요.',
    'payment.method.1': '카드',
    'payment.method.2': '암호화폐 (BTC, ETH, USDT, SOL, TRX 외 60종 이상)',
    'payment.method.3': '카카오페이',
    'payment.method.4': '삼성페이',
    'payment.method.5': '국내 신용카드',
    'payment.method.6': '국내 인터넷 뱅킹',

    'result.title': '결제 결과',
    'result.success': '결제 성공',
    'result.successText': '결제가 완료되었습니다.',
    'result.activation':
      '대부분의 주문은 결제가 확인되는 즉시 활성화되며, 로그인 정보는 내 구독 페이지에 표시됩니다. 빈자리가 아직 없으면 {activationHours}시간 이내에 활성화하고, 활성화되면 이메일로 알려 드립니다.',
    'result.goToSubscriptions': '내 구독으로 이동',
    'result.failed': '결제 실패',
    'result.tryLater': '잠시 후 다시 시도해 주세요',
    'result.home': '홈',

    'payssion.checking': '결제를 확인하고 있습니다…',
    'payssion.success': '결제 성공!',
    'payssion.successText': '결제가 완료되었습니다.',
    'payssion.failed': '결제 실패!',
    'payssion.tryLater': '잠시 후 다시 시도해 주세요.',
  },
);

export type CheckoutTextKey = TextKey<typeof CHECKOUT_TEXTS>;
