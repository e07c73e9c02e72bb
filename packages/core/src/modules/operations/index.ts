export { operationsModule, OPERATIONS_QUEUES } from './operations.module.js';
export { OperationsService, type HealthReport, type Readiness } from './operations.service.js';
