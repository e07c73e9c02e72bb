import { ContainerModule } from 'inversify';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

export const auditModule = new ContainerModule(({ bind }) => {
  bind(AuditRepository).toSelf().inSingletonScope();
  bind(AuditService).toSelf().inSingletonScope();
});
