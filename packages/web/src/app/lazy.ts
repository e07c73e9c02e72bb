import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a named export, so several pages can share one chunk (one import() of a
 * barrel file) instead of each page becoming its own request.
 */
export function lazyNamed<Module, Key extends keyof Module>(load: () => Promise<Module>, key: Key) {
  return lazy(async () => ({ default: (await load())[key] as ComponentType }));
}
