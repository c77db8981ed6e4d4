/**
 * `startBff(options)`: the BFF router in a standalone Express server, for partners who do not have a Node app to
 * mount it in (and for the demo).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { BffHttpError } from './errors.ts';
import { BodyTooLargeError, JSON_BODY_LIMIT_BYTES } from './http/body.ts';
import { answerOutside } from './http/serve.ts';
import { WEBHOOK_BODY_LIMIT_BYTES } from './webhooks/index.ts';
import { writeResponse } from './node.ts';
import { bffLogger } from './logger.ts';
import { BffOptionsError, type BffOptions } from './options.ts';
import { readTrustProxy, type TrustProxySetting } from './http/proxy-trust.ts';
import { createBff, type BffRouter } from './router.ts';

/** Timeouts of the standalone server, in milliseconds (docs/spec-decisions.md "Input policy, limits and timeouts"). */
export const SERVER_TIMEOUTS_MS = {
  /** Until the request line and headers are in. */
  headers: 10_000,
  /** Until the whole request (headers and body) is in. */
  request: 30_000,
  /** An idle keep-alive connection is closed after this long. */
  keepAlive: 5_000,
} as const;

/** The largest body any route takes (a webhook's), in bytes: a larger one is refused on any path. */
const ANY_BODY_LIMIT_BYTES = Math.max(JSON_BODY_LIMIT_BYTES, WEBHOOK_BODY_LIMIT_BYTES);

/** Default port of the standalone server. */
export const DEFAULT_PORT = 8787;
/** Default interface: loopback only; put a reverse proxy (TLS) in front for the internet. */
export const DEFAULT_HOST = '127.0.0.1';

/** Options of {@link startBff}: those of `createBff` plus where to listen. */
export interface BffServerOptions extends BffOptions {
  /** TCP port; default 8787; 0 picks a free one. */
  readonly port?: number | undefined;
  /** Interface to bind; default `127.0.0.1`. */
  readonly host?: string | undefined;
  /** Path the routes are served under, such as `/api/domains`; default `/`. */
  readonly mountPath?: string | undefined;
  /**
   * The reverse proxies in front whose forwarding headers are believed (the app's Express `trust proxy`): a number
   * of hops (`1` for one proxy), or their addresses and CIDR ranges (`["10.0.0.0/8"]`, `"10.0.0.0/8, loopback"`).
   * Through them the BFF learns the visitor's IP (`X-Forwarded-For`, for the visitor limits) and the shop's own
   * origin (`Forwarded`, `X-Forwarded-Proto`, `X-Forwarded-Host`, for the cross-site checks). Default none (`0`).
   * `true` is refused: it would believe any client's own `X-Forwarded-For`.
   */
  readonly trustProxy?: number | string | readonly string[] | false | undefined;
}

/** Longest a standalone BFF takes to stop (ms): requests in flight, background work and the database close. */
export const SHUTDOWN_BOUND_MS = 10_000;

/** A running standalone BFF. */
export interface RunningBff {
  /** Base URL of the routes, such as `http://127.0.0.1:8787` (plus the mount path). */
  readonly url: string;
  /** The router, for `bff.on(type, handler)`, `recover()`, `catchUp()`… */
  readonly bff: BffRouter;
  /**
   * Stops accepting connections, lets requests in flight finish (at most 10 s), stops the background work and
   * closes the database it opened, then resolves.
   */
  close(): Promise<void>;
}

function checkServerOptions(port: unknown, host: unknown, mountPath: unknown, trustProxy: unknown): TrustProxySetting {
  const problems: string[] = [];
  const trust = trustProxy === undefined ? { setting: 0 } : readTrustProxy(trustProxy);
  if ('problem' in trust) problems.push(`\`trustProxy\` ${trust.problem}`);
  if (!(Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65535))
    problems.push('`port` must be an integer from 0 to 65535 (0 picks a free port)');
  if (typeof host !== 'string' || host.trim() === '')
    problems.push('`host` must be an interface address such as "127.0.0.1" or "0.0.0.0"');
  if (typeof mountPath !== 'string' || !/^\/[A-Za-z0-9._~\-/]*$/.test(mountPath))
    problems.push('`mountPath` must be a path beginning with "/", such as "/" or "/api/domains"');
  if (problems.length > 0 || 'problem' in trust) throw new BffOptionsError(problems, 'startBff');
  return trust.setting;
}

/**
 * Starts the BFF on its own HTTP server. Unknown paths answer 404 `not_found` in the BFF's error shape.
 *
 * @throws {BffOptionsError} for bad options (before listening).
 * @throws {Error} when the port cannot be bound (the message names host and port).
 */
export async function startBff(options: BffServerOptions): Promise<RunningBff> {
  const { port = DEFAULT_PORT, host = DEFAULT_HOST, mountPath = '/', trustProxy, ...bffOptions } = options;
  const trust = checkServerOptions(port, host, mountPath, trustProxy);
  const path = mountPath.length > 1 ? mountPath.replace(/\/+$/, '') : mountPath;
  const router = createBff(bffOptions);
  const logger = bffLogger(bffOptions.logger, bffOptions.marketplace?.headerPrefix);
  try {
    await router.ready;
  } catch (cause) {
    await router.close();
    throw new Error(`The BFF could not open its database: ${(cause as Error).message}`, { cause });
  }

  const app = express();
  app.disable('x-powered-by');
  // The number of hops or the list of addresses, as Express compiles them (proxy-addr).
  if (trust !== 0) app.set('trust proxy', typeof trust === 'number' ? trust : [...trust]);
  app.use(path, router);
  // Anything else: 404 `not_found` (or, for an error outside the routes, its answer) in the BFF's shape, with the
  // headers of every BFF answer.
  const answer = (error: unknown, req: express.Request, res: express.Response): void => {
    const request = new Request(new URL(req.originalUrl.replace(/^\/*/, '/'), 'http://localhost'), {
      method: req.method,
    });
    void writeResponse(answerOutside(error, request), req, res);
  };
  app.use(function domainkitBffNotFound(req, res) {
    // A body declared over every route's limit is refused before any of it is read, on an unknown path too; the
    // connection is closed after the answer rather than the body drained.
    const declared = req.headers['content-length'];
    if (declared !== undefined && /^\d{1,20}$/.test(declared) && Number(declared) > ANY_BODY_LIMIT_BYTES) {
      res.on('finish', () => req.socket.destroySoon());
      answer(
        new BodyTooLargeError(
          `The body is larger than ${Math.floor(ANY_BODY_LIMIT_BYTES / 1024)} kB (declared ${declared} bytes): send only the documented fields.`,
        ),
        req,
        res,
      );
      return;
    }
    answer(undefined, req, res);
  });
  app.use(function domainkitBffLastResort(
    error: unknown,
    req: express.Request,
    res: express.Response,
    next: express.NextFunction,
  ) {
    if (res.headersSent) return next(error);
    const status = (error as { status?: unknown })?.status;
    if (status === 400 || error instanceof URIError)
      return answer(
        new BffHttpError('validation_error', 'The URL is malformed; encode values with encodeURIComponent.'),
        req,
        res,
      );
    logger.error(
      {
        error:
          error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
      },
      'unexpected error',
    );
    answer(new BffHttpError('internal_error', 'Something went wrong on our side; try again.'), req, res);
  });

  const server = createServer(app);
  server.headersTimeout = SERVER_TIMEOUTS_MS.headers;
  server.requestTimeout = SERVER_TIMEOUTS_MS.request;
  server.keepAliveTimeout = SERVER_TIMEOUTS_MS.keepAlive;
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (cause) {
    await router.close();
    throw new Error(`The BFF could not listen on ${host}:${port}: ${(cause as Error).message}`, { cause });
  }
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' || host.includes(':') ? `[${host}]` : host;
  const url = `http://${hostPart}:${address.port}${path === '/' ? '' : path}`;
  logger.info({ url }, 'domainkit BFF listening');
  // Prove the credential at once: a wrong secret or a missing scope is logged at warn now, not at the first search.
  // The write probe (scope `embed`) waits for `/readyz`, so the first visitor's purchase finds the write budget full.
  if (router.credentialChecked) void router.checkCredential({ writes: false });

  let closing: Promise<void> | undefined;
  return {
    url,
    bff: router,
    close() {
      // One bound for the whole stop (SHUTDOWN_BOUND_MS): requests in flight get most of it, background work the rest.
      const deadline = Date.now() + SHUTDOWN_BOUND_MS;
      closing ??= new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_BOUND_MS - 2_000);
        force.unref();
        server.close((error) => {
          clearTimeout(force);
          if (error) reject(error);
          else resolve();
        });
        server.closeIdleConnections();
      }).finally(() => router.close(Math.max(0, deadline - Date.now() - 1_000)));
      return closing;
    },
  };
}
