// Cloudflare Turnstile, explicit rendering: https://developers.cloudflare.com/turnstile/get-started/client-side-rendering/
export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
const LOAD_TIMEOUT_MS = 15_000;

export interface TurnstileRenderOptions {
  sitekey: string;
  callback: (token: string) => void;
  'expired-callback'?: () => void;
  'error-callback'?: () => void;
  theme?: 'auto' | 'light' | 'dark';
  language?: string;
}

export interface TurnstileApi {
  render(container: HTMLElement, options: TurnstileRenderOptions): string | null | undefined;
  reset(widgetId?: string): void;
  remove(widgetId?: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

/** Loads the script once, on the first page that needs it; a failed load may be tried again later. */
export function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    const fail = (reason: string) => {
      clearTimeout(timer);
      script.remove();
      loading = null;
      reject(new Error(reason));
    };
    // A blocked host can leave the request hanging instead of failing.
    const timer = setTimeout(() => fail('Turnstile script timed out'), LOAD_TIMEOUT_MS);
    script.addEventListener('load', () => {
      clearTimeout(timer);
      if (window.turnstile) resolve(window.turnstile);
      else fail('Turnstile script loaded without its API');
    });
    script.addEventListener('error', () => fail('Turnstile script failed to load'));
    document.head.appendChild(script);
  });
  return loading;
}
