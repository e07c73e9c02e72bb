/**
 * The requests Payssion and CoinPal document, endpoint by endpoint (issue 34, item 1): which
 * parameters each takes (required, optional), and how its signature is made. Written from the
 * providers' own material as /work/shared/reference/protocols.md cites it (sections 2 and 3), each
 * endpoint citing its source below; Stripe's counterpart is stripe-reference.ts.
 *
 * `referenceProblems(endpoint, params, secret)` lists what is wrong with a request by its
 * provider's reference: a required parameter missing, a parameter the reference does not have, a
 * signature that is not the documented formula over the values as sent. The local servers
 * (fake-payssion.ts, fake-coinpal.ts) refuse a request with any of them, as the real ones refuse a
 * missing parameter or a bad signature (Payssion: result_code 400 "invalid parameter", 402
 * "invalid api signature"; CoinPal: a respCode other than 200, "signature verification failed").
 * Neither provider documents how it answers a parameter it does not know: the fakes refuse one too,
 * so that a parameter outside the documented set fails a test instead of reaching a provider that
 * may ignore or refuse it.
 *
 * The signatures are computed here from the formulas, not with the adapters' functions, so a test
 * that compares the two checks the adapters against the documents.
 */
import { createHash } from 'node:crypto';

export interface EndpointReference {
  /** Where the parameter set and the signature formula come from. */
  source: string;
  required: readonly string[];
  optional: readonly string[];
  /** At least one of these must be given (and not empty). */
  oneOf?: readonly string[];
  /** The signature parameter and its value for the request's other values. */
  signature?: { field: string; expected(params: Partial<Record<string, string>>, secret: string): string };
}

const md5 = (parts: Array<string | undefined>) =>
  createHash('md5')
    .update(parts.map((part) => part ?? '').join('|'))
    .digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Payssion (protocols.md section 3): the official PHP SDK https://github.com/payssion/payssion-php
 * (`lib/PayssionClient.php` v1.3.1, `samples/sample_create.php`, `samples/sample_transactiondetails.php`),
 * which follows https://payssion.com/en/docs/; result codes from https://github.com/paragasu/lua-payssion.
 * All calls are form-encoded POSTs to `{base}<endpoint>`.
 */
export const PAYSSION_REFERENCE = {
  /** protocols.md 3.2: `POST {base}payment/create`, `api_sig = md5(api_key|pm_id|amount|currency|order_id|secret_key)`. */
  'payment/create': {
    source: 'https://github.com/payssion/payssion-php lib/PayssionClient.php (create), samples/sample_create.php; https://payssion.com/en/docs/',
    required: ['api_key', 'pm_id', 'amount', 'currency', 'order_id', 'api_sig'],
    optional: ['description', 'return_url', 'notify_url', 'payer_email', 'payer_name', 'payer_ref', 'country'],
    signature: { field: 'api_sig', expected: (p, secret) => md5([p.api_key, p.pm_id, p.amount, p.currency, p.order_id, secret]) },
  },
  /** protocols.md 3.3: `POST {base}payment/details`, `api_sig = md5(api_key|transaction_id|order_id|secret_key)`, both slots kept (the SDK form). */
  'payment/details': {
    source: 'https://github.com/payssion/payssion-php lib/PayssionClient.php (getDetails), samples/sample_transactiondetails.php',
    required: ['api_key', 'api_sig'],
    optional: ['transaction_id', 'order_id'],
    oneOf: ['transaction_id', 'order_id'],
    signature: { field: 'api_sig', expected: (p, secret) => md5([p.api_key, p.transaction_id, p.order_id, secret]) },
  },
  /** protocols.md 3.3 (refund): `POST {base}refunds`, `api_sig = md5(api_key|transaction_id|amount|currency|secret_key)`. */
  refunds: {
    source: 'https://github.com/payssion/payssion-php lib/PayssionClient.php (refund)',
    required: ['api_key', 'transaction_id', 'amount', 'currency', 'api_sig'],
    optional: [],
    signature: { field: 'api_sig', expected: (p, secret) => md5([p.api_key, p.transaction_id, p.amount, p.currency, secret]) },
  },
} as const satisfies Record<string, EndpointReference>;

export type PayssionEndpoint = keyof typeof PAYSSION_REFERENCE;

/**
 * CoinPal (protocols.md section 2): the docs https://gitee.com/coinpal/docs (endpoint and sign
 * formula) and the official PHP SDK https://github.com/coinpal-io/SDK_PHP (`src/Payment.php`,
 * `example/*.php`); optional fields also from the official plugins
 * (https://github.com/coinpal-io/plug_wordpress, plug_magento). Fields seen only in third-party
 * code (`resultNotifyUser`, `unpaidAutoRefund`) are not in the reference.
 */
export const COINPAL_REFERENCE = {
  /** protocols.md 2.2, 2.3: `sign = sha256(secretKey + requestId + merchantNo + orderNo + orderAmount + orderCurrency)`. */
  'gateway/pay/checkout': {
    source: 'https://gitee.com/coinpal/docs README; https://github.com/coinpal-io/SDK_PHP src/Payment.php; official plugins (optional fields)',
    required: ['version', 'requestId', 'merchantNo', 'orderNo', 'orderCurrencyType', 'orderCurrency', 'orderAmount', 'notifyURL', 'payerIP', 'sign'],
    optional: ['merchantName', 'redirectURL', 'orderDescription', 'remark', 'payerEmail', 'successUrl', 'cancelURL', 'storeId'],
    signature: {
      field: 'sign',
      expected: (p, secret) => sha256(secret + ['requestId', 'merchantNo', 'orderNo', 'orderAmount', 'orderCurrency'].map((name) => p[name] ?? '').join('')),
    },
  },
  /** protocols.md 2.8: the official SDK's query sends `gcid` (CoinPal's reference) only, unsigned. */
  'gateway/pay/query': {
    source: 'https://github.com/coinpal-io/SDK_PHP src/Payment.php (query)',
    required: ['gcid'],
    optional: [],
  },
} as const satisfies Record<string, EndpointReference>;

export type CoinPalEndpoint = keyof typeof COINPAL_REFERENCE;

/** What is wrong with a request by its endpoint's reference (empty: it is the documented request). */
export function referenceProblems(reference: EndpointReference, params: Record<string, string>, secret: string): string[] {
  const given = (name: string) => params[name] !== undefined && params[name] !== '';
  const problems: string[] = [];
  for (const name of reference.required) if (!given(name)) problems.push(`missing ${name}`);
  if (reference.oneOf && !reference.oneOf.some(given)) problems.push(`missing one of ${reference.oneOf.join(', ')}`);
  const known = new Set([...reference.required, ...reference.optional]);
  for (const name of Object.keys(params)) if (!known.has(name)) problems.push(`unknown ${name}`);
  const signature = reference.signature;
  if (signature && given(signature.field) && params[signature.field].toLowerCase() !== signature.expected(params, secret)) {
    problems.push(`bad ${signature.field}`);
  }
  return problems;
}
