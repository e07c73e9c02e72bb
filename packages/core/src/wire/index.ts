/**
 * What crosses the wire, described once: every call's input (query or body) and answer as yup
 * schemas, one file per area; every call declared (`calls/`: method, path, access, schemas,
 * error codes, operationId); the error dictionary (`errors.ts`); the server-rendering contract
 * (`ssr.ts`). The HTTP server binds handlers to the declarations and derives the OpenAPI document
 * from them; core services take the inferred types; the web's client is typed from them. Pure yup
 * and data: no Node or browser APIs.
 */
export * as fields from './fields.js';
export * as catalog from './catalog.js';
export * as catalogAdmin from './catalog-admin.js';
export * as account from './account.js';
export * as operations from './operations.js';
export * as orders from './orders.js';
export * as payments from './payments.js';
export * as staff from './staff.js';
export * as panel from './panel.js';
export * as referrals from './referrals.js';
export * as subscriptions from './subscriptions.js';
export * as email from './email.js';
export * as refunds from './refunds.js';
export * as accountHealth from './account-health.js';
export * as problemReports from './problem-reports.js';
export * as renewals from './renewals.js';
export * as promotions from './promotions.js';
export * as errors from './errors.js';
export { ERRORS, HTTP_ERROR_CODES, errorMessage, isErrorCode, type ErrorCode, type ErrorParams, type HttpErrorCode } from './errors.js';
export * as calls from './calls/index.js';
export { DECLARATIONS } from './calls/index.js';
export * from './declare.js';
export * as ssr from './ssr.js';
