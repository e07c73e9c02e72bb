/**
 * Payment calls: starting a checkout with a provider, and asking the provider about an order's
 * payment. Provider notifications (`/api/webhook/*`) carry the provider's own body, read as bytes
 * and checked by its signature: their schemas below describe that body for the document only.
 */
import * as yup from 'yup';
import { REGIONAL_PAYMENT_METHODS } from './enums.js';
import { flag, numberOf, text } from './fields.js';
import { neededId } from './orders.js';

export const orderIdBody = yup.object({ orderId: neededId('orderId') });

/**
 * A checkout's order; `useCredit` (default true): the buyer's credit in the order's currency pays
 * for it first and the provider is asked only for the rest (issue 37); false leaves the credit.
 */
export const checkoutBody = orderIdBody.shape({
  useCredit: yup.boolean().strict().typeError('useCredit must be true or false').optional(),
});

/** A card checkout; `renewAutomatically` (default off) saves the card for automatic renewal (issue 28). */
export const cardCheckoutBody = checkoutBody.shape({
  renewAutomatically: yup.boolean().strict().typeError('renewAutomatically must be true or false').optional(),
});

/** Whether card payments can save the card for automatic renewal here (Stripe configured, or demo mode's demo cards): the payment page's checkbox. */
export const autoRenewAvailability = yup.object({ available: flag() }).meta({ name: 'AutoRenewAvailability' });

/** Payssion's methods: the regional ones of wire/enums.ts (KakaoPay, Samsung Pay, Korean card, bank transfer). */
const pmIdMessage = `pmId must be one of ${REGIONAL_PAYMENT_METHODS.join(', ')}`;
export const payssionCheckoutBody = checkoutBody.shape({
  pmId: numberOf(REGIONAL_PAYMENT_METHODS, pmIdMessage, yup.number().typeError(pmIdMessage)).required('pmId is required'),
});

/** Payssion's return URL carries its order_id, which is our payment reference ("42-7"): it is accepted as the order id too. */
export const checkPayssionBody = yup.object({
  orderId: yup
    .string()
    .trim()
    .required('orderId is required')
    .matches(/^\d{1,12}(-\d{1,12})?$/, 'orderId must be an order id'),
  transactionId: yup.string().trim().max(128),
});

/** The provider's page the buyer is sent to. */
export const checkoutAnswer = yup.object({ url: text() }).meta({ name: 'CheckoutPage' });
/** Whether the order is paid now. */
export const checkPayssionAnswer = flag();
/** Stripe's expected acknowledgement. */
export const stripeAcknowledgement = yup.object({
  received: yup
    .boolean()
    .oneOf([true] as const)
    .defined(),
});

// Provider notifications: what each provider posts (documented; the provider code reads them after the signature check).

/** A Stripe event (JSON), signed in the `Stripe-Signature` header. */
export const stripeEvent = yup.object({
  id: yup.string().required(),
  type: yup.string().required().meta({ description: 'checkout.session.completed, checkout.session.async_payment_succeeded, charge.refunded, …' }),
  data: yup.object({ object: yup.object().required() }).required(),
});

/** A CoinPal notification (form or JSON); `sign` = sha256(secretKey + requestId + merchantNo + orderNo + orderAmount + orderCurrency). */
export const coinpalNotification = yup.object({
  requestId: yup.string().required(),
  merchantNo: yup.string().required(),
  orderNo: yup.string().required(),
  orderAmount: yup.string().required(),
  orderCurrency: yup.string().required(),
  status: yup.string(),
  reference: yup.string(),
  sign: yup.string().required(),
});

/** A Payssion notification (form); `notify_sig` = md5(api_key|pm_id|amount|currency|order_id|state|secret_key). */
export const payssionNotification = yup.object({
  pm_id: yup.string().required(),
  amount: yup.string().required(),
  currency: yup.string().required(),
  order_id: yup.string().required(),
  state: yup.string().required(),
  transaction_id: yup.string(),
  notify_sig: yup.string().required(),
});

/** The demo checkout page's form post: its signed token and the buyer's choice. */
export const demoNotification = yup.object({
  token: yup.string().required(),
  outcome: yup.string().oneOf(['paid', 'cancelled']).required(),
  /** "Renew automatically" only: the demo card saved, by its last four digits (4242 pays every renewal, 0002 is declined); default 4242. */
  card: yup.string().oneOf(['4242', '0002']).optional(),
});

export type OrderIdInput = yup.InferType<typeof orderIdBody>;
export type CheckoutInput = yup.InferType<typeof checkoutBody>;
export type CardCheckoutInput = yup.InferType<typeof cardCheckoutBody>;
export type PayssionCheckoutInput = yup.InferType<typeof payssionCheckoutBody>;
export type CheckPayssionInput = yup.InferType<typeof checkPayssionBody>;
export type CheckoutAnswer = yup.InferType<typeof checkoutAnswer>;
