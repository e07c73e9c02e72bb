export { auditModule } from './audit.module.js';
export { AuditService, type AuditActor, type AuditEntry, type AuditRecord, type AuditPage } from './audit.service.js';
