/**
 * Route dispatch of the BFF: exact paths plus `:name` parameters (`/orders/:id`), matched case-insensitively with
 * an optional trailing slash (as Express routes match). A known path with another method is 405
 * `method_not_allowed` naming the right one in `Allow`; `HEAD` is served by the `GET` route.
 */
import { BffHttpError } from '../errors.ts';
import type { BffRequest, RouteHandler } from './request.ts';

/** Which visitor limit a route counts against (visitor-limits.ts); none for webhooks and probes. */
export type VisitorLimitClass = 'search' | 'siblings' | 'write';

/** One route of the BFF: its handlers by method and the checks that run before them. */
export interface RouteSpec {
  /** The path pattern below the base path: `/search`, `/orders/:id`. */
  readonly path: string;
  readonly GET?: RouteHandler | undefined;
  readonly POST?: RouteHandler | undefined;
  /**
   * The visitor limit counted before the handler runs: one class for every method, or a class per method (`{ POST:
   * 'write' }`: the route's reads are not counted); none when undefined.
   */
  readonly limit?:
    | VisitorLimitClass
    | { readonly GET?: VisitorLimitClass; readonly POST?: VisitorLimitClass }
    | undefined;
  /** A write from a browser: cross-site requests are refused first (403 `forbidden`; security.ts). */
  readonly sameSiteWrite?: boolean | undefined;
  /**
   * The route checks a signature on the body's exact bytes (`readRawBody`): a body a host's parser read first
   * (Express `express.json()` before the BFF) reaches it used, never re-serialised.
   */
  readonly rawBody?: boolean | undefined;
  /** Answered within the visitor deadline (option `requestDeadlineSeconds`); default true. */
  readonly deadline?: boolean | undefined;
  /**
   * A page for people rather than an API: each error answer (a refusal before the handler ran, such as the visitor
   * limit or the method, or an error it raised, such as its deadline) is handed over as the JSON answer the BFF
   * would send (status, headers, `{"error"}` body), and the page this returns is sent instead. Should it fail,
   * the JSON answer is sent.
   */
  readonly errorPage?: ((answer: Response, req: BffRequest) => Promise<Response>) | undefined;
}

/** A route that matched a path, with its decoded parameters. */
export interface RouteMatch {
  readonly spec: RouteSpec;
  readonly params: Readonly<Record<string, string>>;
  /** A parameter's malformed percent-escape: the request is answered 400 `validation_error`. */
  readonly malformed?: URIError | undefined;
}

interface Compiled {
  readonly spec: RouteSpec;
  readonly segments: readonly string[];
}

/** The methods a route answers, for `Allow`. */
export function allowedMethods(spec: RouteSpec): string {
  return [spec.GET && 'GET', spec.POST && 'POST'].filter(Boolean).join(', ');
}

/** The handler of `method` on a matched route (`HEAD` → `GET`), or undefined (then 405). */
export function handlerFor(spec: RouteSpec, method: string): RouteHandler | undefined {
  if (method === 'GET' || method === 'HEAD') return spec.GET;
  if (method === 'POST') return spec.POST;
  return undefined;
}

/** 405 `method_not_allowed` for `method` on a route; its answer carries `Allow` (error-answer.ts). */
export function methodNotAllowed(method: string, spec: RouteSpec): BffHttpError {
  const allow = allowedMethods(spec);
  return Object.assign(new BffHttpError('method_not_allowed', `${method} is not supported here: use ${allow}.`), {
    headers: { Allow: allow },
  });
}

/**
 * The BFF's route table, compiled once.
 * @example new Routes([{ path: '/orders/:id', GET: orderStatus, limit: 'search' }]).match('/orders/or_1')
 */
export class Routes {
  readonly #exact = new Map<string, RouteSpec>();
  readonly #patterns: Compiled[] = [];

  constructor(specs: readonly RouteSpec[]) {
    for (const spec of specs) {
      if (spec.path.includes('/:'))
        this.#patterns.push({ spec, segments: spec.path.toLowerCase().split('/').slice(1) });
      else this.#exact.set(spec.path.toLowerCase(), spec);
    }
  }

  /** Every route's pattern. */
  get paths(): string[] {
    return [...this.#exact.values(), ...this.#patterns.map((p) => p.spec)].map((s) => s.path);
  }

  /** The route serving `path` (below the base path, percent-encoded as received), or undefined. */
  match(path: string): RouteMatch | undefined {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const exact = this.#exact.get(trimmed.toLowerCase());
    if (exact !== undefined) return { spec: exact, params: {} };
    const segments = trimmed.split('/').slice(1);
    for (const { spec, segments: pattern } of this.#patterns) {
      if (pattern.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < pattern.length && ok; i++) {
        const p = pattern[i]!;
        const s = segments[i]!;
        if (p.startsWith(':')) {
          if (s === '') ok = false;
          else {
            try {
              params[spec.path.split('/')[i + 1]!.slice(1)] = decodeURIComponent(s);
            } catch (error) {
              return { spec, params: {}, malformed: error as URIError };
            }
          }
        } else ok = p === s.toLowerCase();
      }
      if (ok) return { spec, params };
    }
    return undefined;
  }
}
