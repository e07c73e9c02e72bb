/**
 * Which adapter serves which payment method: Stripe for 1, CoinPal for 2, Payssion for 3 to 6,
 * each only when its keys are configured; otherwise the demo provider serves the method. Whether
 * the demo may serve anything at all (production needs ALLOW_DEMO_PAYMENTS) is the caller's rule:
 * `isDemo(method)` tells it.
 */
import type { AppConfig } from '../../../shared/config.js';
import type { Clock } from '../../../shared/clock.js';
import { CoinPalProvider } from './coinpal.js';
import { DemoProvider } from './demo.js';
import { PayssionProvider } from './payssion.js';
import { PAYMENT_METHOD, PAYMENT_METHOD_IDS } from '../../../wire/enums.js';
import type { PaymentMethodId, PaymentProvider, ProviderName } from './provider.js';
import { StripeProvider } from './stripe.js';

export * from './provider.js';
export {
  StripeProvider,
  type StripeProviderOptions,
  stripeSignature,
  stripeSignatureHeader,
  stripeIdempotencyKey,
  stripeRefundIdempotencyKey,
  STRIPE_PAYMENT_INTENT_EVENTS,
} from './stripe.js';
export { CoinPalProvider, type CoinPalProviderOptions, coinpalSign, coinpalAmount, coinpalStatus } from './coinpal.js';
export {
  PayssionProvider,
  type PayssionProviderOptions,
  PAYSSION_PM_IDS,
  payssionSig,
  payssionCreateSig,
  payssionDetailsSig,
  payssionNotifySig,
  payssionAmount,
  payssionStatus,
  payssionRefundSubject,
} from './payssion.js';
export { DemoProvider, type DemoProviderOptions, type DemoTokenData, type DemoOutcome, readDemoToken, signDemoToken } from './demo.js';

export interface PaymentProviders {
  /** The adapter that serves a method (the demo provider when the method's provider has no keys). */
  forMethod(method: PaymentMethodId): PaymentProvider;
  /** A configured adapter by name (`demo` always exists); undefined for a provider without keys. */
  byName(name: string): PaymentProvider | undefined;
  /** True when the method is served by the demo provider. */
  isDemo(method: PaymentMethodId): boolean;
}

export interface PaymentProvidersOptions {
  /** The shop's external base URL (for the demo checkout page). Default: config.publicUrl. */
  publicUrl?: string;
  /** For CoinPal and Payssion (the Stripe SDK uses its own HTTP client). */
  fetch?: typeof fetch;
  /** Per provider request. Default 10 s. */
  timeoutMs?: number;
  clock?: Clock;
  /** This shop's installation id (stored once in the database), which prefixes Stripe's idempotency keys. */
  installationId?: () => Promise<string>;
}

export type PaymentProvidersConfig = Pick<AppConfig, 'stripe' | 'coinpal' | 'payssion' | 'publicUrl' | 'tokenSecret'>;

export function createPaymentProviders(config: PaymentProvidersConfig, options: PaymentProvidersOptions = {}): PaymentProviders {
  const { fetch, timeoutMs, clock } = options;
  const demo = new DemoProvider({ publicUrl: options.publicUrl ?? config.publicUrl, secret: config.tokenSecret, clock });
  const stripe =
    config.stripe.secretKey && config.stripe.webhookSecret
      ? new StripeProvider({
          secretKey: config.stripe.secretKey,
          webhookSecret: config.stripe.webhookSecret,
          apiBase: config.stripe.apiBase,
          timeoutMs,
          clock,
          installationId: options.installationId,
        })
      : undefined;
  const coinpal =
    config.coinpal.merchantNo && config.coinpal.secretKey
      ? new CoinPalProvider({
          merchantNo: config.coinpal.merchantNo,
          secretKey: config.coinpal.secretKey,
          apiBase: config.coinpal.apiBase,
          fetch,
          timeoutMs,
          clock,
        })
      : undefined;
  const payssion =
    config.payssion.apiKey && config.payssion.secretKey
      ? new PayssionProvider({ apiKey: config.payssion.apiKey, secretKey: config.payssion.secretKey, apiBase: config.payssion.apiBase, fetch, timeoutMs })
      : undefined;

  const real = (method: PaymentMethodId): PaymentProvider | undefined =>
    method === PAYMENT_METHOD.card ? stripe : method === PAYMENT_METHOD.crypto ? coinpal : payssion;
  const named: Record<ProviderName, PaymentProvider | undefined> = { stripe, coinpal, payssion, demo, credit: undefined };

  return {
    forMethod(method) {
      if (!PAYMENT_METHOD_IDS.includes(method)) throw new RangeError(`Unknown payment method ${String(method)}`);
      return real(method) ?? demo;
    },
    byName(name) {
      return Object.hasOwn(named, name) ? named[name as ProviderName] : undefined;
    },
    isDemo(method) {
      if (!PAYMENT_METHOD_IDS.includes(method)) throw new RangeError(`Unknown payment method ${String(method)}`);
      return real(method) === undefined;
    },
  };
}
