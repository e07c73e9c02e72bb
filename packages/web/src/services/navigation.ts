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

export function reloadPage(): void {
  window.location.reload();
}

/** Leaves the app for another site (Naver's login page). */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
