import { ContainerModule } from 'inversify';
import type { Knex } from 'knex';
import type { AppConfig } from '../../shared/config.js';
import type { Clock } from '../../shared/clock.js';
import { TOKENS } from '../../shared/tokens.js';
import { CheckoutClaims } from './checkout-claims.js';
import { installationIdReader } from './installation.js';
import { LedgerService } from './ledger.service.js';
import { MoneyEventRepository } from './money-event.repository.js';
import { PaymentRepository } from './payment.repository.js';
import { PaymentsService } from './payments.service.js';
import { RefundRepository } from './refund.repository.js';
import { RefundsService } from './refunds.service.js';
import { SavedCardsService } from './saved-cards.service.js';
import { createPaymentProviders } from './providers/index.js';
import { PAYMENT_PROVIDERS } from './tokens.js';

export const paymentsModule = new ContainerModule(({ bind }) => {
  bind(PAYMENT_PROVIDERS)
    .toDynamicValue((context) => {
      const config = context.get<AppConfig>(TOKENS.Config);
      return createPaymentProviders(config, {
        publicUrl: config.publicUrl,
        clock: context.get<Clock>(TOKENS.Clock),
        installationId: installationIdReader(context.get<Knex>(TOKENS.Knex)),
      });
    })
    .inSingletonScope();
  bind(PaymentRepository).toSelf().inSingletonScope();
  bind(CheckoutClaims).toSelf().inSingletonScope();
  bind(PaymentsService).toSelf().inSingletonScope();
  bind(MoneyEventRepository).toSelf().inSingletonScope();
  bind(LedgerService).toSelf().inSingletonScope();
  bind(RefundRepository).toSelf().inSingletonScope();
  bind(RefundsService).toSelf().inSingletonScope();
  bind(SavedCardsService).toSelf().inSingletonScope();
});
