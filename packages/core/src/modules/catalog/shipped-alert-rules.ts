/**
 * The account-alert rules the shop ships (issue 29), for the five real platforms the demo
 * catalog's fictional ones stand for. They are data: seeding writes them into
 * `platforms.alert_rules`, where staff edit them in the catalog editor (and teach the shop a new
 * platform without a release). The phrases, English and Korean, are the subjects and sentences of
 * the platforms' own alert mails; test/support/alert-mails.ts holds a real-looking mail per kind,
 * and the mailboxes CONTEXT.md lists the rules in prose.
 *
 * Order matters: rules are tried in order and the first match decides, so the mail the shop
 * already reads (household links, sign-in and login codes) and routine mail come first as
 * `ignore`; otherwise a code mail from the platform's sender would count as "unrecognised" and
 * be listed for staff as "unclassified" every time a buyer asks for a code. Receipts (Google Play,
 * Disney+, OpenAI's Stripe-style "Your receipt from OpenAI") are `ignore` too. Each platform's
 * list ends with `NEWSLETTER`: a mail that no alert rule knows and that carries an unsubscribe
 * line is marketing (transactional alerts carry none), so it changes nothing and is not listed.
 * Google's "Security alert" / "보안 알림" names the event only in the body, so its rules need both
 * the subject and a body phrase: a changed password breaks, a new sign-in only warns.
 */
import type { AlertRule, AlertRules } from '../../validation/alert-rules.js';

const rule = (kind: AlertRule['kind'], subject: string[], body: string[] = []): AlertRule => ({ kind, subject, body });

/** Last in every list: marketing mail, known by its unsubscribe line. */
const NEWSLETTER = rule('ignore', [], ['unsubscribe', '수신 거부', '수신거부']);

/** Google's account mail: one subject for several events, the event named in the body. */
const GOOGLE_SECURITY_ALERT = ['security alert', '보안 알림'];

export const SHIPPED_ALERT_RULES = {
  netflix: {
    senders: ['netflix.com'],
    linkHosts: ['www.netflix.com', 'netflix.com'],
    rules: [
      rule('ignore', ['temporary access code', 'netflix household', 'sign-in code', 'verification code', '임시 접속 코드', '이용 가구', '로그인 코드']),
      rule('passwordChanged', ['password has been changed', 'password was changed', '비밀번호가 변경되었습니다']),
      rule('onHold', ['account is on hold', 'problem with your payment', 'update your payment', '계정이 보류', '결제에 문제', '결제 정보를 업데이트']),
      rule('planCancelled', ['membership has been cancelled', 'cancelled your membership', 'membership has been canceled', '멤버십이 해지']),
      rule('planChanged', ['plan has changed', 'plan was changed', 'membership plan', '멤버십이 변경', '요금제가 변경']),
      rule('memberRemoved', ['extra member has been removed', 'extra member removed', '추가 회원이 삭제']),
      rule('newSignIn', ['new sign-in', 'new device', '새로운 기기', '새 로그인']),
      NEWSLETTER,
    ],
  },
  spotify: {
    senders: ['spotify.com'],
    linkHosts: ['www.spotify.com', 'accounts.spotify.com'],
    rules: [
      rule('ignore', ['receipt', 'your login link', '영수증', '로그인 링크']),
      rule('passwordChanged', ['password was changed', 'password has been changed', '비밀번호가 변경되었습니다']),
      rule('onHold', ['payment failed', 'problem with your payment', "couldn't process your payment", '결제 실패', '결제에 문제']),
      rule('planCancelled', ['premium has been cancelled', 'premium has been canceled', 'your premium is ending', '프리미엄이 해지', '프리미엄 구독이 취소']),
      rule('planChanged', ['plan has changed', 'switched to', '요금제가 변경']),
      rule('memberRemoved', ['removed from premium family', 'removed from the family', '패밀리에서 제외', '패밀리 멤버에서 삭제']),
      rule('newSignIn', ['new login', 'new sign-in', 'new device', '새 로그인', '새로운 기기']),
      NEWSLETTER,
    ],
  },
  youtube: {
    senders: ['youtube.com', 'accounts.google.com', 'payments-noreply@google.com', 'googleplay-noreply@google.com'],
    linkHosts: ['www.youtube.com', 'youtube.com', 'accounts.google.com'],
    rules: [
      rule('ignore', ['your youtube premium receipt', 'welcome to youtube premium', 'google play order receipt', 'receipt', '영수증']),
      rule('passwordChanged', ['password was changed', 'password changed', '비밀번호가 변경']),
      rule('passwordChanged', GOOGLE_SECURITY_ALERT, ['your password was changed', 'password was changed', '비밀번호가 변경']),
      rule('onHold', ['payment declined', 'payment failed', 'membership is paused', 'update your payment', '결제가 거부', '결제 실패', '멤버십이 일시중지']),
      rule('planCancelled', ['membership has been cancelled', 'membership has been canceled', 'membership was cancelled', '멤버십이 취소']),
      rule('planChanged', ['membership has changed', 'plan has changed', '멤버십이 변경']),
      rule('memberRemoved', ['removed from the family group', 'removed from your family group', '가족 그룹에서 삭제']),
      rule('newSignIn', GOOGLE_SECURITY_ALERT, ['new sign-in', '새로 로그인', '새로운 로그인', '새 로그인']),
      rule('newSignIn', ['new sign-in', '새로운 로그인']),
      NEWSLETTER,
    ],
  },
  disneyPlus: {
    senders: ['disneyplus.com'],
    linkHosts: ['www.disneyplus.com', 'disneyplus.com'],
    rules: [
      rule('ignore', ['one-time passcode', 'passcode', 'receipt', 'payment confirmation', '일회용 비밀번호', '인증 코드', '영수증', '결제 확인']),
      rule('passwordChanged', ['password has been changed', 'password was changed', '비밀번호가 변경되었습니다']),
      rule('onHold', ['payment issue', 'problem with your payment', 'subscription is on hold', '결제 문제', '결제에 문제', '구독이 보류']),
      rule('planCancelled', ['subscription has been cancelled', 'subscription has been canceled', 'subscription was cancelled', '구독이 해지', '구독이 취소']),
      rule('planChanged', ['subscription has changed', 'plan has changed', '구독이 변경', '요금제가 변경']),
      rule('memberRemoved', ['removed from the account', '계정에서 삭제']),
      rule('newSignIn', ['new device', 'new sign-in', 'new login', '새로운 기기', '새 로그인']),
      NEWSLETTER,
    ],
  },
  chatgpt: {
    senders: ['openai.com', 'chatgpt.com'],
    linkHosts: ['chatgpt.com', 'auth.openai.com'],
    rules: [
      rule('ignore', ['chatgpt code', 'openai code', 'verification code', 'log-in code', 'login code', '코드', 'your receipt from', 'receipt', '영수증']),
      rule('passwordChanged', ['password was changed', 'password has been changed', 'password reset', '비밀번호가 변경']),
      rule('onHold', ['payment failed', 'update your payment', 'payment was declined', '결제 실패', '결제 수단을 업데이트']),
      rule('planCancelled', ['subscription has been canceled', 'subscription has been cancelled', 'plan has been canceled', '구독이 취소', '구독이 해지']),
      rule('planChanged', ['plan has changed', 'subscription has changed', 'downgraded', '요금제가 변경', '플랜이 변경']),
      rule('memberRemoved', ['removed from', '워크스페이스에서 제거']),
      rule('newSignIn', ['new login', 'new sign-in', 'new device', '새 로그인', '새로운 기기']),
      NEWSLETTER,
    ],
  },
} as const satisfies Record<string, AlertRules>;

export type ShippedAlertRuleSet = keyof typeof SHIPPED_ALERT_RULES;

/**
 * Which real platform each demo platform stands for (by slug): Orbitview is Netflix, Reelnest
 * Disney+, Kinoly YouTube Premium, Tunewell Spotify, Quillmind ChatGPT. Echora (music) stands for
 * none of the five and ships without rules: staff add them in the editor.
 */
export const DEMO_ALERT_RULES: Readonly<Record<string, ShippedAlertRuleSet>> = {
  orbitview: 'netflix',
  reelnest: 'disneyPlus',
  kinoly: 'youtube',
  tunewell: 'spotify',
  quillmind: 'chatgpt',
};

/** The shipped rules of a demo platform, as stored: plain arrays. */
export function shippedAlertRules(slug: string): AlertRules | undefined {
  const set = DEMO_ALERT_RULES[slug];
  if (!set) return undefined;
  const rules = SHIPPED_ALERT_RULES[set];
  return {
    senders: [...rules.senders],
    linkHosts: [...rules.linkHosts],
    rules: rules.rules.map((r) => ({ kind: r.kind, subject: [...r.subject], body: [...r.body] })),
  };
}
