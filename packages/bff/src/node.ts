/**
 * `@domainkit/bff/node`: the BFF handler on any Node `http` server (`toNodeListener(handler)`), and the Node
 * request/answer plumbing the Express adapter shares. A cached search is written straight from its prepared answer
 * (http/prepared.ts) without building a `Request`; any other request becomes a web-standard `Request` (its body
 * streamed, so a body over its limit is refused as it arrives) and its `Response` is written back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handlerParts } from './handler-parts.ts';
import type { BffHandler } from './handler-types.ts';
import { addressOf, type HostContext } from './http/pipeline.ts';
import type { HotRequest } from './http/prepared.ts';
import { isSecure, type TrustFn } from './http/proxy-trust.ts';
import type { HeaderSink } from './http/security.ts';
import { below } from './http/serve.ts';

/**
 * The orders the hot path set its headers in (names in lower case, as the hot path sets them: `HeaderSink`), each
 * with where its headers go once sorted by name (the index of each name in the sorted flat list).
 */
const orders: Array<{ readonly names: readonly string[]; readonly to: readonly number[] }> = [];
/** At most this many orders are remembered (secure or not, CORS or not, and a route's own headers: a few). */
const MAX_ORDERS = 16;

/**
 * One Node request as the hot path reads it, and the sink of its answer's headers: one object per request (no
 * closures), the headers kept as a flat `[name, value, …]` list, `writeHead`'s cheapest form.
 */
class NodeHotRequest implements HotRequest, HeaderSink {
  readonly method = 'GET';
  readonly path: string;
  readonly search: string;
  readonly outerId: unknown;
  readonly #req: IncomingMessage;
  readonly #url: string;
  readonly #context: HostContext;
  readonly #trust: TrustFn | undefined;
  readonly #headers: string[] = [];

  constructor(
    req: IncomingMessage,
    url: string,
    path: string,
    search: string,
    context: HostContext,
    trust: TrustFn | undefined,
  ) {
    this.#req = req;
    this.#url = url;
    this.path = path;
    this.search = search;
    this.#context = context;
    this.#trust = context.trust === undefined ? trust : (context.trust ?? undefined);
    this.outerId = context.outerId;
  }

  /** A request header (lower-case name), multiple values joined as `Headers` joins them. */
  header(name: string): string | undefined {
    const value = this.#req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  secure(): boolean {
    const req = this.#req;
    return isSecure(
      (name) => this.header(name),
      (req.socket as { encrypted?: boolean }).encrypted === true,
      () => urlOf(req, this.#url),
      addressOf(this.#context),
      this.#trust,
    );
  }

  /** Keeps a header as set: the hot path names its headers in lower case (`HeaderSink`). */
  setHeader(name: string, value: string): void {
    this.#headers.push(name, value);
  }

  /**
   * The headers set, in the order a `Response`'s headers come in (by name), as every other answer of the BFF is
   * written. The hot path sets the same names in the same order for every answer of one kind (secure or not, with
   * CORS or not): each such order is sorted once (an insertion sort), then its answers are only placed.
   */
  sorted(): string[] {
    const h = this.#headers;
    const count = h.length >> 1;
    for (const order of orders) {
      if (order.names.length !== count) continue;
      let i = 0;
      while (i < count && order.names[i] === h[2 * i]) i++;
      if (i < count) continue;
      const out = new Array<string>(h.length);
      for (let k = 0; k < count; k++) {
        const to = order.to[k]!;
        out[to] = h[2 * k]!;
        out[to + 1] = h[2 * k + 1]!;
      }
      return out;
    }
    const from = Array.from({ length: count }, (_, k) => k);
    for (let i = 1; i < count; i++) {
      const k = from[i]!;
      let j = i - 1;
      for (; j >= 0 && h[2 * from[j]!]! > h[2 * k]!; j--) from[j + 1] = from[j]!;
      from[j + 1] = k;
    }
    const to = new Array<number>(count);
    const out = new Array<string>(h.length);
    from.forEach((k, place) => {
      to[k] = 2 * place;
      out[2 * place] = h[2 * k]!;
      out[2 * place + 1] = h[2 * k + 1]!;
    });
    if (orders.length < MAX_ORDERS) orders.push({ names: h.filter((_, k) => k % 2 === 0), to });
    return out;
  }
}

/** The request URL as the connection saw it (its own scheme and `Host`), with `path` (and query) as given. */
function urlOf(req: IncomingMessage, path: string): URL {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${req.headers.host ?? 'localhost'}${path}`);
  } catch {
    return new URL(`${scheme}://localhost${path.startsWith('/') ? path : '/'}`);
  }
}

/**
 * Whether a middleware before the BFF already read the body (the partner's `express.json()`: body-parser marks
 * `req._body`), and then what stands in for it: a parsed JSON value as JSON text again, bytes as they are, else
 * nothing (a route that needs the exact bytes gets a used body: pipeline.ts).
 */
function readBefore(req: IncomingMessage): { body: string | Uint8Array } | undefined {
  const { _body: read, body } = req as { _body?: unknown; body?: unknown };
  if (read !== true && !req.readableEnded) return undefined;
  if (body instanceof Uint8Array) return { body: new Uint8Array(body) };
  if (typeof body === 'string') return { body };
  return { body: typeof body === 'object' && body !== null ? JSON.stringify(body) : '' };
}

/**
 * A Node request's body as a web stream, read only as the route asks for it. Cancelling it (a body over its limit)
 * stops reading without destroying the socket: the refusal still has to be written on it (then the connection
 * closes, `Connection: close`).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let detach = (): void => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const data = (chunk: Buffer): void => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      };
      const end = (): void => {
        detach();
        controller.close();
      };
      const fail = (error: Error): void => {
        detach();
        controller.error(error);
      };
      detach = () => {
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
      detach();
      req.pause();
    },
  });
}

/** The web-standard `Request` of a Node request, aborted when the visitor goes away before its answer. */
export function toRequest(req: IncomingMessage, res: ServerResponse, url: URL): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.startsWith(':')) continue; // HTTP/2 pseudo-headers
    headers.append(name, req.rawHeaders[i + 1]!);
  }
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const before = hasBody ? readBefore(req) : undefined;
  if (before !== undefined) headers.delete('content-length');
  const body = hasBody ? (before?.body ?? bodyStream(req)) : undefined;
  return new Request(url, { method, headers, body, signal: gone.signal, duplex: 'half' } as RequestInit);
}

/**
 * Writes a `Response` to a Node answer, closing the connection after it when the answer says `Connection: close`, or
 * when the request's body was not read to its end (an answer given before the route read it, such as a refusal):
 * its rest is never drained, and a next request on a kept-alive connection is never read from its middle
 * (RFC 9112 section 9.6).
 */
export async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  res.removeHeader('X-Powered-By');
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('Set-Cookie', cookies);
  if (!req.complete) res.setHeader('Connection', 'close');
  if (res.getHeader('Connection') === 'close') res.once('finish', () => req.socket.destroySoon());
  if (response.body === null) {
    res.end();
    return;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!res.hasHeader('Content-Length')) res.setHeader('Content-Length', bytes.byteLength);
  res.end(bytes);
}

/**
 * Serves a Node request through the BFF handler: the hot path straight to `res`, else the matched route.
 * @param path - the request's path and query below where the BFF is mounted.
 * @param unmatched - called instead of answering a path no route serves (Express `next`); absent: 404 `not_found`.
 */
export function serveNode(
  handler: BffHandler,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  context: HostContext,
  unmatched?: () => void,
): void {
  const parts = handlerParts.get(handler);
  if (parts === undefined) throw new TypeError('serveNode: not a handler made by createBffHandler');
  const core = parts.core();
  const queryAt = path.indexOf('?');
  const pathname = queryAt === -1 ? path : path.slice(0, queryAt);
  const below_ = below(pathname, parts.basePath);
  if (below_ !== undefined && req.method === 'GET') {
    const hot = new NodeHotRequest(
      req,
      path,
      below_,
      queryAt === -1 ? '' : path.slice(queryAt + 1),
      context,
      core.trust,
    );
    const body = core.hot(hot, hot);
    if (body !== undefined) {
      hot.setHeader('content-length', String(body.length));
      const headers = hot.sorted();
      if (res.hasHeader('X-Powered-By')) {
        // A middleware set headers before (Express's own `X-Powered-By`): `writeHead` with a list would remove each
        // of them and then append it (validating it twice); set one by one, they are written as they stand.
        res.removeHeader('X-Powered-By');
        for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
        res.writeHead(200);
      } else res.writeHead(200, headers);
      res.end(body.text, 'utf8');
      return;
    }
  }
  if (unmatched !== undefined && (below_ === undefined || core.routes.match(below_) === undefined)) {
    unmatched();
    return;
  }
  const url = urlOf(req, path);
  if ((req as { _body?: unknown })._body === true || req.readableEnded) context.bodyParsedBefore = true;
  Promise.resolve(handler.fetch(toRequest(req, res, url), context))
    .then((response) => writeResponse(response, req, res))
    .catch((error: unknown) => {
      // Only a broken socket can get here (the handler never throws): nothing is left to answer.
      if (!res.headersSent) res.destroy(error as Error);
    });
}

/**
 * The BFF handler as a Node `http` listener: `createServer(toNodeListener(handler))`. The visitor's address is the
 * socket's peer (weighed with `X-Forwarded-For` by the handler's `trustProxy`).
 * @example createServer(toNodeListener(createBffHandler({ marketplace, basePath: '/dk' }))).listen(8787)
 */
export function toNodeListener(handler: BffHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return function domainkitBffNodeListener(req, res) {
    serveNode(handler, req, res, req.url ?? '/', { clientAddress: req.socket.remoteAddress ?? '' });
  };
}
