/**
 * Security middleware of the BFF routes: helmet with a strict policy for a JSON API, CORS for exactly the
 * configured origins (`Vary: Origin`), `Cache-Control: no-store`, and the JSON body checks (415, 413).
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import helmet from 'helmet';
import { BffHttpError } from './errors.ts';

/** Largest JSON body accepted, in bytes (16 kB; a checkout body is under 300 bytes). */
export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * helmet for JSON answers: nothing may be loaded, framed or submitted from them (`default-src 'none'`,
 * `frame-ancestors 'none'`), plus helmet's other defaults (nosniff, no referrer, HSTS, ...).
 */
export function securityHeaders(): RequestHandler & {
  /** Sets the headers on `res` at once (what the middleware does), or undefined if helmet could not be recorded. */
  readonly apply: ((req: Request, res: Response) => void) | undefined;
} {
  const policy = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    // Headers that only govern an HTML document (its window, its links, its DNS prefetching, legacy plug-ins and
    // IE's download and XSS-filter quirks) say nothing for a JSON answer that is never a document
    // (docs/spec-decisions.md): left out, the hot path of a cached search sends less.
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    frameguard: { action: 'deny' },
  });
  // The policy's headers depend on nothing in the request: helmet is run once on a recording answer and its headers
  // are replayed on every answer (the hot path of a cached search sets them without helmet's chain of middleware).
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  let synchronous = false;
  const recorder = {
    setHeader: (name: string, value: unknown) => void set.push([name, String(value)]),
    removeHeader: (name: string) => void removed.push(name),
    getHeader: () => undefined,
  };
  policy({ headers: {}, method: 'GET', url: '/' } as never, recorder as never, () => {
    synchronous = true;
  });
  if (!synchronous) return Object.assign(policy, { apply: undefined });
  // HSTS only on an answer that came over HTTPS (the request's, or the proxy's in front with `trust proxy`):
  // "An HSTS Host MUST NOT include the STS header field in HTTP responses conveyed over non-secure transport"
  // (RFC 6797 section 7.2).
  const always = set.filter(([name]) => name.toLowerCase() !== 'strict-transport-security');
  const sts = set.find(([name]) => name.toLowerCase() === 'strict-transport-security');
  const apply = (req: Request, res: Response): void => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of always) res.setHeader(name, value);
    if (sts !== undefined && req.secure) res.setHeader(sts[0], sts[1]);
  };
  const middleware: RequestHandler = function domainkitBffSecurityHeaders(req, res, next) {
    apply(req, res);
    next();
  };
  return Object.assign(middleware, { apply });
}

/** Methods and headers a browser may use across origins. */
const ALLOWED_METHODS = 'GET, POST';
const ALLOWED_HEADERS = 'Content-Type, X-Order-Token, Idempotency-Key, X-Request-Id';
/** Answer headers a page may read across origins: the request id (quote it when reporting a problem). */
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After';
/** How many refused origins are remembered, so each is logged once (a hostile page could send endless ones). */
const REFUSED_ORIGINS_LOGGED = 100;

/**
 * Whether a request comes from the shop's own origin. A browser that sends `Sec-Fetch-Site` (a header no page can
 * set) says so itself: `same-origin`, whatever proxies rewrote on the way. Without it, `Origin` must equal the shop's
 * own origin (`ownOrigin`: the scheme and host the visitor used, through the trusted proxies; proxy-trust.ts).
 * @see https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
 */
function fromOwnOrigin(req: Request, origin: string, ownOrigin: (req: Request) => string): boolean {
  const site = req.headers['sec-fetch-site'];
  return site === undefined ? origin === ownOrigin(req) : site === 'same-origin';
}

/**
 * CORS for an exact list of origins (no wildcards, no reflection of unknown origins). An allowed origin gets
 * `Access-Control-Allow-Origin: <origin>` (and may read `X-Request-Id`); preflights are answered 204 here. Every
 * answer varies by Origin. A cross-origin request from an origin not in the list (nor the shop's own, `ownOrigin`)
 * is logged at `warn` once per origin, naming it and the settings to check: a widget on that page cannot read the
 * answer.
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */
export function cors(
  allowedOrigins: readonly string[],
  logger: Logger | undefined,
  ownOrigin: (req: Request) => string,
): RequestHandler & {
  /** Whether the request's `Origin` is absent or allowed (any other is the middleware's to answer and log). */
  readonly accepts: (req: Request) => boolean;
  /** Sets the CORS headers of the answer to an accepted request (what the middleware sets). */
  readonly apply: (req: Request, res: Response) => void;
} {
  const allowed = new Set(allowedOrigins);
  const refused = new Set<string>();
  /** `allowedOrigin`: the request's `Origin` when it is allowed, else undefined. */
  const answerHeaders = (res: Response, allowedOrigin: string | undefined): void => {
    // Set outright when nothing varies yet (the usual case): `res.vary` parses and merges.
    if (res.getHeader('Vary') === undefined) res.setHeader('Vary', 'Origin');
    else res.vary('Origin');
    if (allowedOrigin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', allowedOrigin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
  };
  const middleware: RequestHandler = function domainkitBffCors(req, res, next) {
    const origin = req.headers.origin;
    const ok = origin !== undefined && allowed.has(origin);
    answerHeaders(res, ok ? origin : undefined);
    if (
      !ok &&
      origin !== undefined &&
      logger !== undefined &&
      !refused.has(origin) &&
      refused.size < REFUSED_ORIGINS_LOGGED &&
      !fromOwnOrigin(req, origin, ownOrigin)
    ) {
      refused.add(origin);
      logger.warn(
        { origin: origin.slice(0, 200), own_origin: ownOrigin(req).slice(0, 200), allowed_origins: [...allowed] },
        'refused a cross-origin request: add this origin to allowedOrigins (DOMAINKIT_ALLOWED_ORIGINS) if the widget runs there; if it is this shop behind a reverse proxy, have the proxy send Forwarded or X-Forwarded-Proto and X-Forwarded-Host and trust it (trustProxy, DOMAINKIT_TRUST_PROXY)',
      );
    }
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      if (ok) {
        res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.status(204).end();
      return;
    }
    next();
  };
  return Object.assign(middleware, {
    accepts: (req: Request) => req.headers.origin === undefined || allowed.has(req.headers.origin),
    apply: (req: Request, res: Response) => answerHeaders(res, req.headers.origin),
  });
}

/**
 * Refuses cross-site writes (403 `forbidden`): a state-changing request whose `Origin` is neither one of
 * `allowedOrigins` nor the shop's own origin (the browser says `Sec-Fetch-Site: same-origin`, or `Origin` equals
 * `ownOrigin(req)`: the scheme and host the visitor used, through the trusted proxies), including `Origin: null`
 * and an allowed host over another scheme; without `Origin`, a request a browser marks `Sec-Fetch-Site:
 * cross-site`. A request with neither header (a server, curl) passes. CORS alone only stops a browser from reading
 * the answer, not the write.
 * @param ownOrigin - the shop's own origin of a request (proxy-trust.ts `ownOrigin`).
 * @see https://fetch.spec.whatwg.org/#origin-header
 * @see https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
 */
export function refuseCrossSiteWrites(
  allowedOrigins: readonly string[],
  ownOrigin: (req: Request) => string,
): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return function domainkitBffRefuseCrossSiteWrites(req, _res, next) {
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (allowed.has(origin) || fromOwnOrigin(req, origin, ownOrigin)) {
        next();
        return;
      }
      next(
        new BffHttpError(
          'forbidden',
          `Cross-site writes are refused: the origin ${JSON.stringify(origin.slice(0, 100))} is not allowed to use this shop's API.`,
        ),
      );
      return;
    }
    if (req.headers['sec-fetch-site'] === 'cross-site') {
      next(new BffHttpError('forbidden', 'Cross-site writes are refused: this request came from another site.'));
      return;
    }
    next();
  };
}

/** Sets `Cache-Control: no-store`: answers hold live prices and single-use checkout URLs. */
export function applyNoStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
}

/** {@link applyNoStore} as middleware. */
export const noStore: RequestHandler = function domainkitBffNoStore(_req, res, next) {
  applyNoStore(res);
  next();
};

/** 415 unless the body is declared `application/json` (a cross-site form cannot send that without a preflight). */
export const requireJson: RequestHandler = function domainkitBffRequireJson(req, _res, next) {
  if (!req.is('application/json')) {
    const got = req.headers['content-type'];
    next(
      new BffHttpError(
        'unsupported_media_type',
        `Send the body as JSON with the header Content-Type: application/json${got ? ` (received ${JSON.stringify(got.slice(0, 60))})` : ''}.`,
      ),
    );
    return;
  }
  next();
};

/** Timeouts of the standalone server, in milliseconds (docs/spec-decisions.md "Input policy, limits and timeouts"). */
export const SERVER_TIMEOUTS_MS = {
  /** Until the request line and headers are in. */
  headers: 10_000,
  /** Until the whole request (headers and body) is in. */
  request: 30_000,
  /** An idle keep-alive connection is closed after this long. */
  keepAlive: 5_000,
} as const;

/**
 * 413 `payload_too_large` at once when the declared `Content-Length` is over `maxBytes`: nothing of the body is
 * read, and the connection is closed after the answer (a body parser would first read, and discard, the whole
 * declared length, holding the socket until the request timeout).
 */
export function declaredBodyLimit(maxBytes: number): RequestHandler {
  return function domainkitBffDeclaredBodyLimit(req, res, next) {
    const raw = req.headers['content-length'];
    if (raw === undefined || !/^\d{1,20}$/.test(raw) || Number(raw) <= maxBytes) {
      next();
      return;
    }
    res.setHeader('Connection', 'close');
    res.on('finish', () => req.socket.destroySoon());
    next(
      new BffHttpError(
        'payload_too_large',
        `The body is larger than ${Math.floor(maxBytes / 1024)} kB (declared ${raw} bytes): send only the documented fields.`,
      ),
    );
  };
}

/**
 * Runs a body parser (`express.json`, `express.raw`) so that a body over `maxBytes` is refused as soon as the
 * bytes received pass the limit, whatever its framing: 413 `payload_too_large` (through the error handler), then
 * the connection is closed (`Connection: close`) rather than the rest read. body-parser counts the bytes as they
 * arrive too, but then reads the whole body off before it answers: a chunked body, which declares no length
 * ({@link declaredBodyLimit}), was drained to its end, or until a timeout answered in its place (RFC 9112
 * section 6.1, RFC 9110 section 15.5.14).
 * @param parser - a body-parser middleware configured with the same limit.
 * @param maxBytes - the route's limit, in bytes as received.
 */
export function refuseBodyOverLimit(parser: RequestHandler, maxBytes: number): RequestHandler {
  return function domainkitBffBodyLimit(req, res, next) {
    let refused = false;
    let settled = false;
    void parser(req, res, (error?: unknown) => {
      settled = true;
      // After a refusal the parser still calls back, once the connection is gone: the answer was given.
      if (!refused) next(error);
    });
    // Counting starts only when the parser reads the body (it attached its reader synchronously): a parser that
    // skipped this request (no body, another media type) leaves the stream untouched.
    if (settled || req.readableFlowing !== true) return;
    let received = 0;
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= maxBytes) return;
      stop();
      refused = true;
      res.setHeader('Connection', 'close');
      next(
        Object.assign(new Error('request entity too large'), {
          type: 'entity.too.large',
          status: 413,
          limit: maxBytes,
        }),
      );
    };
    const stop = (): void => {
      req.off('data', count);
      req.off('end', stop);
    };
    req.on('data', count);
    req.on('end', stop);
  };
}

/** Parses a JSON object body up to {@link JSON_BODY_LIMIT_BYTES}; errors become 400/413/415 in the error handler. */
export function jsonBody(): RequestHandler {
  return refuseBodyOverLimit(
    express.json({ limit: JSON_BODY_LIMIT_BYTES, type: 'application/json', strict: true }),
    JSON_BODY_LIMIT_BYTES,
  );
}
