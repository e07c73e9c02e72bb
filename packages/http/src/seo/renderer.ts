/**
 * The web app's server bundle (packages/web/dist-server/entry-server.js, built by `npm run build`
 * with the web app): React renders the storefront pages from the components the browser
 * hydrates. The contract is a wire type (core/src/wire/ssr.ts) both sides use; the bundle is
 * loaded on the first storefront request, never imported at compile time.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import type { ssr } from '@subshare/core/wire';

export type HeadModel = ssr.HeadModel;
export type Lang = ssr.Lang;
export type PageKind = ssr.PageKind;
export type RenderRequest = ssr.RenderRequest;
export type RenderedPage = ssr.RenderedPage;
export type ServerBundle = ssr.ServerBundle;

/**
 * Loads the bundle on first use, once it is there. Once only: its lazy chunks import the entry by
 * its plain URL, so a second copy (a query string to pick up a rebuild) would split React's
 * contexts in two. A rebuilt web app needs a restart of the server, as its assets do.
 */
export function bundleLoader(file: string): () => Promise<ServerBundle | undefined> {
  let loaded: Promise<ServerBundle> | undefined;
  return async () => {
    if (!loaded && !existsSync(file)) return undefined;
    loaded ??= import(pathToFileURL(file).href) as Promise<ServerBundle>;
    return loaded;
  };
}
