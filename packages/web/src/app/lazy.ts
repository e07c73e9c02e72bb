import { createElement, lazy, useState, type ComponentType } from 'react';

/** A lazily loaded component that can also be loaded ahead of its first render. */
export type PreloadableComponent<Props extends object> = ComponentType<Props> & { preload(): Promise<void> };

/**
 * React.lazy for a named export, so several pages can share one chunk (one import() of a
 * barrel file) instead of each page becoming its own request.
 *
 * `preload()` fetches the chunk ahead of time; a component whose chunk has arrived renders at
 * once, without suspending. main.tsx uses it so that a pre-rendered page (static pages) is not
 * replaced by the loading fallback while its chunk arrives.
 */
export function lazyNamed<Module, Key extends keyof Module, Props extends object = Record<string, never>>(
  load: () => Promise<Module>,
  key: Key,
): PreloadableComponent<Props> {
  let loaded: ComponentType<Props> | undefined;
  const resolve = async () => (loaded ??= (await load())[key] as ComponentType<Props>);
  const Lazy = lazy(async () => ({ default: await resolve() }));

  function Preloadable(props: Props) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component would remount the page.
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? Lazy);
    return createElement(Component, props);
  }
  Preloadable.preload = async () => {
    await resolve();
  };
  return Preloadable;
}
