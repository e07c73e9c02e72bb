/**
 * Lets sagas change the route without importing the router (which imports every page):
 * the app registers the router's navigate function once at start.
 */
export interface NavigateOptions {
  replace?: boolean;
}

type Navigator = (to: string, options?: NavigateOptions) => void;

let navigator: Navigator = (to) => window.location.assign(to);

export function setNavigator(next: Navigator): void {
  navigator = next;
}

export function navigate(to: string, options?: NavigateOptions): void {
  navigator(to, options);
}

/** The current address without these query parameters ("/platform/1?lang=ko" → "/platform/1"); null when it has none of them. */
export function currentUrlWithout(params: readonly string[]): string | null {
  const url = new URL(window.location.href);
  if (!params.some((param) => url.searchParams.has(param))) return null;
  for (const param of params) url.searchParams.delete(param);
  return url.pathname + url.search + url.hash;
}

/** Reloads the page; dropping query parameters that would override a choice just made (`lang`). */
export function reloadPage(dropParams: readonly string[] = []): void {
  const without = currentUrlWithout(dropParams);
  if (without === null) window.location.reload();
  else window.location.replace(without);
}

/** Leaves the app for another site (Naver's login page). */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
