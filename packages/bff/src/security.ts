/**
 * Security middleware of the BFF routes: helmet with a strict policy for a JSON API, CORS for exactly the
 * configured origins (`Vary: Origin`), `Cache-Control: no-store`, and the JSON body checks (415, 413).
 */
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { BffHttpError } from './errors.ts';

/** Largest JSON body accepted, in bytes (16 kB; a checkout body is under 300 bytes). */
export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * helmet for JSON answers: nothing may be loaded, framed or submitted from them (`default-src 'none'`,
 * `frame-ancestors 'none'`), plus helmet's other defaults (nosniff, no referrer, HSTS, ...).
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
  });
}

/** Methods and headers a browser may use across origins. */
const ALLOWED_METHODS = 'GET, POST';
const ALLOWED_HEADERS = 'Content-Type, X-Order-Token';

/**
 * CORS for an exact list of origins (no wildcards, no reflection of unknown origins). An allowed origin gets
 * `Access-Control-Allow-Origin: <origin>`; preflights are answered 204 here. Every answer varies by Origin.
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */
export function cors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return function domainkitBffCors(req, res, next) {
    res.vary('Origin');
    const origin = req.headers.origin;
    const ok = origin !== undefined && allowed.has(origin);
    if (ok) res.setHeader('Access-Control-Allow-Origin', origin);
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
}

/** `Cache-Control: no-store`: answers hold live prices and single-use checkout URLs. */
export const noStore: RequestHandler = function domainkitBffNoStore(_req, res, next) {
  res.setHeader('Cache-Control', 'no-store');
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

/** Parses a JSON object body up to {@link JSON_BODY_LIMIT_BYTES}; errors become 400/413/415 in the error handler. */
export function jsonBody(): RequestHandler {
  return express.json({ limit: JSON_BODY_LIMIT_BYTES, type: 'application/json', strict: true });
}
