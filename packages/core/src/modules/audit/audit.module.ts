import { ContainerModule } from 'inversify';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

export const AUDIT = {
  Service: Symbol.for('subshare.audit.AuditService'),
} as const;

export const auditModule = new ContainerModule(({ bind }) => {
  bind(AuditRepository).toSelf().inSingletonScope();
  bind(AuditService).toSelf().inSingletonScope();
  bind(AUDIT.Service).toService(AuditService);
});
