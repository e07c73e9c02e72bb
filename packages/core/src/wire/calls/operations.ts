/** Operations calls: the health report and this API's own description. */
import { declare } from '../declare.js';
import * as operations from '../operations.js';

export const getHealth = declare({
  operationId: 'getHealth',
  method: 'get',
  path: '/api/health',
  access: 'public',
  tag: 'operations',
  summary: 'Whether the shop can serve',
  description: "503 with the same report when the database is down; `down` names the parts that cannot serve (`['database']`).",
  extra: true,
  answer: operations.healthAnswer,
  errors: [],
  servedBy: 'core/src/modules/operations/operations.service.ts',
});

export const getOpenApi = declare({
  operationId: 'getOpenApi',
  method: 'get',
  path: '/api/openapi.json',
  access: 'public',
  tag: 'operations',
  summary: 'This description (OpenAPI 3.1)',
  extra: true,
  answer: operations.openApiAnswer,
  errors: [],
  servedBy: 'http/src/openapi/document.ts',
});
