export { AUDIT, auditModule } from './audit.module.js';
export type { AuditService, AuditActor, AuditEntry, AuditRecord, AuditPage } from './audit.service.js';
