import { expect } from 'chai';
import { EMAIL_KIND, EMAIL_KIND_NAMES, EMAIL_TEMPLATE_KINDS, renderEmail, type EmailDataByKind, type EmailKind, type EmailRenderContext } from '@subshare/core';

const HOSTILE = `<script>alert("x")</script> & 'Co'`;

const CONTEXT: EmailRenderContext = {
  brand: 'subshare',
  publicUrl: 'https://shop.example.test',
  business: {
    name: 'Kim & Lee <Subshare> Ltd',
    registrationNumber: '123-45-67890',
    mailOrderNumber: '2026-Seoul-0042',
    address: '7 Example Road, London',
    representative: 'Jiwoo Kim',
    supportPhone: '+44 20 7946 0000',
    supportEmail: 'help@shop.example.test',
  },
};

const END = '2027-03-01T00:30:00Z';

/** Data for every kind, with markup in every free text. */
const SAMPLES: { [K in EmailKind]: EmailDataByKind[K] } = {
  [EMAIL_KIND.welcome]: { name: HOSTILE },
  [EMAIL_KIND.purchasedActiveSubscribe]: { orderId: 42, platformName: HOSTILE, endTime: END, profileNumber: 2 },
  [EMAIL_KIND.purchasedNotActiveSubscribe]: { orderId: 43, platformName: HOSTILE, needsInvitation: true },
  [EMAIL_KIND.subscribeActive]: { orderId: 44, subscriptionId: 7, platformName: HOSTILE, startTime: '2027-02-01T00:30:00Z', endTime: END, profileNumber: 0 },
  [EMAIL_KIND.trustPilotInvite]: { name: HOSTILE },
  [EMAIL_KIND.verificationCode]: { code: '042917' },
  [EMAIL_KIND.appleTVActive]: { orderId: 45, platformName: HOSTILE, invitationEmail: 'apple-id@example.test', endTime: END },
  [EMAIL_KIND.expiryReminder]: { subscriptionId: 8, platformId: 3, platformName: HOSTILE, endTime: END },
  [EMAIL_KIND.subscriptionEnded]: { subscriptionId: 9, platformId: 3, platformName: HOSTILE, endTime: END },
  [EMAIL_KIND.subscriptionReplaced]: { subscriptionId: 10, platformName: HOSTILE, endTime: END, profileNumber: 4 },
  [EMAIL_KIND.refunded]: { orderId: 46, platformName: HOSTILE, amount: '€8.10' },
  [EMAIL_KIND.accountBroken]: {
    accountId: 12,
    platformName: HOSTILE,
    accountEmail: 'acct@mail.example.test',
    kind: 'passwordChanged',
    subject: HOSTILE,
    sender: 'info@account.netflix.com',
    receivedAt: END,
    moved: 2,
    waiting: 1,
  },
  [EMAIL_KIND.platformIncident]: {
    platformName: HOSTILE,
    breaksPerHour: 2,
    accountId: 13,
    accountEmail: 'acct3@mail.example.test',
    cause: 'passwordChanged',
    openedAt: END,
  },
  [EMAIL_KIND.renewalProviderError]: {
    subscriptionId: 14,
    chargeId: 3,
    attempt: 1,
    maxAttempts: 3,
    httpStatus: 400,
    errorType: 'invalid_request_error',
    errorCode: null,
    message: HOSTILE,
    requestId: 'req_abc123',
    at: END,
  },
  [EMAIL_KIND.referralReward]: { amount: HOSTILE, expiresAt: END },
  [EMAIL_KIND.autoRenewal]: {
    event: 'reminder',
    subscriptionId: 11,
    platformName: HOSTILE,
    amount: '€4.99',
    date: END,
    cardLast4: '4242',
    cancelUrl: 'https://shop.example.test/api/subscribe/autorenew/cancel?token=abc',
  },
};

function render<K extends EmailKind>(kind: K, languageId: 1 | 2, data: EmailDataByKind[K] = SAMPLES[kind], userId: number | null = 77) {
  return renderEmail({ kind, languageId, data, userId }, CONTEXT);
}

function validationError(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (error) {
    expect((error as { type?: string }).type).to.equal('validation');
    return (error as { errors?: Record<string, string> }).errors ?? {};
  }
  return expect.fail('the data was accepted');
}

const HANGUL = /[\uac00-\ud7a3]/;

describe('e-mail templates', () => {
  it('exist for every kind, 0 to 6 from the spec and 7 to 15', () => {
    expect(EMAIL_TEMPLATE_KINDS).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(EMAIL_KIND_NAMES[7]).to.equal('expiryReminder');
  });

  it("a renewal the provider failed: the buyer's pay link does not blame the card, staff get Stripe's message and request id", () => {
    const payUrl = 'https://shop.example.test/api/subscribe/autorenew/pay?token=abc';
    const data = { ...SAMPLES[EMAIL_KIND.autoRenewal], event: 'pay_link' as const, payUrl };
    for (const languageId of [1, 2] as const) {
      const mail = render(EMAIL_KIND.autoRenewal, languageId, data);
      expect(mail.html).to.contain(payUrl);
      expect(mail.text).not.to.match(/declined|거절/);
    }
    expect(render(EMAIL_KIND.autoRenewal, 1, data).text).to.contain('not with your card');
    const staff = render(EMAIL_KIND.renewalProviderError, 1);
    expect(staff.text).to.contain('req_abc123').and.contain('HTTP 400').and.contain('Attempt');
    expect(render(EMAIL_KIND.renewalProviderError, 2).text).to.contain('req_abc123');
  });

  for (const kind of EMAIL_TEMPLATE_KINDS) {
    for (const languageId of [1, 2] as const) {
      it(`render ${EMAIL_KIND_NAMES[kind]} in ${languageId === 1 ? 'English' : 'Korean'}: HTML and text, escaped, with the business details`, () => {
        const email = render(kind, languageId);
        expect(email.subject).to.be.a('string').and.not.equal('');
        expect(email.subject).to.not.match(/[\r\n]/);
        expect(email.html).to.match(/^<!doctype html>/);
        expect(email.html).to.include(`<html lang="${languageId === 1 ? 'en' : 'ko'}"`);
        expect(email.html).to.include('<meta charset="utf-8">');
        expect(email.text.trim()).to.not.equal('');
        expect(email.text).to.not.match(/<(p|a|h1|table|td|div|html|ol|li)[\s>]/);

        // Data never becomes markup.
        expect(email.html).to.not.include('<script');
        expect(email.html).to.not.include(HOSTILE);
        if (JSON.stringify(SAMPLES[kind]).includes('script')) {
          expect(email.html).to.include('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;');
          expect(email.text).to.include(HOSTILE);
        }

        for (const detail of Object.values(CONTEXT.business)) expect(email.text).to.include(detail);
        expect(email.html).to.include('Kim &amp; Lee &lt;Subshare&gt; Ltd');
        for (const detail of ['123-45-67890', '2026-Seoul-0042', '7 Example Road, London', 'Jiwoo Kim', '+44 20 7946 0000', 'mailto:help@shop.example.test']) {
          expect(email.html).to.include(detail);
        }
        expect(email.html).to.include('https://shop.example.test/');

        if (languageId === 2) {
          expect(email.subject).to.match(HANGUL);
          expect(email.text).to.match(HANGUL);
          expect(email.text).to.include('사업자등록번호');
        } else {
          expect(email.subject).to.not.match(HANGUL);
          expect(email.text).to.include('Company registration no.');
        }
      });
    }
  }

  it('build links from PUBLIC_URL: the panel, the renewal page, the home page', () => {
    expect(render(EMAIL_KIND.purchasedActiveSubscribe, 1).html).to.include('href="https://shop.example.test/user/77"');
    expect(render(EMAIL_KIND.subscriptionReplaced, 2).text).to.include('https://shop.example.test/user/77');
    const reminder = render(EMAIL_KIND.expiryReminder, 1);
    expect(reminder.subject).to.include('ends in 3 days');
    expect(reminder.html).to.include('href="https://shop.example.test/platform/3"');
    expect(render(EMAIL_KIND.expiryReminder, 2).subject).to.include('3일 후 만료');
    expect(render(EMAIL_KIND.welcome, 1).html).to.include('href="https://shop.example.test/"');
    expect(render(EMAIL_KIND.trustPilotInvite, 1).html).to.include('href="https://www.trustpilot.com/evaluate/shop.example.test"');
  });

  it('refuse links that are not http(s) and fall back to our own', () => {
    const email = render(EMAIL_KIND.subscriptionEnded, 1, { ...SAMPLES[EMAIL_KIND.subscriptionEnded], renewUrl: 'javascript:alert(1)' });
    expect(email.html).to.not.include('javascript:');
    expect(email.html).to.include('href="https://shop.example.test/platform/3"');
  });

  it('show the verification code, valid 10 minutes, and never put it in the subject', () => {
    for (const languageId of [1, 2] as const) {
      const email = render(EMAIL_KIND.verificationCode, languageId);
      expect(email.html).to.include('042917');
      expect(email.text).to.include('042917');
      expect(email.subject).to.not.include('042917');
      expect(email.text).to.include(languageId === 1 ? '10 minutes' : '10분');
    }
    expect(validationError(() => render(EMAIL_KIND.verificationCode, 1, { code: '12345' }))).to.have.property('data.code');
  });

  it('show dates in UTC in English and in Korean time in Korean', () => {
    expect(render(EMAIL_KIND.subscriptionEnded, 1).text).to.include('1 March 2027 at 00:30 UTC');
    expect(render(EMAIL_KIND.subscriptionEnded, 2).text).to.include('2027년 3월 1일 오전 9:30 (한국 시간)');
    // The same words on every Node version (ICU's Korean data differs: Node 20 wrote `AM 9:30`).
    const ended = (endTime: string, languageId: 1 | 2) =>
      render(EMAIL_KIND.subscriptionEnded, languageId, { ...SAMPLES[EMAIL_KIND.subscriptionEnded], endTime }).text;
    expect(ended('2027-03-01T06:05:00Z', 2)).to.include('2027년 3월 1일 오후 3:05 (한국 시간)');
    expect(ended('2027-03-01T03:00:00Z', 2)).to.include('2027년 3월 1일 오후 12:00 (한국 시간)');
    expect(ended('2027-03-01T15:00:00Z', 2)).to.include('2027년 3월 2일 오전 12:00 (한국 시간)');
    expect(ended('2027-12-31T23:59:00Z', 1)).to.include('31 December 2027 at 23:59 UTC');
    expect(ended('2027-12-31T15:00:00Z', 2)).to.include('2028년 1월 1일 오전 12:00 (한국 시간)');
  });

  it('keep header-breaking characters out of the subject', () => {
    const email = render(EMAIL_KIND.subscriptionEnded, 1, { ...SAMPLES[EMAIL_KIND.subscriptionEnded], platformName: 'Orbit\r\nBcc: victim@example.test' });
    expect(email.subject).to.equal('Your Orbit Bcc: victim@example.test subscription has ended');
  });

  it('refuse missing or malformed data with a validation error naming the field', () => {
    expect(validationError(() => render(EMAIL_KIND.purchasedActiveSubscribe, 1, { orderId: 1, platformName: ' ', endTime: END }))).to.have.property(
      'data.platformName',
    );
    expect(validationError(() => render(EMAIL_KIND.expiryReminder, 1, { ...SAMPLES[EMAIL_KIND.expiryReminder], endTime: 'soon' }))).to.have.property(
      'data.endTime',
    );
    expect(
      validationError(() => render(EMAIL_KIND.subscriptionReplaced, 1, { ...SAMPLES[EMAIL_KIND.subscriptionReplaced], subscriptionId: -1 })),
    ).to.have.property('data.subscriptionId');
    expect(validationError(() => renderEmail({ kind: 99 as EmailKind, languageId: 1, data: {} as never }, CONTEXT))).to.have.property('kind');
  });
});
