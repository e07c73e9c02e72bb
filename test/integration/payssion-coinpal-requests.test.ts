/**
 * Every request the shop sends to Payssion and CoinPal is one they document (issue 34, item 1):
 * each is checked against the provider's reference for its endpoint (test/support/provider-references.ts,
 * written from the documents protocols.md cites), and the local servers refuse what the real ones
 * refuse: a missing parameter, a parameter outside the reference, a bad signature. Stripe's
 * counterpart is stripe-requests.test.ts.
 */
import { expect } from 'chai';
import { money } from '../../packages/core/src/shared/money.js';
import { CoinPalProvider } from '../../packages/core/src/modules/payments/providers/coinpal.js';
import { PayssionProvider } from '../../packages/core/src/modules/payments/providers/payssion.js';
import type { PaymentMethodId } from '../../packages/core/src/modules/payments/providers/provider.js';
import { FakeCoinPal } from '../support/fake-coinpal.js';
import { FakePayssion } from '../support/fake-payssion.js';
import { COINPAL_REFERENCE, PAYSSION_REFERENCE, referenceProblems, type EndpointReference } from '../support/provider-references.js';
import { checkoutRequest } from './adapter-requests.js';

interface Logged {
  path: string;
  contentType: string;
  params: Record<string, string>;
}

/** Each logged request that is not its endpoint's documented request, with what is wrong. */
function offReference(log: Logged[], references: Record<string, EndpointReference>, prefix: string, secret: string) {
  return log
    .map((entry) => {
      const endpoint = entry.path.slice(prefix.length);
      const reference = Object.hasOwn(references, endpoint) ? references[endpoint] : undefined;
      const problems = reference ? referenceProblems(reference, entry.params, secret) : ['an endpoint the reference does not have'];
      if (!/^application\/x-www-form-urlencoded/.test(entry.contentType)) problems.push(`sent as ${entry.contentType}`);
      return { request: entry.path, problems };
    })
    .filter((entry) => entry.problems.length > 0);
}

/** POSTs a form as the adapters do; answers the provider's JSON. */
async function post(url: string, form: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.status).to.equal(200); // both answer their errors with HTTP 200 and a code in the body
  return (await response.json()) as Record<string, unknown>;
}

/** The ways a documented request can be spoiled: each required parameter left out, an unknown one added, the signature changed. */
function spoiled(reference: EndpointReference, params: Record<string, string>): Array<[string, Record<string, string>]> {
  const variants: Array<[string, Record<string, string>]> = reference.required.map((name) => {
    const { [name]: _left, ...rest } = params;
    return [`without ${name}`, rest];
  });
  variants.push(['with an unknown parameter', { ...params, payment_hint: 'x' }]);
  const signature = reference.signature?.field;
  if (signature) variants.push([`with a bad ${signature}`, { ...params, [signature]: params[signature].replace(/^./, (c) => (c === '0' ? '1' : '0')) }]);
  return variants;
}

describe('Payssion and CoinPal requests as their documents describe them', function () {
  describe('Payssion', function () {
    const fake = new FakePayssion();
    let payssion: PayssionProvider;
    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => {
      payssion = new PayssionProvider({ apiKey: fake.apiKey, secretKey: fake.secretKey, apiBase: fake.apiBase, timeoutMs: 1000 });
    });

    /** Every Payssion call of the adapter: a checkout of each Korean method, its status (by transaction id and by order id alone), a refund. */
    async function everyCall() {
      const start = fake.log.length;
      const paid: Array<{ reference: string; providerReference: string }> = [];
      for (const method of [3, 4, 5, 6] as PaymentMethodId[]) {
        const request = checkoutRequest({ method, notifyUrl: 'http://shop.test/api/webhook/payssion', successUrl: 'http://shop.test/payssionpaymentresult' });
        const { providerReference } = await payssion.createCheckout(request);
        paid.push({ reference: request.reference, providerReference });
      }
      const [first] = paid;
      fake.setState(first.providerReference, 'completed');
      await payssion.fetchStatus({ reference: first.reference, providerReference: first.providerReference, amount: money(15000, 'KRW') });
      await payssion.fetchStatus({ reference: first.reference, providerReference: null, amount: money(15000, 'KRW') });
      await payssion.refund({
        refundId: 1,
        reference: first.reference,
        providerReference: first.providerReference,
        providerPaymentId: null,
        paid: money(15000, 'KRW'),
        amount: money(5000, 'KRW'),
        reason: 'test',
      });
      return fake.log.slice(start);
    }

    it('every request of every money path is the documented one: its parameters, none else, the documented signature', async function () {
      const sent = await everyCall();
      expect(new Set(sent.map((entry) => entry.path))).to.deep.equal(new Set(Object.keys(PAYSSION_REFERENCE).map((endpoint) => `/api/v1/${endpoint}`)));
      expect(offReference(sent, PAYSSION_REFERENCE, '/api/v1/', fake.secretKey)).to.deep.equal([]);
    });

    it('the local Payssion refuses each request without a required parameter, with an unknown one, or with a bad signature', async function () {
      const sent = await everyCall();
      for (const [endpoint, reference] of Object.entries(PAYSSION_REFERENCE) as Array<[string, EndpointReference]>) {
        const documented = sent.find((entry) => entry.path === `/api/v1/${endpoint}`)!;
        for (const [how, params] of spoiled(reference, documented.params)) {
          const answer = await post(`${fake.apiBase}/${endpoint}`, params);
          expect(answer.result_code, `${endpoint} ${how}`).to.be.oneOf([400, 401, 402]);
        }
      }
      // The reference's own worked example (protocols.md 3.2) comes out of its formula.
      const create = PAYSSION_REFERENCE['payment/create'].signature;
      expect(create.expected({ api_key: 'sandbox_key', pm_id: 'kakaopay_kr', amount: '10000', currency: 'KRW', order_id: 'ORD-1' }, 'sandbox_secret')).to.equal(
        '767edf8f5600e0ee2736803cf6d9c601',
      );
      const details = PAYSSION_REFERENCE['payment/details'].signature;
      expect(details.expected({ api_key: 'sandbox_key', order_id: 'ORD-1' }, 'sandbox_secret')).to.equal('aef85a020f0d32d4b36fc250bb4b5a8e');
    });
  });

  describe('CoinPal', function () {
    const fake = new FakeCoinPal();
    let coinpal: CoinPalProvider;
    before(() => fake.start());
    after(() => fake.stop());
    beforeEach(() => {
      coinpal = new CoinPalProvider({ merchantNo: fake.merchantNo, secretKey: fake.secretKey, apiBase: fake.baseUrl, timeoutMs: 1000 });
    });

    /** Every CoinPal call of the adapter: a checkout (EUR and KRW) and the status query. */
    async function everyCall() {
      const start = fake.log.length;
      for (const amount of [money(1050, 'EUR'), money(15000, 'KRW')]) {
        const request = checkoutRequest({ method: 2, amount, notifyUrl: 'http://shop.test/api/webhook/coinpal' });
        const { providerReference } = await coinpal.createCheckout(request);
        await coinpal.fetchStatus({ reference: request.reference, providerReference, amount });
      }
      return fake.log.slice(start);
    }

    it('every request is the documented one: its parameters, none else, the documented sign', async function () {
      const sent = await everyCall();
      expect(new Set(sent.map((entry) => entry.path))).to.deep.equal(new Set(Object.keys(COINPAL_REFERENCE).map((endpoint) => `/${endpoint}`)));
      expect(offReference(sent, COINPAL_REFERENCE, '/', fake.secretKey)).to.deep.equal([]);
    });

    it('the local CoinPal refuses each request without a required parameter, with an unknown one, or with a bad sign', async function () {
      const sent = await everyCall();
      for (const [endpoint, reference] of Object.entries(COINPAL_REFERENCE) as Array<[string, EndpointReference]>) {
        const documented = sent.find((entry) => entry.path === `/${endpoint}`)!;
        for (const [how, params] of spoiled(reference, documented.params)) {
          // A fresh requestId each time (CoinPal refuses a repeated one), the sign made again unless it is the sign being spoiled.
          const fresh =
            params.requestId !== undefined && !how.includes('sign') ? { ...params, requestId: `${params.requestId}-${how.length}-${Math.random()}` } : params;
          if (fresh !== params && fresh.sign !== undefined) fresh.sign = COINPAL_REFERENCE['gateway/pay/checkout'].signature.expected(fresh, fake.secretKey);
          const answer = await post(`${fake.baseUrl}/${endpoint}`, fresh);
          expect(answer.respCode, `${endpoint} ${how}`).to.not.equal(200);
        }
      }
      // The worked example of protocols.md 2.3.
      const sign = COINPAL_REFERENCE['gateway/pay/checkout'].signature;
      expect(sign.expected({ requestId: 'REQ123', merchantNo: '100001', orderNo: 'ORD-1', orderAmount: '10000', orderCurrency: 'KRW' }, 'testsecret')).to.equal(
        'f28ce550de31658fa81e66ca4e083666cb79241397ca2609f6e8d3e6fe052e78',
      );
    });
  });
});
