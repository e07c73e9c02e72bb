import { expect } from 'chai';
import { ENGLISH_MESSAGES } from '@subshare/core/validation';
import { refundBody } from '../../packages/core/src/wire/refunds.js';
import { EMPTY_REFUND_FORM, REFUND_LIMITS, refundFormSchema, refundRequest } from '../../packages/web/src/features/admin/refundForm.js';

const OVERRIDE = 'Tick the override.';
const inside = { insideWindow: true, manual: false };
const outside = { insideWindow: false, manual: false };
const manual = { insideWindow: true, manual: true };

const passes = (schema: { isValidSync(value: unknown): boolean }, value: unknown) => schema.isValidSync(value);

/**
 * The admin refund dialog checks what the server's refund call checks (the web imports the wire
 * schemas as types only, so its form writes the limits again): the same texts pass and fail both.
 */
describe('web: the refund form agrees with the refund call', () => {
  const texts = ['', '   ', 'ab', ' ab ', 'abc', '  abc  ', 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(500), 'x'.repeat(501)];

  it('the reason: required, trimmed, 3 to 500 characters, on both sides', () => {
    const form = refundFormSchema(ENGLISH_MESSAGES, inside, OVERRIDE);
    for (const reason of texts) {
      const server = passes(refundBody, { orderId: 1, reason });
      expect(passes(form, { ...EMPTY_REFUND_FORM, reason }), `reason of ${reason.length} characters`).to.equal(server);
    }
    expect(REFUND_LIMITS.reason).to.deep.equal({ min: 3, max: 500 });
  });

  it("CoinPal's transfer reference: required by the form when the refund is manual, 3 to 200 characters as the call allows", () => {
    const form = refundFormSchema(ENGLISH_MESSAGES, manual, OVERRIDE);
    for (const manualReference of texts.filter((value) => value.trim() !== '')) {
      const server = passes(refundBody, { orderId: 1, reason: 'duplicate order', manualReference });
      expect(passes(form, { ...EMPTY_REFUND_FORM, reason: 'duplicate order', manualReference }), `reference of ${manualReference.length}`).to.equal(server);
    }
    // The call leaves it optional (the server asks for it only of a CoinPal payment); the manual form never sends it empty.
    expect(passes(form, { ...EMPTY_REFUND_FORM, reason: 'duplicate order' })).to.equal(false);
    expect(passes(refundFormSchema(ENGLISH_MESSAGES, inside, OVERRIDE), { ...EMPTY_REFUND_FORM, reason: 'duplicate order' })).to.equal(true);
    // Formik hands empty texts to yup as undefined: the reference the form does not show must not block it.
    expect(
      passes(refundFormSchema(ENGLISH_MESSAGES, inside, OVERRIDE), { reason: 'duplicate order', overrideWindow: false, manualReference: undefined }),
    ).to.equal(true);
  });

  it('past the window the override must be ticked, with its own message; inside it nothing is asked', async () => {
    const form = refundFormSchema(ENGLISH_MESSAGES, outside, OVERRIDE);
    const error = await form.validate({ ...EMPTY_REFUND_FORM, reason: 'late claim' }).then(
      () => null,
      (failure: Error) => failure.message,
    );
    expect(error).to.equal(OVERRIDE);
    expect(passes(form, { ...EMPTY_REFUND_FORM, reason: 'late claim', overrideWindow: true })).to.equal(true);
    expect(EMPTY_REFUND_FORM.overrideWindow, 'unchecked by default').to.equal(false);
  });

  it('the request: trimmed texts, the override only past the window, the reference only for a manual refund; the call accepts it', () => {
    const values = { reason: '  buyer asked  ', overrideWindow: true, manualReference: '  tx-0xabc  ' };
    expect(refundRequest(7, values, inside)).to.deep.equal({ orderId: 7, reason: 'buyer asked', overrideWindow: false });
    expect(refundRequest(7, values, outside)).to.deep.equal({ orderId: 7, reason: 'buyer asked', overrideWindow: true });
    expect(refundRequest(7, values, manual)).to.deep.equal({ orderId: 7, reason: 'buyer asked', overrideWindow: false, manualReference: 'tx-0xabc' });
    for (const quote of [inside, outside, manual]) expect(refundBody.validateSync(refundRequest(7, values, quote))).to.include({ orderId: 7 });
  });
});
