/**
 * How one HTTP attempt goes out. On Node (and whenever an undici `dispatcher` is given) it is undici's `request`,
 * loaded on first use; on runtimes without Node's sockets (Cloudflare workerd, Bun, Deno) it is the platform's
 * `fetch`, so the client loads and runs there without undici. Both give the same {@link TransportAnswer}:
 * status, lowercase headers and the whole body as text. Redirects are never followed (a Partner API answer is
 * never a redirect, and a signed request must not be replayed elsewhere).
 */
import type { Dispatcher } from 'undici';

/** One attempt, ready to send. */
export interface TransportRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** Aborts the attempt (the caller's signal combined with the per-attempt timeout). */
  readonly signal: AbortSignal;
  /** undici dispatcher; when given, undici sends the attempt whatever the runtime. */
  readonly dispatcher: Dispatcher | undefined;
}

/** The answer of one attempt. */
export interface TransportAnswer {
  readonly status: number;
  /** Header names in lowercase. */
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bodyText: string;
}

interface RuntimeGlobals {
  readonly Bun?: { readonly version?: string };
  readonly Deno?: { readonly version?: { readonly deno?: string } };
  readonly process?: { readonly versions?: { readonly node?: string } };
  readonly navigator?: { readonly userAgent?: string };
}

/** Which JavaScript runtime this is, read from its globals (never throws, reads nothing when absent). */
export function detectRuntime(): {
  readonly name: 'node' | 'bun' | 'deno' | 'workerd' | 'unknown';
  readonly version?: string;
} {
  const g = globalThis as RuntimeGlobals;
  if (g.Bun !== undefined) return { name: 'bun', version: g.Bun.version };
  if (g.Deno !== undefined) return { name: 'deno', version: g.Deno.version?.deno };
  // workerd under nodejs_compat has a `process` that names a Node version: its navigator says what it is.
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return { name: 'workerd' };
  const node = g.process?.versions?.node;
  if (typeof node === 'string') return { name: 'node', version: node };
  return { name: 'unknown' };
}

/** `name/version` of the runtime for a User-Agent (`node/24.1.0`, `bun/1.2.3`, `workerd`); never throws. */
export function runtimeProduct(): string {
  const { name, version } = detectRuntime();
  if (name === 'unknown') return 'js';
  return version === undefined ? name : `${name}/${version}`;
}

let undici: Promise<typeof import('undici')> | undefined;

/**
 * Sends one attempt: undici `request` on Node or with a dispatcher, the platform `fetch` elsewhere.
 * @throws what the transport throws when no answer arrived (network error, abort, timeout).
 */
export async function sendAttempt(req: TransportRequest): Promise<TransportAnswer> {
  if (req.dispatcher !== undefined || detectRuntime().name === 'node') {
    undici ??= import('undici');
    const { request } = await undici;
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal,
      dispatcher: req.dispatcher,
    });
    return { status: res.statusCode, headers: res.headers, bodyText: await res.body.text() };
  }
  const res = await fetch(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body ?? null,
    signal: req.signal,
    redirect: 'manual',
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, headers, bodyText: await res.text() };
}
