/**
 * The checkout chunk: /payment, /paymentresult and /payssionpaymentresult, loaded with one of
 * them and never before, so the storefront's first download carries none of it. Loading it
 * adds the checkout slice to the store (slice.ts) and starts the checkout saga.
 */
import { injectSaga } from '../../../app/sagaInjector';
import { checkoutSaga } from '../saga';

injectSaga('checkout', checkoutSaga);

export { default as PaymentPage } from './PaymentPage';
export { default as PaymentResultPage } from './PaymentResultPage';
export { default as PayssionResultPage } from './PayssionResultPage';
