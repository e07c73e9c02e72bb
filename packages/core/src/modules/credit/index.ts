export { creditModule } from './credit.module.js';
export { CreditService, type CreditBalance, type CreditLinks } from './credit.service.js';
export { creditStanding, type CreditKind, type CreditRow, type CreditStanding } from './credit-rules.js';
export { CREDIT_QUEUES } from './queues.js';
