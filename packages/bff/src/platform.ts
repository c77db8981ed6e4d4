/**
 * What the BFF asks of the runtime it runs on, read from globals at call time (never at import): which runtime it
 * is, `NODE_ENV`, and timers that do not keep a process alive. Node, Bun, Deno and Cloudflare workerd (with
 * `nodejs_compat`) all load this module.
 */

interface RuntimeGlobals {
  readonly Bun?: { readonly version?: string };
  readonly Deno?: { readonly version?: { readonly deno?: string } };
  readonly process?: { readonly versions?: { readonly node?: string }; readonly env?: Record<string, unknown> };
  readonly navigator?: { readonly userAgent?: string };
}

/** The JavaScript runtime: `workerd` (Cloudflare Workers), `bun`, `deno`, `node`, or `unknown`. */
export type RuntimeName = 'node' | 'bun' | 'deno' | 'workerd' | 'unknown';

/** Which runtime this is, and its version when it says (workerd does not). */
export function detectRuntime(): { readonly name: RuntimeName; readonly version?: string | undefined } {
  const g = globalThis as RuntimeGlobals;
  if (g.Bun !== undefined) return { name: 'bun', version: g.Bun.version };
  if (g.Deno !== undefined) return { name: 'deno', version: g.Deno.version?.deno };
  // workerd under nodejs_compat has a `process` naming a Node version: its navigator says what it really is.
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return { name: 'workerd' };
  const node = g.process?.versions?.node;
  return typeof node === 'string' ? { name: 'node', version: node } : { name: 'unknown' };
}

/** True on Cloudflare workerd, where a socket belongs to the request that opened it and timers end with it. */
export function isWorkerd(): boolean {
  return detectRuntime().name === 'workerd';
}

/** `node/24.1.0`, `bun/1.2.0`, `deno/2.1.0`, `workerd` or `js`: the runtime part of a User-Agent. */
export function runtimeProduct(): string {
  const { name, version } = detectRuntime();
  if (name === 'unknown') return 'js';
  return version === undefined ? name : `${name}/${version}`;
}

/**
 * `process.env.NODE_ENV`, or `undefined` where there is no `process` or it may not be read (Deno without
 * `--allow-env` throws on the read). Never throws.
 */
export function nodeEnv(): string | undefined {
  try {
    const value = (globalThis as RuntimeGlobals).process?.env?.NODE_ENV;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lets a timer not keep the process alive where timers can (`unref` on Node and Bun); elsewhere (Deno's numeric
 * ids, workerd) nothing. Returns the timer.
 */
export function unrefTimer<T>(timer: T): T {
  (timer as { unref?: () => unknown } | undefined)?.unref?.();
  return timer;
}
