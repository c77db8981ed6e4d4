/**
 * The request a BFF route sees, on every runtime: the web-standard `Request` plus what the BFF learned about it
 * (route parameters, the visitor's address and the shop's own origin through the trusted proxies, the request id,
 * the deadline). Routes are {@link RouteHandler}s: `(req) => Response`; they never see a host's own request type.
 */
import type { Logger } from 'pino';

/** What a route answers when its deadline passes (a purchase under way: 202 `PROCESSING` with its order). */
export interface DeadlineAnswer {
  /** HTTP status. */
  readonly status: number;
  /** The JSON body. */
  readonly body: unknown;
}

/** Query parameters as the BFF reads them: one string per name, or every value of a repeated name in order. */
export type QueryValues = Readonly<Record<string, string | string[]>>;

/** One request to the BFF, as its routes see it. */
export interface BffRequest {
  /** The request as the host gave it (its body is read through `readJson` / `readRawBody`, body.ts). */
  readonly request: Request;
  /** `GET`, `POST`, … (upper case; `HEAD` is routed as `GET`). */
  readonly method: string;
  /** The request URL as the host gave it. */
  readonly url: URL;
  /** The path below the BFF's base path, such as `/orders/or_1` (never empty: at least `/`). */
  readonly path: string;
  /**
   * Where the BFF is mounted, as the visitor addressed it: `/dk` for `/dk/orders/or_1` (its `basePath`, or the
   * Express mount path), `''` at the root. `${ownOrigin}${mountPath}/mcp` is the absolute URL of the BFF's `/mcp`.
   */
  readonly mountPath: string;
  /** The query parameters (a null-prototype object). */
  readonly query: QueryValues;
  /** The route's `:name` parameters, percent-decoded (`/domains/:name` → `{name}`). */
  readonly params: Readonly<Record<string, string>>;
  /** The route pattern that matched, such as `/orders/:id` (for logs and metrics). */
  readonly route: string;
  /** The visitor's IP address through the trusted proxies only (proxy-trust.ts); `''` when the host gave none. */
  readonly clientAddress: string;
  /** The shop's own origin as the visitor's browser addressed it, such as `https://shop.example` (proxy-trust.ts). */
  readonly ownOrigin: string;
  /** Whether the visitor's request reached the shop over HTTPS (directly or at a trusted proxy). */
  readonly secure: boolean;
  /** The request id (answered in `X-Request-Id`, logged as `req_id`, sent upstream). */
  readonly id: string;
  /** The BFF's logger; every line written while the request is served carries its `req_id`. */
  readonly logger: Logger;
  /** Keeps the host alive for work that outlives the answer (a no-op where the process lives on). */
  readonly waitUntil: (promise: Promise<unknown>) => void;
  /**
   * Aborted when the request's overall deadline passes (option `requestDeadlineSeconds`; visitor routes only) or
   * the visitor goes away: work that only serves this answer may stop then.
   */
  readonly deadline: AbortSignal;
  /** A request header's value (case-insensitive name), or undefined. */
  header(name: string): string | undefined;
  /**
   * Registers what to answer if the deadline passes from now on (a purchase under way), instead of 504
   * `upstream_timeout`. The route's own answer, given later, is then dropped.
   */
  onDeadline(answer: () => DeadlineAnswer): void;
}

/** A route: the answer to one request. Errors thrown become the BFF's `{"error": {"code", "message"}}` answers. */
export type RouteHandler = (req: BffRequest) => Promise<Response> | Response;
