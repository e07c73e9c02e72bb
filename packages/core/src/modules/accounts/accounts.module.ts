import { ContainerModule } from 'inversify';
import { PlatformAccountRepository } from './account.repository.js';
import { AccountsService } from './accounts.service.js';
import { AccountHealthRepository } from './account-health.repository.js';
import { AccountHealthService } from './account-health.service.js';
import { AccountVoicesRepository } from './account-voices.repository.js';
import { AccountVoicesService } from './account-voices.service.js';
import { MailboxRepository } from './mailbox.repository.js';

export const accountsModule = new ContainerModule(({ bind }) => {
  bind(PlatformAccountRepository).toSelf().inSingletonScope();
  bind(MailboxRepository).toSelf().inSingletonScope();
  bind(AccountsService).toSelf().inSingletonScope();
  bind(AccountHealthRepository).toSelf().inSingletonScope();
  bind(AccountHealthService).toSelf().inSingletonScope();
  bind(AccountVoicesRepository).toSelf().inSingletonScope();
  bind(AccountVoicesService).toSelf().inSingletonScope();
});
