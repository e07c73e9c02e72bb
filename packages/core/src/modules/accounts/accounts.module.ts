import { ContainerModule } from 'inversify';
import { PlatformAccountRepository } from './account.repository.js';
import { AccountsService } from './accounts.service.js';
import { AccountHealthRepository } from './account-health.repository.js';
import { AccountHealthService } from './account-health.service.js';
import { AccountVoicesRepository } from './account-voices.repository.js';
import { AccountVoicesService } from './account-voices.service.js';
import { MailboxRepository } from './mailbox.repository.js';

export const ACCOUNTS = {
  Service: Symbol.for('subshare.accounts.AccountsService'),
  Health: Symbol.for('subshare.accounts.AccountHealthService'),
  Voices: Symbol.for('subshare.accounts.AccountVoicesService'),
} as const;

export const accountsModule = new ContainerModule(({ bind }) => {
  bind(PlatformAccountRepository).toSelf().inSingletonScope();
  bind(MailboxRepository).toSelf().inSingletonScope();
  bind(AccountsService).toSelf().inSingletonScope();
  bind(ACCOUNTS.Service).toService(AccountsService);
  bind(AccountHealthRepository).toSelf().inSingletonScope();
  bind(AccountHealthService).toSelf().inSingletonScope();
  bind(ACCOUNTS.Health).toService(AccountHealthService);
  bind(AccountVoicesRepository).toSelf().inSingletonScope();
  bind(AccountVoicesService).toSelf().inSingletonScope();
  bind(ACCOUNTS.Voices).toService(AccountVoicesService);
});
