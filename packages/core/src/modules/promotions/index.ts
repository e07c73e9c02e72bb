export { promotionsModule } from './promotions.module.js';
export {
  PromotionsService,
  PROMO_GUESS_LIMITS,
  type PromoCodeView,
  type RedeemingOrder,
  type PaidAmong,
  type DiscountMove,
  DiscountMoveNeedsCheckouts,
} from './promotions.service.js';
export { discountFor, normalizeCode, type PromoTerms, type OrderFacts, type PromoRefusal, type DiscountDecision } from './discount-rule.js';
