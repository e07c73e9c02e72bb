/**
 * The catalog editor's calls (admins, issue 15): every platform, one platform as the editor
 * edits it (texts in English and Korean, prices in integer minor units), create, update with a
 * version check (409 `catalog_conflict` with what changed), show or hide, and the logo upload.
 * Types from `@subshare/core/wire` (catalog-admin.ts). Imported by the admin chunk only.
 */
import type { catalogAdmin } from '@subshare/core/wire';
import { callApi, uploadApi } from './calls';

export type EditablePlatform = catalogAdmin.EditablePlatform;
export type CatalogListItem = catalogAdmin.PlatformListItem;
export type CreatePlatformBody = catalogAdmin.CreatePlatformBody;
export type UpdatePlatformBody = catalogAdmin.UpdatePlatformBody;
export type CatalogConflict = catalogAdmin.CatalogConflictAnswer;
export type UploadAnswer = catalogAdmin.UploadAnswer;

export function getCatalogPlatforms(): Promise<CatalogListItem[]> {
  return callApi('listCatalogPlatforms', {});
}

export function getCatalogPlatform(id: number): Promise<EditablePlatform> {
  return callApi('getCatalogPlatform', { query: { id } });
}

export function createPlatform(body: CreatePlatformBody): Promise<EditablePlatform> {
  return callApi('createPlatform', { body });
}

/** A stale `version` answers 409 `catalog_conflict` (`CatalogConflict` in the error's body). */
export function updatePlatform(body: UpdatePlatformBody): Promise<EditablePlatform> {
  return callApi('updatePlatform', { body });
}

export function setPlatformEnabled(body: catalogAdmin.SetEnabledBody): Promise<unknown> {
  return callApi('setPlatformEnabled', { body });
}

/** The file as the request's body, with its own Content-Type (SVG, PNG or WebP). */
export function uploadLogo(file: Blob): Promise<UploadAnswer> {
  return uploadApi('uploadLogo', file);
}
