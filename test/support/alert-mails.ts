/**
 * The platforms' account-alert mails as they look in real life (issue 29): one per platform, kind
 * and language, from the platform's real sender, with the subject and opening sentence the
 * platform uses, an HTML part with the brand's buttons and footer links, and a text part. The
 * shipped rules (packages/core/src/modules/catalog/shipped-alert-rules.ts) must recognise each
 * of them; `lookalike` builds the same mail from someone else.
 */
import { randomUUID } from 'node:crypto';
import type { AlertKind, ShippedAlertRuleSet } from '@subshare/core';
import type { MailToDeliver } from './dovecot.js';

export type AlertMailKind = Exclude<AlertKind, 'ignore'>;
export const ALERT_MAIL_KINDS: AlertMailKind[] = ['passwordChanged', 'onHold', 'newSignIn', 'planChanged', 'planCancelled', 'memberRemoved'];

interface Wording {
  subject: string;
  lead: string;
}

interface PlatformMail {
  from: string;
  brand: string;
  color: string;
  help: string;
  en: Record<AlertMailKind, Wording>;
  ko: Record<AlertMailKind, Wording>;
}

export const ALERT_MAILS: Record<ShippedAlertRuleSet, PlatformMail> = {
  netflix: {
    from: 'Netflix <info@account.netflix.com>',
    brand: 'Netflix',
    color: '#e50914',
    help: 'https://help.netflix.com',
    en: {
      passwordChanged: { subject: 'Your password has been changed', lead: 'The password for your Netflix account was recently changed.' },
      onHold: {
        subject: 'Your account is on hold',
        lead: "We're having some trouble with your current billing information. Please update your payment information.",
      },
      newSignIn: { subject: 'A new device is using your account', lead: 'A new device signed in to your Netflix account.' },
      planChanged: { subject: 'Your plan has changed', lead: 'Your membership plan was changed to Standard with ads.' },
      planCancelled: { subject: 'Your membership has been cancelled', lead: "We've cancelled your membership. You can restart any time." },
      memberRemoved: { subject: 'An extra member has been removed', lead: 'An extra member slot has been removed from your account.' },
    },
    ko: {
      passwordChanged: { subject: '넷플릭스 비밀번호가 변경되었습니다', lead: '회원님의 넷플릭스 계정 비밀번호가 최근에 변경되었습니다.' },
      onHold: { subject: '넷플릭스 계정이 보류되었습니다', lead: '결제에 문제가 있습니다. 결제 정보를 업데이트해 주세요.' },
      newSignIn: { subject: '새로운 기기에서 넷플릭스 계정에 로그인했습니다', lead: '새로운 기기에서 회원님의 계정을 사용하고 있습니다.' },
      planChanged: { subject: '넷플릭스 멤버십이 변경되었습니다', lead: '회원님의 멤버십이 광고형 스탠다드로 변경되었습니다.' },
      planCancelled: { subject: '넷플릭스 멤버십이 해지되었습니다', lead: '멤버십이 해지되었습니다. 언제든지 다시 시작할 수 있습니다.' },
      memberRemoved: { subject: '추가 회원이 삭제되었습니다', lead: '회원님의 계정에서 추가 회원 슬롯이 삭제되었습니다.' },
    },
  },
  spotify: {
    from: 'Spotify <no-reply@alerts.spotify.com>',
    brand: 'Spotify',
    color: '#1db954',
    help: 'https://support.spotify.com',
    en: {
      passwordChanged: { subject: 'Your Spotify password was changed', lead: 'The password for your Spotify account was just changed.' },
      onHold: { subject: 'Your payment failed', lead: "We couldn't process your payment for Premium Family." },
      newSignIn: { subject: 'New login to Spotify', lead: 'We noticed a new login to your Spotify account.' },
      planChanged: { subject: 'Your plan has changed', lead: "You've switched to Premium Duo." },
      planCancelled: { subject: 'Your Premium has been cancelled', lead: 'Your Premium Family plan is cancelled and your account goes back to Spotify Free.' },
      memberRemoved: { subject: "You've been removed from Premium Family", lead: 'The plan manager removed a member from the Premium Family plan.' },
    },
    ko: {
      passwordChanged: { subject: 'Spotify 비밀번호가 변경되었습니다', lead: '회원님의 Spotify 계정 비밀번호가 방금 변경되었습니다.' },
      onHold: { subject: 'Spotify 결제 실패', lead: 'Premium Family 결제에 문제가 있습니다.' },
      newSignIn: { subject: 'Spotify 새 로그인', lead: '회원님의 Spotify 계정에 새 로그인이 있었습니다.' },
      planChanged: { subject: 'Spotify 요금제가 변경되었습니다', lead: 'Premium Duo로 변경되었습니다.' },
      planCancelled: { subject: 'Spotify 프리미엄이 해지되었습니다', lead: 'Premium Family가 해지되어 Spotify Free로 돌아갑니다.' },
      memberRemoved: { subject: 'Spotify 패밀리 멤버에서 삭제되었습니다', lead: '플랜 관리자가 패밀리 멤버에서 삭제했습니다.' },
    },
  },
  youtube: {
    from: 'YouTube <noreply-purchases@youtube.com>',
    brand: 'YouTube Premium',
    color: '#ff0000',
    help: 'https://support.google.com/youtube',
    en: {
      passwordChanged: { subject: 'Your Google Account password was changed', lead: 'The password for your Google Account was changed.' },
      onHold: { subject: 'Your YouTube Premium payment declined', lead: 'Your membership is paused because your payment declined.' },
      newSignIn: { subject: 'Security alert: new sign-in on Windows', lead: 'We noticed a new sign-in to your Google Account on a Windows device.' },
      planChanged: { subject: 'Your YouTube Premium membership has changed', lead: 'Your membership has changed to YouTube Premium Lite.' },
      planCancelled: { subject: 'Your YouTube Premium membership has been cancelled', lead: 'Your membership has been cancelled and benefits end today.' },
      memberRemoved: { subject: "You've been removed from the family group", lead: 'The family manager removed a member from the family group.' },
    },
    ko: {
      passwordChanged: { subject: 'Google 계정 비밀번호가 변경됨', lead: 'Google 계정의 비밀번호가 변경되었습니다.' },
      onHold: { subject: 'YouTube Premium 결제가 거부되었습니다', lead: '결제가 거부되어 멤버십이 일시중지되었습니다.' },
      newSignIn: { subject: '보안 알림: Windows에서 새로운 로그인', lead: 'Windows 기기에서 Google 계정에 새로운 로그인이 있었습니다.' },
      planChanged: { subject: 'YouTube Premium 멤버십이 변경되었습니다', lead: '멤버십이 YouTube Premium Lite로 변경되었습니다.' },
      planCancelled: { subject: 'YouTube Premium 멤버십이 취소되었습니다', lead: '멤버십이 취소되어 오늘 혜택이 종료됩니다.' },
      memberRemoved: { subject: '가족 그룹에서 삭제되었습니다', lead: '가족 관리자가 가족 그룹에서 구성원을 삭제했습니다.' },
    },
  },
  disneyPlus: {
    from: 'Disney+ <disneyplus@mail.disneyplus.com>',
    brand: 'Disney+',
    color: '#113ccf',
    help: 'https://help.disneyplus.com',
    en: {
      passwordChanged: { subject: 'Your Disney+ password has been changed', lead: 'The password of your MyDisney account was changed.' },
      onHold: { subject: 'There is a problem with your payment', lead: 'Your subscription is on hold until you update your payment method.' },
      newSignIn: { subject: 'New device login to Disney+', lead: 'Your account was used on a new device.' },
      planChanged: { subject: 'Your subscription has changed', lead: 'Your subscription has changed to Disney+ Standard.' },
      planCancelled: { subject: 'Your Disney+ subscription has been cancelled', lead: 'Your subscription has been cancelled.' },
      memberRemoved: { subject: 'A profile was removed from the account', lead: 'An extra member was removed from the account.' },
    },
    ko: {
      passwordChanged: { subject: '디즈니+ 비밀번호가 변경되었습니다', lead: 'MyDisney 계정 비밀번호가 변경되었습니다.' },
      onHold: { subject: '디즈니+ 결제 문제', lead: '결제 수단을 업데이트할 때까지 구독이 보류됩니다.' },
      newSignIn: { subject: '새로운 기기에서 디즈니+ 로그인', lead: '새로운 기기에서 계정이 사용되었습니다.' },
      planChanged: { subject: '디즈니+ 구독이 변경되었습니다', lead: '구독이 디즈니+ 스탠다드로 변경되었습니다.' },
      planCancelled: { subject: '디즈니+ 구독이 해지되었습니다', lead: '구독이 해지되었습니다.' },
      memberRemoved: { subject: '디즈니+ 계정에서 삭제되었습니다', lead: '추가 멤버가 계정에서 삭제되었습니다.' },
    },
  },
  chatgpt: {
    from: 'OpenAI <noreply@tm.openai.com>',
    brand: 'ChatGPT',
    color: '#10a37f',
    help: 'https://help.openai.com',
    en: {
      passwordChanged: { subject: 'Your OpenAI password was changed', lead: 'The password for your OpenAI account was changed.' },
      onHold: { subject: 'Your ChatGPT Plus payment failed', lead: 'Please update your payment method to keep ChatGPT Plus.' },
      newSignIn: { subject: 'New login to ChatGPT', lead: 'We detected a new login to your ChatGPT account.' },
      planChanged: { subject: 'Your ChatGPT plan has changed', lead: 'Your workspace was downgraded to ChatGPT Free.' },
      planCancelled: {
        subject: 'Your ChatGPT Plus subscription has been canceled',
        lead: 'Your subscription has been canceled and ends at the end of the period.',
      },
      memberRemoved: { subject: "You've been removed from the ChatGPT Team workspace", lead: 'An owner removed a member from the workspace.' },
    },
    ko: {
      passwordChanged: { subject: 'OpenAI 비밀번호가 변경되었습니다', lead: 'OpenAI 계정 비밀번호가 변경되었습니다.' },
      onHold: { subject: 'ChatGPT Plus 결제 실패', lead: 'ChatGPT Plus를 계속 이용하려면 결제 수단을 업데이트하세요.' },
      newSignIn: { subject: 'ChatGPT 새 로그인', lead: 'ChatGPT 계정에서 새 로그인이 감지되었습니다.' },
      planChanged: { subject: 'ChatGPT 플랜이 변경되었습니다', lead: '워크스페이스가 ChatGPT Free로 변경되었습니다.' },
      planCancelled: { subject: 'ChatGPT Plus 구독이 취소되었습니다', lead: '구독이 취소되어 기간이 끝나면 종료됩니다.' },
      memberRemoved: { subject: 'ChatGPT Team 워크스페이스에서 제거되었습니다', lead: '소유자가 워크스페이스에서 멤버를 제거했습니다.' },
    },
  },
};

/** The platform's alert mail of this kind, in this language, to the account's address. */
export function alertMail(platform: ShippedAlertRuleSet, kind: AlertMailKind, to: string, lang: 'en' | 'ko' = 'en', receivedAt = new Date()): MailToDeliver {
  const mail = ALERT_MAILS[platform];
  const { subject, lead } = mail[lang][kind];
  const button = lang === 'en' ? 'Go to your account' : '계정으로 이동';
  const footer = lang === 'en' ? `Questions? Visit the Help Center: ${mail.help}` : `궁금한 점이 있으신가요? 고객센터: ${mail.help}`;
  return {
    from: mail.from,
    to,
    subject,
    receivedAt,
    headers: [`Message-ID: <${randomUUID()}@${mail.from.replace(/.*@|>$/g, '')}>`],
    html: `<html><head><style>.btn{background:${mail.color};color:#ffffff}</style></head><body>
<table width="100%"><tr><td><h1 style="color:${mail.color}">${mail.brand}</h1></td></tr>
<tr><td><p>${lead}</p></td></tr>
<tr><td><a class="btn" href="https://example.invalid/${platform}/account?trk=${randomUUID()}">${button}</a></td></tr>
<tr><td style="color:#777777;font-size:12px">${footer}</td></tr></table></body></html>`,
    text: `${mail.brand}\n\n${lead}\n\n${button}: https://example.invalid/${platform}/account\n\n${footer}`,
  };
}

/** The same mail from a sender that is not the platform's (a phishing lookalike). */
export function lookalike(mail: MailToDeliver): MailToDeliver {
  return { ...mail, from: mail.from.replace(/<.*>/, '<security@account-netflix-support.example>') };
}

/** A mail from the platform's own sender that no rule knows (and no unsubscribe line): listed for staff as unclassified. */
export function unknownPlatformMail(platform: ShippedAlertRuleSet, to: string): MailToDeliver {
  const mail = ALERT_MAILS[platform];
  return {
    from: mail.from,
    to,
    subject: `What's new on ${mail.brand} this week`,
    text: 'Top picks for you this week.',
    html: '<html><body><p>Top picks for you this week.</p></body></html>',
    headers: [`Message-ID: <${randomUUID()}@example.invalid>`],
  };
}

type Lang = 'en' | 'ko';

/** A mail as it arrives, from `from`, with a text and an HTML part (the same sentences). */
function platformMail(from: string, to: string, subject: string, lines: string[]): MailToDeliver {
  const domain = from.replace(/.*@|>$/g, '');
  return {
    from,
    to,
    subject,
    headers: [`Message-ID: <${randomUUID()}@${domain}>`],
    text: lines.join('\n\n'),
    html: `<html><body><table width="100%">${lines.map((line) => `<tr><td><p>${line}</p></td></tr>`).join('')}</table></body></html>`,
  };
}

/**
 * Google's account mail (YouTube Premium's accounts): one subject, "Security alert" / "보안 알림",
 * for several events, the event named in the body (issue 33). A changed password must break the
 * account, a new sign-in only warn.
 */
export function googleSecurityAlert(event: 'passwordChanged' | 'newSignIn', to: string, lang: Lang = 'en'): MailToDeliver {
  const words = {
    en: {
      subject: 'Security alert',
      passwordChanged: ['Your password was changed', `The password for your Google Account ${to} was changed. If you did this, you don't need to do anything.`],
      newSignIn: [
        'A new sign-in on Windows',
        `We noticed a new sign-in to your Google Account ${to} on a Windows device. If this was you, you don't need to do anything.`,
      ],
      footer: 'You received this email to let you know about important changes to your Google Account and services.',
    },
    ko: {
      subject: '보안 알림',
      passwordChanged: ['비밀번호가 변경되었습니다', `Google 계정 ${to}의 비밀번호가 변경되었습니다. 본인이 변경한 경우 별도의 조치는 필요하지 않습니다.`],
      newSignIn: [
        'Windows에서 새로 로그인함',
        `Windows 기기에서 Google 계정 ${to}에 새로 로그인했습니다. 본인이 로그인한 경우 별도의 조치는 필요하지 않습니다.`,
      ],
      footer: 'Google 계정 및 서비스의 중요한 변경사항을 알려드리기 위해 발송된 이메일입니다.',
    },
  }[lang];
  return platformMail('Google <no-reply@accounts.google.com>', to, words.subject, [...words[event], 'Check activity', words.footer]);
}

/** Receipts that change nothing (issue 33): Google Play, Disney+, and OpenAI's Stripe-style receipt. */
export const RECEIPTS = ['googlePlay', 'disneyPlus', 'openAi'] as const;
export type Receipt = (typeof RECEIPTS)[number];
/** Which shipped rules each receipt is read under. */
export const RECEIPT_RULES: Record<Receipt, ShippedAlertRuleSet> = { googlePlay: 'youtube', disneyPlus: 'disneyPlus', openAi: 'chatgpt' };

export function receiptMail(receipt: Receipt, to: string, lang: Lang = 'en'): MailToDeliver {
  const mails: Record<Receipt, { from: string; en: [string, string[]]; ko: [string, string[]] }> = {
    googlePlay: {
      from: 'Google Play <googleplay-noreply@google.com>',
      en: [
        'Your Google Play Order Receipt from Dec 6, 2026',
        ['Thank you. You paid ₩14,900 for YouTube Premium (YouTube) using Visa-4242.', 'Order number: GPA.3312-4471-5539-21845', 'Auto-renewing subscription'],
      ],
      ko: [
        '2026. 12. 6.의 Google Play 주문 영수증',
        ['감사합니다. Visa-4242(으)로 YouTube Premium (YouTube)에 ₩14,900을 결제했습니다.', '주문 번호: GPA.3312-4471-5539-21845', '자동 갱신 구독'],
      ],
    },
    disneyPlus: {
      from: 'Disney+ <disneyplus@mail.disneyplus.com>',
      en: [
        'Your Disney+ payment receipt',
        ['Thanks for your payment. Disney+ Premium (monthly): ₩13,900.', 'Payment method: Visa ending in 4242.', 'Next billing date: January 6, 2027'],
      ],
      ko: ['디즈니+ 결제 영수증', ['결제해 주셔서 감사합니다. 디즈니+ 프리미엄 (월간): ₩13,900', '결제 수단: Visa 4242', '다음 결제일: 2027년 1월 6일']],
    },
    openAi: {
      from: 'OpenAI <invoice+statements@tm1.openai.com>',
      en: [
        'Your receipt from OpenAI, LLC #2473-9910',
        [
          'Receipt from OpenAI, LLC',
          '$20.00 Paid December 6, 2026',
          'Receipt number 2473-9910',
          'ChatGPT Plus Subscription Qty 1 $20.00',
          'Payment method Visa - 4242',
        ],
      ],
      ko: [
        'OpenAI, LLC의 영수증 #2473-9910',
        ['OpenAI, LLC의 영수증', '$20.00 2026년 12월 6일 결제됨', '영수증 번호 2473-9910', 'ChatGPT Plus Subscription 수량 1 $20.00', '결제 수단 Visa - 4242'],
      ],
    },
  };
  const mail = mails[receipt];
  const [subject, lines] = mail[lang];
  return platformMail(mail.from, to, subject, lines);
}

/** The platform's newsletter: from its own sender, no rule knows it, an unsubscribe line at the foot. */
export function newsletterMail(platform: ShippedAlertRuleSet, to: string, lang: Lang = 'en'): MailToDeliver {
  const mail = ALERT_MAILS[platform];
  return lang === 'en'
    ? platformMail(mail.from, to, `New this month on ${mail.brand}`, ['Top picks for you this month.', `Don't want these emails? Unsubscribe. ${mail.help}`])
    : platformMail(mail.from, to, `이번 달 ${mail.brand} 새 소식`, [
        '이번 달 추천 콘텐츠를 확인하세요.',
        `이메일을 더 받고 싶지 않으시면 수신 거부하세요. ${mail.help}`,
      ]);
}
