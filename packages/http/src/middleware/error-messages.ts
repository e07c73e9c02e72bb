/**
 * Error messages in the buyer's language. Core speaks English (logs, operators, the CLI); the
 * screens show the server's message as it comes (spec section 8), so the Korean interface asks
 * for Korean with `Accept-Language: ko` and the error handler translates here, at the edge.
 * A message missing from the table stays English; the `code` never changes, so a client can
 * always decide on the code. A test checks that every English key still occurs in the server
 * source, so a reworded message cannot silently lose its translation.
 */
import type { Request } from 'express';

export type MessageLanguage = 'en' | 'ko';

/** The language of the answer: Korean when the client prefers it to English. */
export function messageLanguage(req: Request): MessageLanguage {
  return req.acceptsLanguages('en', 'ko') === 'ko' ? 'ko' : 'en';
}

export const KOREAN_MESSAGES: Readonly<Record<string, string>> = {
  // Sign-in, sign-up and sessions
  'An account with this e-mail already exists. Log in instead.': '이미 가입된 이메일입니다. 로그인해 주세요.',
  'The e-mail or password is not correct.': '이메일 또는 비밀번호가 올바르지 않습니다.',
  'The current password is not correct.': '현재 비밀번호가 올바르지 않습니다.',
  'This e-mail does not exist.': '가입되지 않은 이메일입니다.',
  'Too many failed logins for this account. Try again in a few minutes.': '로그인 실패가 너무 많습니다. 몇 분 후에 다시 시도해 주세요.',
  'Too many attempts. Try again later.': '시도 횟수가 너무 많습니다. 잠시 후 다시 시도해 주세요.',
  'You need to log in.': '로그인이 필요합니다.',
  'Your login has expired. Please log in again.': '로그인이 만료되었습니다. 다시 로그인해 주세요.',
  'Your login has ended. Please log in again.': '로그인이 종료되었습니다. 다시 로그인해 주세요.',
  'Your login is not valid.': '로그인 정보가 올바르지 않습니다.',
  'This account no longer exists.': '더 이상 존재하지 않는 계정입니다.',
  'You are not allowed to do this.': '이 작업을 할 권한이 없습니다.',
  // E-mail verification
  'Verify your e-mail address first.': '먼저 이메일 인증을 완료해 주세요.',
  'The code is not correct.': '인증 코드가 올바르지 않습니다.',
  'This code has expired. Ask for a new one.': '인증 코드가 만료되었습니다. 새 코드를 요청해 주세요.',
  'Too many wrong codes. Wait an hour, then ask for a new code.': '잘못된 코드를 너무 많이 입력했습니다. 1시간 후에 새 코드를 요청해 주세요.',
  'Please wait a minute before asking for a new code.': '새 코드는 1분 후에 다시 요청할 수 있습니다.',
  'You have asked for too many codes today. Try again tomorrow.': '오늘 요청할 수 있는 코드 수를 넘었습니다. 내일 다시 시도해 주세요.',
  'This e-mail address is already verified.': '이미 인증된 이메일입니다.',
  'Your e-mail address is already verified.': '이미 인증된 이메일입니다.',
  'You can only verify your own e-mail address.': '본인의 이메일만 인증할 수 있습니다.',
  // Password reset and change
  'The code is not correct or has expired. Ask for a new one.': '코드가 올바르지 않거나 만료되었습니다. 새 코드를 요청해 주세요.',
  'Too many wrong current passwords. Try again in a few minutes.': '현재 비밀번호를 너무 많이 틀렸습니다. 몇 분 후에 다시 시도해 주세요.',
  // Social sign-in
  'Google sign-in could not be verified.': 'Google 로그인을 확인할 수 없습니다.',
  'Google sign-in is not available.': 'Google 로그인을 사용할 수 없습니다.',
  'Google sign-in is not available right now. Try again later.': '지금은 Google 로그인을 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'Your Google account has no verified e-mail address.': 'Google 계정에 인증된 이메일이 없습니다.',
  'Log in with your password to connect this account.': '이 계정을 연결하려면 비밀번호로 로그인해 주세요.',
  'The e-mail address of this login account is not one we can use.': '이 로그인 계정의 이메일 주소는 사용할 수 없는 주소입니다.',
  'Naver login failed.': '네이버 로그인에 실패했습니다.',
  'Naver login is not available.': '네이버 로그인을 사용할 수 없습니다.',
  'Naver login is not available right now. Try again later.': '지금은 네이버 로그인을 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'Kakao login failed.': '카카오 로그인에 실패했습니다.',
  'Kakao login is not available.': '카카오 로그인을 사용할 수 없습니다.',
  'Kakao login is not available right now. Try again later.': '지금은 카카오 로그인을 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'The login attempt expired or was not started here. Please try again.': '로그인 요청이 만료되었거나 올바르지 않습니다. 다시 시도해 주세요.',
  // Orders and payments
  'Demo payments are off: this checkout can no longer be paid.': '데모 결제가 꺼져 있어 이 결제는 더 이상 진행할 수 없습니다.',
  'This order does not exist.': '존재하지 않는 주문입니다.',
  'This order cannot be paid any more.': '더 이상 결제할 수 없는 주문입니다.',
  'This option cannot be ordered.': '주문할 수 없는 옵션입니다.',
  'This option has no price in this currency.': '이 통화로는 가격이 없는 옵션입니다.',
  'This payment method is not available for this order.': '이 주문에는 사용할 수 없는 결제 수단입니다.',
  'This payment method is not available right now. Try again later.': '지금은 이 결제 수단을 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'This payment provider is not configured.': '사용할 수 없는 결제 수단입니다.',
  'Card payments are not available right now. Try again later.': '지금은 카드 결제를 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'Crypto payments are not available right now. Try again later.': '지금은 암호화폐 결제를 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'The payment provider could not confirm this payment; try again later.': '결제 대행사에서 결제를 확인하지 못했습니다. 잠시 후 다시 시도해 주세요.',
  'This payment attempt was already sent to Payssion.': '이미 진행 중인 결제입니다.',
  'Payssion does not serve this payment method.': '이 결제 수단은 지원되지 않습니다.',
  // The panel
  'You can only see your own subscriptions.': '본인의 구독만 볼 수 있습니다.',
  'The invitation e-mail is already set and cannot be changed.': '초대 이메일이 이미 등록되어 변경할 수 없습니다.',
  'This order can no longer take an invitation e-mail.': '이 주문에는 더 이상 초대 이메일을 등록할 수 없습니다.',
  'This order needs no invitation e-mail.': '이 주문에는 초대 이메일이 필요하지 않습니다.',
  // The panel's verification fetch
  'You can only read the mailbox of your own subscriptions.': '본인 구독의 메일함만 확인할 수 있습니다.',
  'This subscription is not active.': '활성 상태의 구독이 아닙니다.',
  'Household links are only for video platforms.': '가구 인증 링크는 동영상 플랫폼에서만 사용할 수 있습니다.',
  'Login codes are only for AI-chat platforms.': '로그인 코드는 AI 채팅 플랫폼에서만 사용할 수 있습니다.',
  'This account has no mailbox to read. Please contact support.': '이 계정에는 확인할 메일함이 없습니다. 고객센터에 문의해 주세요.',
  'Mailboxes are not read on this shop. Please contact support.': '메일함 확인 기능을 사용할 수 없습니다. 고객센터에 문의해 주세요.',
  'The mailbox cannot be reached right now. Please try again in a minute.': '지금은 메일함에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
  'Too many verification look-ups. Please wait a few minutes, then try again.': '인증 확인 요청이 너무 많습니다. 몇 분 후에 다시 시도해 주세요.',
  // Requests
  'Some fields are missing or invalid.': '입력값이 없거나 올바르지 않습니다.',
  'The request is nested too deeply.': '요청의 중첩 깊이가 너무 깊습니다.',
  'The request body is not valid JSON.': '요청 형식이 올바르지 않습니다.',
  'The request body is too large.': '요청이 너무 큽니다.',
  'The request could not be handled.': '요청을 처리할 수 없습니다.',
  'Not found.': '찾을 수 없습니다.',
  'Something went wrong on our side. Please try again.': '일시적인 오류가 발생했습니다. 다시 시도해 주세요.',
  'The shop cannot reach its database right now. Please try again in a moment.': '지금은 서비스에 일시적으로 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.',
};

/** Messages with a number in them. */
const KOREAN_PATTERNS: Array<[RegExp, (...parts: string[]) => string]> = [
  [/^The code is not correct\. (\d+) tr(?:y|ies) left\.$/, (left) => `인증 코드가 올바르지 않습니다. ${left}번 더 시도할 수 있습니다.`],
];

/** The message in this language (English when there is no translation). */
export function translateMessage(message: string, language: MessageLanguage): string {
  if (language === 'en') return message;
  const exact = KOREAN_MESSAGES[message];
  if (exact) return exact;
  for (const [pattern, korean] of KOREAN_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return korean(...match.slice(1));
  }
  return message;
}

/** The message in the request's language. */
export function localizeMessage(req: Request, message: string): string {
  return translateMessage(message, messageLanguage(req));
}
