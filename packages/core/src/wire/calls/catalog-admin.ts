/** The catalog editor's calls (admins, issue 15; beyond the spec), served by flows/catalog-editor.flow.ts. */
import { declare } from '../declare.js';
import * as catalogAdmin from '../catalog-admin.js';
import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoType } from '../../validation/catalog.js';

const EDITOR = 'core/src/flows/catalog-editor.flow.ts';
/** The editor saves a whole platform (texts in two languages). */
export const CATALOG_BODY_LIMIT = 256 * 1024;
const CONFLICT =
  'A stale `version` answers 409 `catalog_conflict` with `version` (the saved one), `fields` (what the saves since that version changed) and `current` (the saved platform; the CatalogConflict schema).';

export const listCatalogPlatforms = declare({
  operationId: 'listCatalogPlatforms',
  method: 'get',
  path: '/api/catalog/platforms',
  access: 'admin',
  tag: 'catalog editor',
  extra: true,
  summary: 'Catalog editor: every platform, enabled or not, with its state',
  answer: catalogAdmin.platformListAnswer,
  errors: [],
  servedBy: EDITOR,
});

export const getCatalogPlatform = declare({
  operationId: 'getCatalogPlatform',
  method: 'get',
  path: '/api/catalog/platform',
  access: 'admin',
  tag: 'catalog editor',
  extra: true,
  summary: 'Catalog editor: one platform as the editor edits it (both languages, prices in minor units)',
  description: '404 `platform_not_found`.',
  query: catalogAdmin.platformIdQuery,
  answer: catalogAdmin.editablePlatform,
  errors: ['platform_not_found'],
  servedBy: EDITOR,
});

export const createPlatform = declare({
  operationId: 'createPlatform',
  method: 'post',
  path: '/api/catalog/createplatform',
  access: 'admin',
  tag: 'catalog editor',
  extra: true,
  summary: 'Catalog editor: create a platform',
  description: 'Audited as `catalog.platform_create`. Body limit 256 KiB.',
  body: catalogAdmin.createPlatformBody,
  bodyLimit: CATALOG_BODY_LIMIT,
  answer: catalogAdmin.editablePlatform,
  errors: ['nothing_on_sale', 'duplicate', 'payload_too_large'],
  servedBy: EDITOR,
});

export const updatePlatform = declare({
  operationId: 'updatePlatform',
  method: 'post',
  path: '/api/catalog/updateplatform',
  access: 'admin',
  tag: 'catalog editor',
  extra: true,
  summary: 'Catalog editor: save a platform (the whole editable platform with the version it was read at)',
  description: `${CONFLICT} A duration or type that orders name cannot be left out (409 \`option_has_orders\`): disable it. Audited as \`catalog.platform_update\` with before and after. Body limit 256 KiB.`,
  body: catalogAdmin.updatePlatformBody,
  bodyLimit: CATALOG_BODY_LIMIT,
  answer: catalogAdmin.editablePlatform,
  errors: ['platform_not_found', 'catalog_conflict', 'option_has_orders', 'nothing_on_sale', 'duplicate', 'payload_too_large'],
  servedBy: EDITOR,
});

export const setPlatformEnabled = declare({
  operationId: 'setPlatformEnabled',
  method: 'post',
  path: '/api/catalog/setenabled',
  access: 'admin',
  tag: 'catalog editor',
  extra: true,
  summary: 'Catalog editor: show or hide a whole platform',
  description: `${CONFLICT} Showing a platform without an enabled duration and type answers 400 \`nothing_on_sale\`. Audited as \`catalog.platform_enable\`.`,
  body: catalogAdmin.setEnabledBody,
  answer: catalogAdmin.editablePlatform,
  errors: ['platform_not_found', 'catalog_conflict', 'nothing_on_sale'],
  servedBy: EDITOR,
});

export const uploadLogo = declare({
  operationId: 'uploadLogo',
  method: 'post',
  path: '/api/catalog/uploadlogo',
  access: 'admin',
  tag: 'catalog editor',
  extra: true,
  summary: 'Catalog editor: upload a logo (the raw file as the body)',
  description:
    'The body is the file itself with `Content-Type: image/svg+xml`, `image/png` or `image/webp`, at most 256 KiB (413 above). The type is checked from the bytes (400 `upload_type_mismatch` when they are another type); an SVG is rewritten from an allowlist (no scripts, event handlers, foreignObject or external links; `sanitized` says whether anything was removed). Answers the URL to put in `logoBase` or `logoCarousel`: `/media/uploads/<sha256>.<ext>`, served by every process with immutable caching. Audited as `catalog.logo_upload`.',
  rawBody: { types: Object.keys(LOGO_TYPES) as LogoType[], signature: "None: an admin's bearer token." },
  bodyLimit: LOGO_MAX_BYTES,
  answer: catalogAdmin.uploadAnswer,
  errors: ['upload_empty', 'upload_too_large', 'upload_type_unsupported', 'upload_type_mismatch', 'svg_invalid', 'payload_too_large'],
  servedBy: EDITOR,
});
