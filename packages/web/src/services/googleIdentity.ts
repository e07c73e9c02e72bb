/**
 * Google Identity Services (the "Sign in with Google" button), loaded on demand: only the
 * login page asks for it, and only when the server has a Google client id. The script comes
 * from Google; the page's Content-Security-Policy must allow accounts.google.com/gsi (script,
 * frame, connect, style) and the Cross-Origin-Opener-Policy must allow its popup.
 */

export const GOOGLE_IDENTITY_SCRIPT = 'https://accounts.google.com/gsi/client';

/** How long the script may take before the button is given up (offline, blocked). */
const LOAD_TIMEOUT_MS = 15_000;

export interface GoogleCredentialResponse {
  /** The ID token (a JWT) the server verifies. */
  credential: string;
  select_by?: string;
}

export interface GoogleButtonOptions {
  type?: 'standard' | 'icon';
  theme?: 'outline' | 'filled_blue' | 'filled_black';
  size?: 'large' | 'medium' | 'small';
  text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
  shape?: 'rectangular' | 'pill' | 'circle' | 'square';
  logo_alignment?: 'left' | 'center';
  /** Pixels; Google accepts 200 to 400 (spec section 9). */
  width?: number;
  locale?: string;
}

export interface GoogleAccountsId {
  initialize(config: {
    client_id: string;
    callback: (response: GoogleCredentialResponse) => void;
    ux_mode?: 'popup' | 'redirect';
    context?: 'signin' | 'signup' | 'use';
    auto_select?: boolean;
    cancel_on_tap_outside?: boolean;
  }): void;
  renderButton(parent: HTMLElement, options: GoogleButtonOptions): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleAccountsId } };
  }
}

let loading: Promise<GoogleAccountsId> | null = null;
let initializedFor: string | null = null;
let credentialHandler: ((credential: string) => void) | null = null;

function loadScript(): Promise<GoogleAccountsId> {
  const ready = window.google?.accounts?.id;
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<GoogleAccountsId>((resolve, reject) => {
    const script = document.createElement('script');
    const fail = (message: string) => {
      window.clearTimeout(timer);
      script.remove();
      loading = null; // a later visit to the page may try again
      reject(new Error(message));
    };
    const timer = window.setTimeout(() => fail('Google Identity Services took too long to load'), LOAD_TIMEOUT_MS);
    script.src = GOOGLE_IDENTITY_SCRIPT;
    script.async = true;
    script.onload = () => {
      const id = window.google?.accounts?.id;
      if (!id) return fail('Google Identity Services loaded without google.accounts.id');
      window.clearTimeout(timer);
      resolve(id);
    };
    script.onerror = () => fail('Google Identity Services could not be loaded');
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * Draws Google's button into `parent`; `onCredential` receives the ID token when the visitor
 * signs in. The library is initialised once per client id; later buttons only swap the handler.
 */
export async function renderGoogleButton(
  parent: HTMLElement,
  clientId: string,
  options: GoogleButtonOptions,
  onCredential: (credential: string) => void,
): Promise<void> {
  const id = await loadScript();
  credentialHandler = onCredential;
  if (initializedFor !== clientId) {
    id.initialize({
      client_id: clientId,
      ux_mode: 'popup',
      context: 'signin',
      callback: (response) => {
        if (response?.credential) credentialHandler?.(response.credential);
      },
    });
    initializedFor = clientId;
  }
  id.renderButton(parent, options);
}

/** Stops routing credentials to a button that is gone. */
export function releaseGoogleButton(onCredential: (credential: string) => void): void {
  if (credentialHandler === onCredential) credentialHandler = null;
}
