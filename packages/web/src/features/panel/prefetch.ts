/**
 * The panel's first request, asked when the route starts (app/routes.tsx: beside the panel's
 * chunk and Chakra's) rather than once both have loaded and the page has mounted; the saga's
 * same request takes its answer (services/api/client.ts `prefetch`). Also asked by
 * app/startPrivatePage.ts as soon as the store exists. Both callers check access first (the route
 * renders only for a visitor RequireAccess lets in). A chunk of its own, so it imports nothing but
 * the API call and the address rule.
 */
import { CARD_RETURN_PARAMS } from '@subshare/core/pages';
import type { RootState } from '../../app/rootReducer';
import { prefetch } from '../../services/api/client';
import { getUserPanel } from '../../services/api/panel';
import { userIdOf } from './format';

export function prefetchPanel(state: RootState, location: { pathname: string; search: string }): void {
  const userId = userIdOf(/^\/user\/([^/]+)/.exec(location.pathname)?.[1]);
  // The saga asks in the resolved interface language; before that, nothing to ask yet.
  if (userId === null || !state.language.resolved) return;
  // Back from saving a card (`cardSaved`), the saga switches renewal on first: an early answer would be from before.
  if (new URLSearchParams(location.search).has(CARD_RETURN_PARAMS.session)) return;
  prefetch(() => void getUserPanel(userId, state.language.languageId));
}
