/**
 * Operations calls: the health report, and this API's own description (generated from the
 * route table it belongs to, once per process).
 */
import type { Container } from 'inversify';
import { TOKENS, type AppConfig, OperationsService } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import { openApiDocument } from '../openapi/document.js';
import { cachedJson, sendCachedJson, type CachedJson } from '../serializers/cached-json.js';
import { bind, type Call } from './call.js';

export function operationsCalls(container: Container, table: () => Call[]): Call[] {
  const operations = container.get(OperationsService);
  const publicUrl = container.get<AppConfig>(TOKENS.Config).publicUrl;
  let document: CachedJson | undefined;
  return [
    bind(calls.operations.getHealth, async ({ res }) => {
      const report = await operations.health();
      res.status(report.database === 'ok' ? 200 : 503);
      return report;
    }),
    // Serialized and compressed once, with an ETag, as the catalog reads are.
    bind(calls.operations.getOpenApi, ({ req, res }) => {
      document ??= cachedJson(openApiDocument(publicUrl, table()));
      res.setHeader('Cache-Control', 'public, max-age=300');
      sendCachedJson(req, res, document);
    }),
  ];
}
