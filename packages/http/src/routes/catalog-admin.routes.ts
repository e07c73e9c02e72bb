/**
 * The catalog editor's calls (admins, issue 15; beyond the spec). The handlers are one flow call
 * each (flows/catalog-editor.flow.ts); a stale version is answered here as 409
 * `catalog_conflict` with the saved platform, so the second admin sees what changed.
 */
import type { Response } from 'express';
import type { Container } from 'inversify';
import { CatalogConflictError, CatalogEditorFlow, type EditablePlatformView } from '@subshare/core';
import { calls } from '@subshare/core/wire';
import type * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { bind, type Call } from './call.js';

const serialize = (platform: EditablePlatformView): wire.catalogAdmin.EditablePlatform => ({ ...platform, updatedAt: platform.updatedAt.toISOString() });

/** A stale version: the 409 with what changed; anything else goes on to the error handler. */
async function answeringConflict(res: Response, work: () => Promise<EditablePlatformView>): Promise<wire.catalogAdmin.EditablePlatform | void> {
  try {
    return serialize(await work());
  } catch (error) {
    if (!(error instanceof CatalogConflictError)) throw error;
    const body: wire.catalogAdmin.CatalogConflictAnswer = {
      message: error.message,
      code: 'catalog_conflict',
      version: error.current.version,
      fields: error.fields,
      current: serialize(error.current),
    };
    res.status(409).json(body);
  }
}

export function catalogAdminCalls(container: Container): Call[] {
  const editor = container.get(CatalogEditorFlow);
  return [
    bind(calls.catalogAdmin.listCatalogPlatforms, async () =>
      (await editor.list()).map((platform) => ({ ...platform, updatedAt: platform.updatedAt.toISOString() })),
    ),
    bind(calls.catalogAdmin.getCatalogPlatform, async ({ query }) => serialize(await editor.get(query.id))),
    bind(calls.catalogAdmin.createPlatform, async ({ body, req, res }) => serialize(await editor.create(auditActor(req, res), body))),
    bind(calls.catalogAdmin.updatePlatform, ({ body, req, res }) => answeringConflict(res, () => editor.update(auditActor(req, res), body))),
    bind(calls.catalogAdmin.setPlatformEnabled, ({ body, req, res }) => answeringConflict(res, () => editor.setEnabled(auditActor(req, res), body))),
    bind(calls.catalogAdmin.uploadLogo, ({ req, res }) =>
      editor.uploadLogo(auditActor(req, res), Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.headers['content-type']),
    ),
  ];
}
