/**
 * The catalog editor's calls (admins, issue 15; beyond the spec). The handlers are one flow call
 * each (flows/catalog-editor.flow.ts); a stale version is answered here as 409
 * `catalog_conflict` with the saved platform, so the second admin sees what changed.
 */
import type { Response } from 'express';
import type { Container } from 'inversify';
import { CatalogConflictError, FLOWS, LOGO_MAX_BYTES, LOGO_TYPES, type CatalogEditorFlow, type EditablePlatformView } from '@subshare/core';
import * as wire from '@subshare/core/wire';
import { auditActor } from '../middleware/auth.js';
import { call, type Call } from './call.js';

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

const CONFLICT =
  'A stale `version` answers 409 `catalog_conflict` with `version` (the saved one), `fields` (what the saves since that version changed) and `current` (the saved platform; the CatalogConflict schema).';

export function catalogAdminCalls(container: Container): Call[] {
  const editor = container.get<CatalogEditorFlow>(FLOWS.CatalogEditor);
  return [
    call({
      method: 'get',
      path: '/api/catalog/platforms',
      access: 'admin',
      tag: 'catalog',
      extra: true,
      summary: 'Catalog editor: every platform, enabled or not, with its state',
      answer: wire.catalogAdmin.platformListAnswer,
      handler: async () =>
        (await editor.list()).map((platform) => ({ ...platform, category: platform.category as 0 | 1 | 8, updatedAt: platform.updatedAt.toISOString() })),
    }),
    call({
      method: 'get',
      path: '/api/catalog/platform',
      access: 'admin',
      tag: 'catalog',
      extra: true,
      summary: 'Catalog editor: one platform as the editor edits it (both languages, prices in minor units)',
      description: '404 `platform_not_found`.',
      query: wire.catalogAdmin.platformIdQuery,
      answer: wire.catalogAdmin.editablePlatform,
      handler: async ({ query }) => serialize(await editor.get(query.id)),
    }),
    call({
      method: 'post',
      path: '/api/catalog/createplatform',
      access: 'admin',
      tag: 'catalog',
      extra: true,
      summary: 'Catalog editor: create a platform',
      description: 'Audited as `catalog.platform_create`. Body limit 256 KiB.',
      body: wire.catalogAdmin.createPlatformBody,
      answer: wire.catalogAdmin.editablePlatform,
      handler: async ({ body, req, res }) => serialize(await editor.create(auditActor(req, res), body)),
    }),
    call({
      method: 'post',
      path: '/api/catalog/updateplatform',
      access: 'admin',
      tag: 'catalog',
      extra: true,
      summary: 'Catalog editor: save a platform (the whole editable platform with the version it was read at)',
      description: `${CONFLICT} A duration or type that orders name cannot be left out (409 \`option_has_orders\`): disable it. Audited as \`catalog.platform_update\` with before and after. Body limit 256 KiB.`,
      body: wire.catalogAdmin.updatePlatformBody,
      answer: wire.catalogAdmin.editablePlatform,
      handler: ({ body, req, res }) => answeringConflict(res, () => editor.update(auditActor(req, res), body)),
    }),
    call({
      method: 'post',
      path: '/api/catalog/setenabled',
      access: 'admin',
      tag: 'catalog',
      extra: true,
      summary: 'Catalog editor: show or hide a whole platform',
      description: `${CONFLICT} Showing a platform without an enabled duration and type answers 400 \`nothing_on_sale\`. Audited as \`catalog.platform_enable\`.`,
      body: wire.catalogAdmin.setEnabledBody,
      answer: wire.catalogAdmin.editablePlatform,
      handler: ({ body, req, res }) => answeringConflict(res, () => editor.setEnabled(auditActor(req, res), body)),
    }),
    call({
      method: 'post',
      path: '/api/catalog/uploadlogo',
      access: 'admin',
      tag: 'catalog',
      extra: true,
      stage: 'raw-body',
      rawBodyLimit: LOGO_MAX_BYTES,
      rawBodyTypes: Object.keys(LOGO_TYPES),
      summary: 'Catalog editor: upload a logo (the raw file as the body)',
      description:
        'The body is the file itself with `Content-Type: image/svg+xml`, `image/png` or `image/webp`, at most 256 KiB (413 above). The type is checked from the bytes (400 `upload_type_mismatch` when they are another type); an SVG is rewritten from an allowlist (no scripts, event handlers, foreignObject or external links; `sanitized` says whether anything was removed). Answers the URL to put in `logoBase` or `logoCarousel`: `/media/uploads/<sha256>.<ext>`, served by every process with immutable caching. Audited as `catalog.logo_upload`.',
      answer: wire.catalogAdmin.uploadAnswer,
      handler: ({ req, res }) => editor.uploadLogo(auditActor(req, res), Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.headers['content-type']),
    }),
  ];
}
