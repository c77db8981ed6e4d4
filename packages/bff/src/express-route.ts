/**
 * Runs a web-standard BFF route ({@link RouteHandler}, http/) inside the Express router: builds its
 * {@link BffRequest} from Express's request and writes the `Response` it answers. What the route throws goes to the
 * router's error handler, as an Express route's errors do (a refused body's answer closes the connection).
 *
 * A stopgap while `createBff` still composes an Express router: once it is an adapter over the web-standard
 * handler, the handler builds the request itself and this file goes.
 */
import type { IncomingMessage } from 'node:http';
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import type { Logger } from 'pino';
import { setDeadlineAnswer } from './deadline.ts';
import type { BffRequest, QueryValues, RouteHandler } from './http/index.ts';

/** What the bridge needs from the router: its logger and its reading of the proxies in front (proxy-trust.ts). */
export interface ExpressRouteDeps {
  readonly logger: Logger;
  readonly clientAddress: (req: ExpressRequest) => string;
  readonly ownOrigin: (req: ExpressRequest) => string;
}

/**
 * The request's body as a web stream, read as the route asks for it: cancelling it (a body over its limit) stops
 * reading, without cutting the connection the answer still has to go out on.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let stop = (): void => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const data = (chunk: Buffer): void => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        const end = (): void => {
          stop();
          controller.close();
        };
        const fail = (error: Error): void => {
          stop();
          controller.error(error);
        };
        stop = () => {
          req.off('data', data);
          req.off('end', end);
          req.off('error', fail);
        };
        req.on('data', data);
        req.on('end', end);
        req.on('error', fail);
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        stop();
        req.pause();
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * The web-standard request of an Express request. A body another middleware already read (the partner's
 * `express.json()` mounted before the BFF) is, for a route reading JSON, its parsed value again as JSON text;
 * otherwise (`raw`, or nothing was parsed) a used body: the exact bytes are gone, so a signature cannot be checked.
 */
async function webRequest(req: ExpressRequest, url: URL, raw: boolean): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  if (req.method === 'GET' || req.method === 'HEAD') return new Request(url, { method: req.method, headers });
  const parsedBefore = (req as { _body?: unknown })._body === true || req.readableEnded;
  if (!parsedBefore)
    return new Request(url, { method: req.method, headers, body: bodyStream(req), duplex: 'half' } as RequestInit);
  headers.delete('content-length');
  const parsed = (req as { body?: unknown }).body;
  const json = !raw && typeof parsed === 'object' && parsed !== null && !Buffer.isBuffer(parsed);
  const request = new Request(url, { method: req.method, headers, body: json ? JSON.stringify(parsed) : '' });
  if (!json) await request.arrayBuffer();
  return request;
}

/** Writes a web-standard answer through Express's response. */
async function send(res: ExpressResponse, answer: Response): Promise<void> {
  res.status(answer.status);
  answer.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  const text = await answer.text();
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text, 'utf8');
}

/**
 * The Express handler of a web-standard route.
 * @param raw - the route checks a signature on the body's exact bytes (`readRawBody`), so a body parsed before
 *   cannot stand in for them.
 */
export function expressRoute(route: RouteHandler, deps: ExpressRouteDeps, raw = false): RequestHandler {
  return async function domainkitBffRoute(req, res, next) {
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const ownOrigin = deps.ownOrigin(req);
    let url: URL;
    try {
      url = new URL(req.originalUrl, `${ownOrigin}/`);
    } catch {
      url = new URL(req.originalUrl, 'http://localhost/');
    }
    const routePath = (req.route as { path?: unknown } | undefined)?.path;
    const bffRequest: BffRequest = {
      request: await webRequest(req, url, raw),
      method: req.method,
      url,
      path: req.path,
      query: req.query as QueryValues,
      params: req.params as Record<string, string>,
      route: typeof routePath === 'string' ? routePath : req.path,
      clientAddress: deps.clientAddress(req),
      ownOrigin,
      secure: url.protocol === 'https:',
      id: String((req as { id?: unknown }).id ?? res.getHeader('X-Request-Id') ?? ''),
      logger: deps.logger,
      waitUntil: () => {},
      deadline: gone.signal,
      header: (name) => req.get(name),
      onDeadline: (answer) => setDeadlineAnswer(res, answer),
    };
    let answer: Response;
    try {
      answer = await route(bffRequest);
    } catch (error) {
      if ((error as { closeConnection?: unknown }).closeConnection === true) {
        res.setHeader('Connection', 'close');
        res.on('finish', () => req.socket.destroySoon());
      }
      next(error);
      return;
    }
    await send(res, answer);
  };
}
