// The origin of the absolute URLs in a page (a link preview's og:url, canonical and og:image):
// the configured PUBLIC_URL when there is one, which is the only answer that cannot be
// influenced by the request. Without it, the request's Host; behind a reverse proxy the
// operator trusts (TRUST_PROXY), the X-Forwarded-Host and -Proto that proxy set. A header that
// is not a plausible host[:port] is not used: whatever is echoed into the page must be a host.

export interface PublicOriginOptions {
  /** PUBLIC_URL, already checked and reduced to its origin (config.ts). */
  publicUrl?: string | undefined;
  trustProxy: boolean;
}

/** A name (labels of letters, digits, `-` and `_`), an IPv4 address or a bracketed IPv6 one, and a port. */
const HOST_PATTERN =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]{2,45}\])(?::(\d{1,5}))?$/;

/** Where nothing plausible was said: a page with links to localhost beats one with a stranger's host. */
const FALLBACK_HOST = 'localhost';

/** The host in `value` lower-cased, or null when it does not look like one. */
export function plausibleHost(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const host = value.trim().toLowerCase();
  if (host.length === 0 || host.length > 260) return null;
  const match = HOST_PATTERN.exec(host);
  if (!match) return null;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  return host;
}

/**
 * The value the nearest proxy wrote: a proxy that appends leaves the client's own say-so in
 * front, as for X-Forwarded-For (http/client-address.ts).
 */
function nearest(value: string | null): string | undefined {
  return value?.split(',').at(-1)?.trim();
}

export function publicOrigin(request: Request, options: PublicOriginOptions): string {
  if (options.publicUrl !== undefined) return options.publicUrl;
  const { headers } = request;
  const forwardedHost = options.trustProxy
    ? plausibleHost(nearest(headers.get('x-forwarded-host')))
    : null;
  const host = forwardedHost ?? plausibleHost(headers.get('host')) ?? FALLBACK_HOST;

  const forwardedProto = options.trustProxy
    ? nearest(headers.get('x-forwarded-proto'))?.toLowerCase()
    : undefined;
  let protocol: string;
  if (forwardedProto === 'http' || forwardedProto === 'https') protocol = forwardedProto;
  else protocol = URL.parse(request.url)?.protocol === 'https:' ? 'https' : 'http';

  // Through URL, so that a default port (example.com:443 on https) is dropped as browsers do.
  return URL.parse(`${protocol}://${host}`)?.origin ?? `${protocol}://${FALLBACK_HOST}`;
}
