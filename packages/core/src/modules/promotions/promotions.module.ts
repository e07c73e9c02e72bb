import { ContainerModule } from 'inversify';
import { PromoCodeRepository } from './promo-code.repository.js';
import { PromotionsService } from './promotions.service.js';

export const promotionsModule = new ContainerModule(({ bind }) => {
  bind(PromoCodeRepository).toSelf().inSingletonScope();
  bind(PromotionsService).toSelf().inSingletonScope();
});
