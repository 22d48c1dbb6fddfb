/**
 * The Content-Security-Policy sent with every app:// response. A header (not a meta tag) so it
 * holds even for a page whose markup was tampered with. 'unsafe-inline' styles are Monaco's
 * (it sets style attributes); scripts stay 'self' only, and blob: workers are Monaco's workers.
 * The renderer talks to the engine over IPC here, so connect-src needs nothing beyond 'self'.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers on every app:// response, success or refusal. */
export function securityHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": APP_CSP,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
  };
}
