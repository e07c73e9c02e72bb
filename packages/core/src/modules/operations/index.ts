export { OPERATIONS, operationsModule, OPERATIONS_QUEUES } from './operations.module.js';
export type { OperationsService, HealthReport, Readiness } from './operations.service.js';
