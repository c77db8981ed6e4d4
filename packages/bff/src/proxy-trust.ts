/**
 * What the BFF believes of a request that came through reverse proxies: the visitor's address (per-visitor limits)
 * and the shop's own origin (the cross-site checks). Both come only from hops the Express app trusts (its
 * `trust proxy` setting: `startBff`'s `trustProxy`, the standalone server's `DOMAINKIT_TRUST_PROXY`, or the
 * partner's own app), never from what a visitor sends: a number of hops in front, or the proxies' addresses.
 *
 * - The visitor's address: `X-Forwarded-For` read from the right, past the trusted hops (proxy-addr, as Express's
 *   `req.ip`).
 * - The shop's own origin: the scheme and host the outermost trusted proxy received, from its `Forwarded` element
 *   (RFC 7239 section 5.3, 5.4) or else `X-Forwarded-Proto` / `X-Forwarded-Host`, each read from the right past the
 *   trusted hops; without a trusted proxy, the connection's own scheme and `Host`.
 *
 * An app whose `trust proxy` is `true` (every hop, so any client could write its own `X-Forwarded-For`) is read as
 * trusting the nearest hop only, and told once at `warn` what to set.
 */
import type { Request } from 'express';
import parseForwarded from 'forwarded-parse';
import proxyaddr from 'proxy-addr';
import type { Logger } from 'pino';

/** A trust-proxy setting the BFF takes: hops in front (0 = none), or the proxies' addresses and CIDR ranges. */
export type TrustProxySetting = number | readonly string[];

/** What to set instead of a refused value, for messages. */
export const TRUST_PROXY_HELP =
  'the number of proxies in front (such as 1), or their addresses and CIDR ranges (such as "10.0.0.0/8, 192.0.2.7", or "loopback")';

/** proxy-addr's names for address ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** At most this many hops (more is surely a typo for an address). */
const MAX_HOPS = 32;

/**
 * Reads a trust-proxy value: a whole number of hops (a number, or digits as the environment gives them), `false`
 * (none), or addresses, CIDR ranges and proxy-addr's range names (`loopback`, `linklocal`, `uniquelocal`) as a
 * list or one comma-separated string.
 * @returns the setting, or `{problem}`: a sentence saying what is wrong and what to set instead. `true` is refused:
 *   it trusts every hop, so any client can forge `X-Forwarded-For` and pass the visitor limits.
 */
export function readTrustProxy(value: unknown): { setting: TrustProxySetting } | { problem: string } {
  if (value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true'))
    return {
      problem: `must not be true: that trusts every hop, so any client can send its own X-Forwarded-For and pass the visitor limits; set ${TRUST_PROXY_HELP}`,
    };
  if (value === false || (typeof value === 'string' && value.trim().toLowerCase() === 'false')) return { setting: 0 };
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) value = Number(value);
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= 0 && value <= MAX_HOPS
      ? { setting: value }
      : { problem: `must be a whole number of hops from 0 to ${MAX_HOPS}, or addresses; set ${TRUST_PROXY_HELP}` };
  const entries =
    typeof value === 'string'
      ? value.split(',').map((entry) => entry.trim())
      : Array.isArray(value) && value.every((entry) => typeof entry === 'string')
        ? (value as string[]).map((entry) => entry.trim())
        : undefined;
  if (entries === undefined || entries.length === 0 || entries.some((entry) => entry === ''))
    return { problem: `must be ${TRUST_PROXY_HELP}` };
  for (const entry of entries) {
    if (RANGE_NAMES.has(entry)) continue;
    try {
      proxyaddr.compile(entry);
    } catch {
      return {
        problem: `holds ${JSON.stringify(entry.slice(0, 60))}, which is no address, CIDR range or range name; set ${TRUST_PROXY_HELP}`,
      };
    }
  }
  return { setting: entries };
}

type TrustFn = (address: string, hop: number) => boolean;

/** Trusts the nearest hop only. */
const NEAREST_HOP: TrustFn = (_address, hop) => hop < 1;

/** How the BFF reads the proxies in front of it: made once per router by `createBff`. */
export interface ProxyTrust {
  /** The visitor's IP address (what the nearest untrusted hop connected from). */
  clientAddress(req: Request): string;
  /**
   * The shop's own origin as the visitor's browser addressed it, such as `https://shop.example`: the scheme and host
   * the outermost trusted proxy received, else the connection's own. Lower-case, default port left out (as browsers
   * serialise `Origin`); the connection's own origin when a forwarded value is malformed.
   */
  ownOrigin(req: Request): string;
}

/** The trust of the requests' apps, `true` read as the nearest hop (said once per app at `warn` on `logger`). */
export function proxyTrust(logger: Logger | undefined): ProxyTrust {
  const warned = new WeakSet<object>();
  const trustOf = (req: Request): TrustFn | undefined => {
    const app = req.app;
    if (app === undefined) return undefined;
    const setting: unknown = app.get('trust proxy');
    if (setting === false || setting === 0 || setting === undefined) return undefined;
    if (setting === true) {
      if (!warned.has(app)) {
        warned.add(app);
        logger?.warn(
          `the app's Express trust proxy is true, which would let any client forge X-Forwarded-For: the BFF trusts only the nearest hop; set trust proxy to ${TRUST_PROXY_HELP}`,
        );
      }
      return NEAREST_HOP;
    }
    return app.get('trust proxy fn') as TrustFn;
  };
  const connectionOrigin = (req: Request): string =>
    `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${(req.headers.host ?? '').toLowerCase()}`;
  return {
    clientAddress(req) {
      const trust = trustOf(req);
      return trust === undefined ? (req.socket.remoteAddress ?? '') : proxyaddr(req, trust);
    },
    ownOrigin(req) {
      const trust = trustOf(req);
      if (trust === undefined) return connectionOrigin(req);
      // [the nearest hop, then X-Forwarded-For from the right], up to and including the first untrusted one.
      const chain = proxyaddr.all(req, trust);
      const hops = chain.length > 1 ? chain.length - 1 : trust(chain[0] ?? '', 0) ? 1 : 0;
      if (hops === 0) return connectionOrigin(req);
      const element = forwardedElement(req.headers.forwarded, hops);
      const proto = element?.proto ?? fromTheRight(req.headers['x-forwarded-proto'], hops);
      const host = element?.host ?? fromTheRight(req.headers['x-forwarded-host'], hops);
      if (proto === undefined && host === undefined) return connectionOrigin(req);
      const scheme = (proto ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http')).toLowerCase();
      const authority = host ?? req.headers.host ?? '';
      if ((scheme !== 'http' && scheme !== 'https') || !/^[A-Za-z0-9.\-[\]:]{1,260}$/.test(authority))
        return connectionOrigin(req);
      try {
        return new URL(`${scheme}://${authority}`).origin;
      } catch {
        return connectionOrigin(req);
      }
    },
  };
}

/** The element of a `Forwarded` header the outermost of `hops` trusted proxies added (RFC 7239 section 4). */
function forwardedElement(header: string | undefined, hops: number): Record<string, string> | undefined {
  if (header === undefined) return undefined;
  try {
    const elements = parseForwarded(header);
    return elements[Math.max(0, elements.length - hops)];
  } catch {
    return undefined; // malformed: believed for nothing
  }
}

/** The entry of a comma-separated `X-Forwarded-*` header the outermost of `hops` trusted proxies added. */
function fromTheRight(header: string | string[] | undefined, hops: number): string | undefined {
  if (header === undefined) return undefined;
  const entries = (Array.isArray(header) ? header.join(',') : header).split(',');
  const entry = entries[Math.max(0, entries.length - hops)]?.trim();
  return entry === '' ? undefined : entry;
}
