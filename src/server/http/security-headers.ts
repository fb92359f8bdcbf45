// Security headers for a single-page app, on every response (responses.ts adds them). The CSP
// allows only this origin's own scripts and styles: Vite's production build emits external
// files only (vite.config.ts sets assetsInlineLimit 0, and the module preload helper is
// bundled into the entry), and the query-cache block is `type="application/json"`, data
// rather than script, so it needs no 'unsafe-inline'. Images may come from https: because the
// real service's thumbnails are on i.ytimg.com; the embedded catalogue's come through this
// origin.

/**
 * The policy, allowing also the inline styles of `styleHashes` (CSP hash-sources): an app page
 * carries its stylesheet inline (rendering/inline-styles.ts), and names it so in its own header.
 */
export const contentSecurityPolicy = (
  styleHashes: readonly string[] = [],
  /** Who may frame the page: nobody, except an embed, which any site may (EMBED_FRAMING). */
  frameAncestors = "'none'",
): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes].join(' '),
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `frame-ancestors ${frameAncestors}`,
    "form-action 'self'",
  ].join('; ');

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * An embed (`/embed/…`) is made to be framed by other sites: any ancestor, and no
 * X-Frame-Options (whose DENY old browsers would still obey); the rest of the policy stands.
 */
export const EMBED_FRAMING = { frameAncestors: '*', xFrameOptions: '' } as const;

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  // Links out to the platform need no path or query from here.
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // For browsers that predate frame-ancestors.
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
