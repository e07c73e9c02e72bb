import { ContainerModule } from 'inversify';
import { ConsoleMail } from './console-mail.js';
import { Mailer } from './mailer.js';
import { NotificationsService } from './notifications.service.js';
import { OutboxRepository } from './outbox.repository.js';

export const notificationsModule = new ContainerModule(({ bind }) => {
  bind(OutboxRepository).toSelf().inSingletonScope();
  bind(Mailer).toSelf().inSingletonScope();
  bind(ConsoleMail).toSelf().inSingletonScope();
  bind(NotificationsService).toSelf().inSingletonScope();
});
