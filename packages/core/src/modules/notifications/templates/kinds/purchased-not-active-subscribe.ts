/** 2 purchasedNotActiveSubscribe: paid; the subscription is activated within the promised hours. */
import { ACTIVATION_HOURS } from '../../../../promises/index.js';
import { EMAIL_KIND } from '../../email-kinds.js';
import { emailTemplate, facts, panelButton, paragraph, priceFacts, rows } from '../parts.js';

const en = {
  subject: (order: string) => `We received your order #${order}: activation within ${ACTIVATION_HOURS} hours`,
  preheader: 'We will e-mail you again as soon as it is active.',
  heading: (platform: string) => `Thank you! Your ${platform} subscription is being prepared`,
  paid: `We received your payment. Your subscription will be activated within ${ACTIVATION_HOURS} hours, and we will e-mail you again as soon as it is active.`,
  invitation: (platform: string) =>
    `${platform} works with a family-group invitation. Please enter your ${platform} login e-mail in your panel now. It must be the e-mail you will use to join the family group; otherwise you may be removed from the family membership.`,
};

const ko: typeof en = {
  subject: (order) => `주문 #${order} 결제 완료: ${ACTIVATION_HOURS}시간 이내에 활성화됩니다`,
  preheader: '활성화되면 이메일로 바로 알려 드릴게요.',
  heading: (platform) => `결제해 주셔서 감사합니다! ${platform} 구독을 준비하고 있어요`,
  paid: `결제가 확인되었습니다. 구독은 ${ACTIVATION_HOURS}시간 이내에 활성화되며, 활성화되는 즉시 이메일로 다시 알려 드리겠습니다.`,
  invitation: (platform) =>
    `이 플랫폼은 패밀리 그룹 초대 방식으로 이용합니다. 지금 내 구독 페이지에서 ${platform} 로그인 이메일을 입력해 주세요. 패밀리 그룹 가입에 사용할 이메일과 같아야 하며, 다를 경우 패밀리 멤버십에서 제외될 수 있습니다.`,
};

export const purchasedNotActiveSubscribe = emailTemplate(EMAIL_KIND.purchasedNotActiveSubscribe, { en, ko }, (data, t, w) => {
  const platform = t.text(data.platformName, 'platformName');
  const order = t.id(data.orderId, 'orderId');
  return {
    subject: w.subject(order),
    preheader: w.preheader,
    heading: w.heading(platform),
    blocks: [
      paragraph(w.paid),
      ...(data.needsInvitation ? [paragraph(w.invitation(platform))] : []),
      facts(rows.order(t, order), rows.platform(t, platform)),
      ...priceFacts(t, data.price),
      panelButton(t, data.panelUrl),
    ],
  };
});
