/** 14 renewalProviderError, to staff alert addresses, once per charge: the provider failed a renewal charge for a reason other than the card. */
import { EMAIL_KIND } from '../../email-kinds.js';
import { EMAIL_PAGES } from '../links.js';
import { button, emailTemplate, facts, paragraph } from '../parts.js';

const en = {
  subject: (subscription: string) => `Renewal charge failed at the payment provider: subscription #${subscription}`,
  heading: 'A renewal charge failed at the payment provider',
  noAnswer: 'no answer',
  shopError: (subscription: string) =>
    `The automatic renewal charge of subscription #${subscription} failed in the shop itself: an error of ours while the charge was sent or recorded (see the logs). If the provider charged the card, the next attempt asks it first and the renewal is paid by that charge; it is never charged twice. The buyer was not told it was declined. The slot is held and the charge is tried again on the dunning schedule; after the last attempt the buyer gets a payment link.`,
  providerError: (subscription: string) =>
    `The automatic renewal charge of subscription #${subscription} failed for a reason other than the card: the payment provider refused our request, failed, limited our rate or did not answer. Nobody was charged and the buyer was not told it was declined. The slot is held and the charge is tried again on the dunning schedule; after the last attempt the buyer gets a payment link.`,
  labels: { attempt: 'Attempt', answer: 'Answer', error: 'Error', message: 'Message', requestId: 'Request id', at: 'At' },
  attempt: (attempt: number, of: number) => `${attempt} of ${of}`,
  none: 'none',
  only: "This is the only e-mail about this charge. Later attempts show among the dashboard's failed renewals.",
  dashboard: 'Open the dashboard',
};

const ko: typeof en = {
  subject: (subscription) => `결제 대행사 오류로 자동 연장 결제 실패: 구독 #${subscription}`,
  heading: '결제 대행사에서 자동 연장 결제가 실패했습니다',
  noAnswer: '응답 없음',
  shopError: (subscription) =>
    `구독 #${subscription}의 자동 연장 결제가 쇼핑몰 내부 오류로 실패했습니다. 결제를 보내거나 기록하는 중에 저희 쪽 오류가 났습니다(로그를 확인해 주세요). 결제 대행사가 카드를 결제했다면 다음 시도에서 먼저 그 결과를 확인하여 그 결제로 연장하며, 두 번 결제하지 않습니다. 구매자에게 거절 안내를 보내지 않았습니다. 자리는 보관되고 정해진 일정에 따라 다시 결제를 시도하며, 마지막 시도 후에는 구매자에게 결제 링크를 보냅니다.`,
  providerError: (subscription) =>
    `구독 #${subscription}의 자동 연장 결제가 카드가 아닌 다른 이유로 실패했습니다. 결제 대행사가 요청을 거부했거나, 오류가 났거나, 요청 한도를 넘었거나, 응답하지 않았습니다. 결제된 금액은 없으며 구매자에게 거절 안내를 보내지 않았습니다. 자리는 보관되고 정해진 일정에 따라 다시 결제를 시도하며, 마지막 시도 후에는 구매자에게 결제 링크를 보냅니다.`,
  labels: { attempt: '시도', answer: '응답', error: '오류', message: '메시지', requestId: '요청 ID', at: '시각' },
  attempt: (attempt, of) => `${attempt} / ${of}`,
  none: '없음',
  only: '이 결제에 대한 이메일은 이것 하나뿐입니다. 이후 시도는 대시보드의 실패한 자동 연장 목록에서 볼 수 있습니다.',
  dashboard: '대시보드 열기',
};

export const renewalProviderError = emailTemplate(EMAIL_KIND.renewalProviderError, { en, ko }, (data, t, w) => {
  const subscription = t.id(data.subscriptionId, 'subscriptionId');
  const message = t.text(data.message, 'message');
  const answer = data.httpStatus > 0 ? `HTTP ${data.httpStatus}` : w.noAnswer;
  const error = `${t.text(data.errorType, 'errorType')}${data.errorCode ? ` / ${t.text(data.errorCode, 'errorCode')}` : ''}`;
  return {
    subject: w.subject(subscription),
    preheader: `${answer}: ${message}`,
    heading: w.heading,
    blocks: [
      paragraph(data.errorType === 'shop_error' ? w.shopError(subscription) : w.providerError(subscription)),
      facts(
        [w.labels.attempt, w.attempt(data.attempt, data.maxAttempts)],
        [w.labels.answer, answer],
        [w.labels.error, error],
        [w.labels.message, message],
        [w.labels.requestId, data.requestId ? t.text(data.requestId, 'requestId') : w.none],
        [w.labels.at, t.date(data.at, 'at')],
      ),
      paragraph(w.only),
      button(w.dashboard, t.page(EMAIL_PAGES.dashboard(), data.adminUrl)),
    ],
  };
});
