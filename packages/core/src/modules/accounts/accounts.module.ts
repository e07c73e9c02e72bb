import { ContainerModule } from 'inversify';
import { PlatformAccountRepository } from './account.repository.js';
import { AccountsService } from './accounts.service.js';
import { MailboxRepository } from './mailbox.repository.js';

export const ACCOUNTS = {
  Service: Symbol.for('subshare.accounts.AccountsService'),
} as const;

export const accountsModule = new ContainerModule(({ bind }) => {
  bind(PlatformAccountRepository).toSelf().inSingletonScope();
  bind(MailboxRepository).toSelf().inSingletonScope();
  bind(AccountsService).toSelf().inSingletonScope();
  bind(ACCOUNTS.Service).toService(AccountsService);
});
