/**
 * Headers and origin checks of every BFF answer, over web-standard requests: a fixed security header list (a strict
 * policy for a JSON API: helmet's values), CORS for exactly the configured origins (`Vary: Origin`),
 * `Cache-Control: no-store`, and the refusal of cross-site writes.
 */
import { BffHttpError } from '../errors.ts';

/**
 * The security headers of every answer: nothing may be loaded, framed or submitted from a JSON answer
 * (`default-src 'none'`, `frame-ancestors 'none'`), no sniffing, no referrer, same-origin resource policy. Headers
 * that only govern an HTML document (COOP, Origin-Agent-Cluster, DNS prefetch, IE quirks) say nothing for a JSON
 * answer and are left out (docs/spec-decisions.md).
 */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/**
 * HSTS, only on an answer to a request that came over HTTPS (the request's, or a trusted proxy's in front): "An
 * HSTS Host MUST NOT include the STS header field in HTTP responses conveyed over non-secure transport"
 * (RFC 6797 section 7.2).
 */
export const HSTS_HEADER = ['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const;

/** Methods and headers a browser may use across origins. */
const ALLOWED_METHODS = 'GET, POST';
const ALLOWED_HEADERS = 'Content-Type, X-Order-Token, Idempotency-Key, X-Request-Id';
/** Answer headers a page may read across origins: the request id (quote it when reporting a problem). */
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After';
/** How many refused origins are remembered, so each is logged once (a hostile page could send endless ones). */
const REFUSED_ORIGINS_LOGGED = 100;

/**
 * A header setter: `Headers`, or a Node `ServerResponse` (the Node adapter writes a prepared answer directly). The
 * answer headers set here are named in lower case, as every host sends them (HTTP/2 requires it): a sink keeping a
 * plain record or list takes the names as they are.
 */
export interface HeaderSink {
  setHeader(name: string, value: string): void;
}

/** What the origin checks read of a request. */
export interface OriginFacts {
  /** The `Origin` header, if any. */
  readonly origin: string | undefined;
  /** The `Sec-Fetch-Site` header, if any. */
  readonly fetchSite: string | undefined;
  /** The shop's own origin (proxy-trust.ts). */
  readonly ownOrigin: () => string;
}

/**
 * Whether a request comes from the shop's own origin. A browser that sends `Sec-Fetch-Site` (a header no page can
 * set) says so itself: `same-origin`, whatever proxies rewrote on the way. Without it, `Origin` must equal the
 * shop's own origin (the scheme and host the visitor used, through the trusted proxies; proxy-trust.ts).
 * @see https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
 */
function fromOwnOrigin(facts: OriginFacts, origin: string): boolean {
  return facts.fetchSite === undefined ? origin === facts.ownOrigin() : facts.fetchSite === 'same-origin';
}

/** The CORS policy of one BFF: exact origins, no wildcards, no reflection of unknown origins. */
export interface CorsPolicy {
  /** Whether the `Origin` is absent or allowed. */
  accepts(origin: string | undefined): boolean;
  /**
   * Sets `Vary: Origin` and, for an allowed origin, `Access-Control-Allow-Origin` and `-Expose-Headers`. A
   * cross-origin request from an origin neither allowed nor the shop's own is logged at `warn` once per origin.
   */
  apply(facts: OriginFacts, headers: HeaderSink): void;
  /** The 204 answer headers of a preflight (allowed origin: methods, headers, max age; else none). */
  preflight(origin: string | undefined, headers: HeaderSink): void;
}

/**
 * CORS for an exact list of origins.
 * @param warn - told a refused origin once (with the own origin), for the log line naming the settings to check.
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */
export function corsPolicy(
  allowedOrigins: readonly string[],
  warn: ((origin: string, ownOrigin: string, allowed: readonly string[]) => void) | undefined,
): CorsPolicy {
  const allowed = new Set(allowedOrigins);
  const refused = new Set<string>();
  return {
    accepts: (origin) => origin === undefined || allowed.has(origin),
    apply(facts, headers) {
      const { origin } = facts;
      headers.setHeader('vary', 'Origin');
      if (origin === undefined) return;
      if (allowed.has(origin)) {
        headers.setHeader('access-control-allow-origin', origin);
        headers.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
      } else if (
        warn !== undefined &&
        !refused.has(origin) &&
        refused.size < REFUSED_ORIGINS_LOGGED &&
        !fromOwnOrigin(facts, origin)
      ) {
        refused.add(origin);
        warn(origin, facts.ownOrigin(), [...allowed]);
      }
    },
    preflight(origin, headers) {
      if (origin === undefined || !allowed.has(origin)) return;
      headers.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
      headers.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      headers.setHeader('Access-Control-Max-Age', '600');
    },
  };
}

/**
 * Refuses cross-site writes (403 `forbidden`): a state-changing request whose `Origin` is neither one of
 * `allowedOrigins` nor the shop's own origin, including `Origin: null` and an allowed host over another scheme;
 * without `Origin`, a request a browser marks `Sec-Fetch-Site: cross-site`. A request with neither header (a server,
 * curl) passes. CORS alone only stops a browser from reading the answer, not the write.
 * @returns the check: throws {@link BffHttpError} 403 `forbidden` for a cross-site write.
 * @see https://fetch.spec.whatwg.org/#origin-header
 */
export function crossSiteWriteCheck(allowedOrigins: readonly string[]): (facts: OriginFacts) => void {
  const allowed = new Set(allowedOrigins);
  return (facts) => {
    const { origin } = facts;
    if (origin !== undefined) {
      if (allowed.has(origin) || fromOwnOrigin(facts, origin)) return;
      throw new BffHttpError(
        'forbidden',
        `Cross-site writes are refused: the origin ${JSON.stringify(origin.slice(0, 100))} is not allowed to use this shop's API.`,
      );
    }
    if (facts.fetchSite === 'cross-site')
      throw new BffHttpError('forbidden', 'Cross-site writes are refused: this request came from another site.');
  };
}

/**
 * Sets the headers every BFF answer carries: the request id, the security headers (HSTS over HTTPS only) and
 * `Cache-Control: no-store` (answers hold live prices and single-use checkout URLs).
 */
export function applyAnswerHeaders(headers: HeaderSink, requestId: string, secure: boolean): void {
  headers.setHeader('x-request-id', requestId);
  for (const [name, value] of SECURITY_HEADERS) headers.setHeader(name, value);
  if (secure) headers.setHeader(HSTS_HEADER[0], HSTS_HEADER[1]);
  headers.setHeader('cache-control', 'no-store');
}

/** `Headers` as a {@link HeaderSink}. */
export function headerSink(headers: Headers): HeaderSink {
  return { setHeader: (name, value) => headers.set(name, value) };
}
