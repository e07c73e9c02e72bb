import { ContainerModule } from 'inversify';
import type { AppConfig } from '../../shared/config.js';
import { TOKENS } from '../../shared/tokens.js';
import { ImapFlowMailSource } from './imapflow-mail-source.js';
import { AuthservMailAuthenticator, DkimMailAuthenticator } from './mail-authentication.js';
import { MailboxBoardRepository } from './mailbox-board.repository.js';
import { MailboxReaderService } from './mailbox-reader.service.js';
import { MAILBOX_SOURCE } from './tokens.js';

export const mailboxesModule = new ContainerModule(({ bind }) => {
  bind(MAILBOX_SOURCE)
    .toDynamicValue((context) => {
      const { mailbox } = context.get<AppConfig>(TOKENS.Config);
      if (!mailbox.imap) return null;
      const authenticator = mailbox.authservId ? new AuthservMailAuthenticator(mailbox.authservId) : new DkimMailAuthenticator(mailbox.dnsServers);
      return new ImapFlowMailSource({ ...mailbox.imap, timeoutMs: mailbox.imapTimeoutMs }, authenticator);
    })
    .inSingletonScope();
  bind(MailboxBoardRepository).toSelf().inSingletonScope();
  bind(MailboxReaderService).toSelf().inSingletonScope();
});
