// One chunk for the checkout pages: none of them is needed to browse the catalog.
export { default as PaymentPage } from './PaymentPage';
export { default as PaymentResultPage } from './PaymentResultPage';
export { default as PayssionResultPage } from './PayssionResultPage';
