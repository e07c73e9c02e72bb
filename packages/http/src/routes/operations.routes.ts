/**
 * Operations calls: the health report, and this API's own description (generated from the
 * route table it belongs to, once per process).
 */
import type { Container } from 'inversify';
import { OPERATIONS, TOKENS, type AppConfig, type OperationsService } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { openApiDocument } from '../openapi/document.js';
import { cachedJson, sendCachedJson, type CachedJson } from '../serializers/cached-json.js';
import { call, type Call } from './call.js';

export function operationsCalls(container: Container, table: () => Call[]): Call[] {
  const operations = container.get<OperationsService>(OPERATIONS.Service);
  const publicUrl = container.get<AppConfig>(TOKENS.Config).publicUrl;
  let document: CachedJson | undefined;
  return [
    call({
      method: 'get',
      path: '/api/health',
      access: 'public',
      tag: 'operations',
      summary: 'Whether the shop can serve',
      description: "503 with the same report when the database is down; `down` names the parts that cannot serve (`['database']`).",
      extra: true,
      answer: wire.operations.healthAnswer,
      handler: async ({ res }) => {
        const report = await operations.health();
        res.status(report.database === 'ok' ? 200 : 503);
        return report;
      },
    }),
    call({
      method: 'get',
      path: '/api/openapi.json',
      access: 'public',
      tag: 'operations',
      summary: 'This description (OpenAPI 3.1)',
      extra: true,
      answer: wire.operations.openApiAnswer,
      // Serialized and compressed once, with an ETag, as the catalog reads are.
      handler: ({ req, res }) => {
        document ??= cachedJson(openApiDocument(publicUrl, table()));
        res.setHeader('Cache-Control', 'public, max-age=300');
        sendCachedJson(req, res, document);
      },
    }),
  ];
}
