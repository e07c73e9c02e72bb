export { ApiError, NETWORK_ERROR, apiDownload, apiGet, apiPost, configureApi, isTemporaryFailure } from './client';
export type { ApiErrorCode, ApiHooks, DownloadedFile, QueryParams, RequestOptions } from './client';
export * as mainApi from './main';
export * as platformApi from './platform';
export * as userApi from './user';
export type * from './types';
