/** 4 trustPilotInvite: a request for a review on Trustpilot. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { EMAIL_PAGES, trustpilotReviewUrl } from '../links.js';
import { button, emailTemplate, paragraph } from '../parts.js';

const en = {
  subject: (brand: string) => `How was your experience with ${brand}?`,
  preheader: 'A short review takes about a minute.',
  heading: 'Would you share your experience?',
  hello: (name: string | undefined) => (name ? `Hello ${name},` : 'Hello,'),
  ask: (brand: string) =>
    `Thank you for choosing ${brand}. A short review on Trustpilot helps other buyers decide, and tells us what to improve. It takes about a minute.`,
  review: 'Write a review on Trustpilot',
};

const ko: typeof en = {
  subject: (brand) => `${brand} 이용은 만족스러우셨나요?`,
  preheader: '짧은 후기는 1분이면 충분해요.',
  heading: '이용 후기를 남겨 주시겠어요?',
  hello: (name) => (name ? `${name}님, 안녕하세요.` : '안녕하세요.'),
  ask: () =>
    '저희 서비스를 이용해 주셔서 감사합니다. 트러스트파일럿(Trustpilot)에 짧은 후기를 남겨 주시면 다른 구매자분들께 큰 도움이 되고, 서비스를 개선하는 데에도 소중히 반영하겠습니다. 1분이면 충분해요.',
  review: 'Trustpilot에 후기 남기기',
};

export const trustPilotInvite = emailTemplate(EMAIL_KIND.trustPilotInvite, { en, ko }, (data, t, w) => ({
  subject: w.subject(t.brand),
  preheader: w.preheader,
  heading: w.heading,
  blocks: [
    paragraph(w.hello(t.optionalText(data.name))),
    paragraph(w.ask(t.brand)),
    button(w.review, t.page(EMAIL_PAGES.home(), data.reviewUrl ?? trustpilotReviewUrl(t.publicHost))),
  ],
}));
