import { expect } from 'chai';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@subshare/core/validation';
import { actionLabel, describeDetails, targetTypeLabel } from '../../packages/web/src/features/admin/audit/details.js';
import { AUDIT_TEXTS, type AuditTextKey } from '../../packages/web/src/features/admin/audit/texts.js';
import { translate, type TranslateVars } from '../../packages/web/src/features/language/texts.js';

const en = (key: AuditTextKey, vars?: TranslateVars) => translate(AUDIT_TEXTS, 1, key, vars);
const ko = (key: AuditTextKey, vars?: TranslateVars) => translate(AUDIT_TEXTS, 2, key, vars);
const nbsp = (text: string) => text.replace(/\u00a0|\u202f/g, ' ');

/** Issue 24: the audit log shows action labels and formatted details in both languages. */
describe('web: the audit log says what happened in words', () => {
  const refund = {
    orderId: 41,
    refundId: 7,
    provider: 'stripe',
    currency: 'EUR',
    paidMinor: 499,
    feeMinor: 75,
    refundMinor: 424,
    overrideWindow: false,
    windowEndsAt: null,
    reason: 'The buyer could not log in for two days.\nThey asked by e-mail.',
    manualReference: null,
    providerRefundId: 're_1',
  };

  it('labels actions, and shows an unknown one as recorded', () => {
    expect(actionLabel('order.refund', en)).to.equal('Order refunded');
    expect(actionLabel('order.refund', ko)).to.equal('주문 환불');
    expect(actionLabel('user.role', ko)).to.equal('권한 변경');
    expect(actionLabel('something.new', en)).to.equal('something.new');
  });

  it('names every action the server records in both languages, the health and renewal ones too (issue 35)', () => {
    const raw = AUDIT_ACTIONS.flatMap((action) =>
      [en, ko].filter((t) => actionLabel(action, t) === action).map((t) => `${action} (${t === en ? 'en' : 'ko'})`),
    );
    expect(raw).to.deep.equal([]);
    expect(actionLabel('account.problem.report', en)).to.equal("Buyer reported it doesn't work");
    expect(actionLabel('subscription.autorenew', ko)).to.equal('자동 갱신 켜기·끄기');
    expect(actionLabel('account.health.held', ko)).to.equal('계정 고장 처리 보류 (플랫폼 전체 장애)');
    // The objects those actions are about are named too ("platform_account 5" before).
    const rawTypes = AUDIT_TARGET_TYPES.flatMap((type) =>
      [en, ko].filter((t) => targetTypeLabel(type, t) === type).map((t) => `${type} (${t === en ? 'en' : 'ko'})`),
    );
    expect(rawTypes).to.deep.equal([]);
    expect(en('audit.target', { type: targetTypeLabel('platform_account', en), id: '5' })).to.equal('Platform account 5');
    expect(ko('audit.target', { type: targetTypeLabel('subscription', ko), id: '9' })).to.equal('구독 9');
    expect(targetTypeLabel('something', en)).to.equal('something');
  });

  it('shows a refund in its currency, with the reason on its own line', () => {
    const english = describeDetails('order.refund', refund, en, 'en-GB');
    const lines = Object.fromEntries(english.lines.map((line) => [line.label, nbsp(line.value)]));
    expect(lines).to.include({ Order: '41', Paid: '€4.99', Fee: '€0.75', Refunded: '€4.24', Provider: 'stripe', 'Past the refund window': 'no' });
    expect(english.lines.map((line) => line.key)).to.not.include.members(['currency', 'reason']);
    expect(english.reason).to.equal(refund.reason);

    const korean = describeDetails('order.refund', { ...refund, currency: 'KRW', paidMinor: 6900, feeMinor: 800, refundMinor: 6100 }, ko, 'ko-KR');
    const koLines = Object.fromEntries(korean.lines.map((line) => [line.label, nbsp(line.value)]));
    expect(koLines).to.include({ 주문: '41', '결제 금액': '₩6,900', 수수료: '₩800', '환불 금액': '₩6,100' });
    expect(korean.reason).to.equal(refund.reason);
  });

  it('names roles and shown or hidden', () => {
    // In the order jsonb stores the keys (after, before, email), shown in a reading order.
    const role = describeDetails('user.role', { after: 2, before: 1, email: 'a@example.test' }, ko, 'ko-KR');
    expect(role.lines.map((line) => `${line.label}: ${line.value}`)).to.deep.equal(['이메일: a@example.test', '이전 권한: 모더레이터', '현재 권한: 관리자']);
    const shown = describeDetails('catalog.platform_enable', { before: { isEnabled: true, version: 3 }, after: { isEnabled: false, version: 4 } }, en, 'en-GB');
    expect(shown.lines.map((line) => `${line.label}: ${line.value}`)).to.deep.equal(['Before: shown', 'Now: hidden']);
  });
});
