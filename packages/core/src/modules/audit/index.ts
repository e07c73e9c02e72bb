export { AUDIT, auditModule } from './audit.module.js';
export type { AuditService, AuditActor, AuditEntry, AuditRecord } from './audit.service.js';
