/**
 * What the BFF believes of a request that came through reverse proxies: the visitor's address (per-visitor limits)
 * and the shop's own origin (the cross-site checks). Both come only from hops that are trusted (the handler's
 * `trustProxy`, `startBff`'s `trustProxy`, the standalone server's `DOMAINKIT_TRUST_PROXY`, or, for `createBff`, the
 * partner's Express app's `trust proxy`), never from what a visitor sends: a number of hops in front, or the proxies'
 * addresses. The host gives the address its connection came from (`clientAddress`); the rest is weighed as Express's
 * proxy-addr weighs it.
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
import parseForwarded from 'forwarded-parse';
import ipaddr from 'ipaddr.js';

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
      parseRange(entry);
    } catch {
      return {
        problem: `holds ${JSON.stringify(entry.slice(0, 60))}, which is no address, CIDR range or range name; set ${TRUST_PROXY_HELP}`,
      };
    }
  }
  return { setting: entries };
}

/** Whether the hop at `hop` (0 = the connection's peer) with `address` is a trusted proxy (proxy-addr's shape). */
export type TrustFn = (address: string, hop: number) => boolean;

/** Trusts the nearest hop only (what an Express app's `trust proxy: true` is read as). */
export const NEAREST_HOP: TrustFn = (_address, hop) => hop < 1;

/** The trust function of a setting, as Express compiles `trust proxy`; undefined when nothing is trusted. */
export function compileTrust(setting: TrustProxySetting): TrustFn | undefined {
  if (typeof setting === 'number') return setting === 0 ? undefined : (_address, hop) => hop < setting;
  const ranges = setting.flatMap((entry) => (RANGE_NAMES.has(entry) ? NAMED_RANGES[entry]! : [entry])).map(parseRange);
  return (address) => {
    let ip: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      ip = ipaddr.parse(address);
    } catch {
      return false;
    }
    const v4 =
      ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()
        ? (ip as ipaddr.IPv6).toIPv4Address()
        : undefined;
    return ranges.some(([range, bits]) => {
      if (range.kind() === ip.kind()) return ip.match(range, bits);
      if (range.kind() === 'ipv4' && v4 !== undefined) return v4.match(range, bits);
      // An IPv4 address against an IPv6 range: as its IPv4-mapped form.
      return (
        range.kind() === 'ipv6' && ip.kind() === 'ipv4' && (ip as ipaddr.IPv4).toIPv4MappedAddress().match(range, bits)
      );
    });
  };
}

/** proxy-addr's range names, as address ranges. */
const NAMED_RANGES: Record<string, string[]> = {
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  loopback: ['127.0.0.1/8', '::1/128'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * An address (`192.0.2.7`, `::1`), CIDR range (`10.0.0.0/8`) or IPv4 range with a netmask (`10.0.0.0/255.0.0.0`)
 * as `[address, prefix bits]`; an IPv4-mapped IPv6 address is read as IPv4.
 * @throws {Error} for anything else.
 */
function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const slash = entry.lastIndexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address))
    throw new Error(`not an address: ${entry}`);
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const max = ip.kind() === 'ipv6' ? 128 : 32;
  if (slash === -1) return [ip, max];
  const range = entry.slice(slash + 1);
  const bits = /^\d+$/.test(range)
    ? Number(range)
    : ip.kind() === 'ipv4' && ipaddr.IPv4.isValid(range)
      ? ipaddr.IPv4.parse(range).prefixLengthFromSubnetMask()
      : null;
  if (bits === null || bits < 0 || bits > max) throw new Error(`not a range: ${entry}`);
  return [ip, bits];
}

/**
 * The hops of a request, nearest first: the connection's peer, then `X-Forwarded-For` from the right, up to and
 * including the first hop that is not trusted (proxy-addr's `all`).
 */
function hopsOf(peer: string, forwardedFor: string | undefined, trust: TrustFn): string[] {
  const addresses = [
    peer,
    ...(forwardedFor ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .reverse(),
  ];
  for (let hop = 0; hop < addresses.length - 1; hop++)
    if (!trust(addresses[hop]!, hop)) return addresses.slice(0, hop + 1);
  return addresses;
}

/** What the BFF believes of one request's route through the proxies in front. */
export interface ProxyView {
  /** The visitor's IP address (what the nearest untrusted hop connected from); `''` when unknown. */
  readonly clientAddress: string;
  /**
   * The shop's own origin as the visitor's browser addressed it, such as `https://shop.example`: the scheme and host
   * the outermost trusted proxy received, else (behind a Vercel- or Cloudflare-style platform proxy, which the
   * partner need not list) what that proxy says, else the request URL's own. Lower-case, default port left out (as
   * browsers serialise `Origin`); the URL's own origin when a forwarded value is malformed. Computed when asked.
   */
  ownOrigin(): string;
}

/** The header getter the view reads (a `Headers`' `get`, or a Node request's). */
export type HeaderGetter = (name: string) => string | undefined;

/**
 * Reads a request's proxies.
 * @param url - the request URL as the host gave it (its scheme and host are the connection's own).
 * @param peer - the address the connection came from (the host's `clientAddress`), `''` when unknown.
 * @param trust - which hops are trusted; undefined for none.
 */
export function proxyView(header: HeaderGetter, url: URL, peer: string, trust: TrustFn | undefined): ProxyView {
  const own = (): string => url.origin.toLowerCase();
  if (trust === undefined) return { clientAddress: peer, ownOrigin: () => platformOrigin(header, url) ?? own() };
  const chain = hopsOf(peer, header('x-forwarded-for'), trust);
  return {
    clientAddress: chain[chain.length - 1]!,
    ownOrigin() {
      // [the nearest hop, then X-Forwarded-For from the right], up to and including the first untrusted one.
      const hops = chain.length > 1 ? chain.length - 1 : trust(chain[0] ?? '', 0) ? 1 : 0;
      if (hops === 0) return platformOrigin(header, url) ?? own();
      const element = forwardedElement(header('forwarded'), hops);
      const proto = element?.proto ?? fromTheRight(header('x-forwarded-proto'), hops);
      const host = element?.host ?? fromTheRight(header('x-forwarded-host'), hops);
      if (proto === undefined && host === undefined) return own();
      return originOf(proto ?? url.protocol.slice(0, -1), host ?? url.host) ?? own();
    },
  };
}

/**
 * Whether the visitor's browser used HTTPS (the scheme of {@link proxyView}'s `ownOrigin`), read without building the
 * request URL where nothing can change it: no trusted proxy and no platform proxy header, then it is the
 * connection's own scheme.
 * @param encrypted - whether the connection itself is TLS.
 * @param url - the request URL, built only when a proxy header has to be weighed.
 * @param peer - the connection's peer address (`''` when unknown), or a function giving it, called only when a proxy
 *   header has to be weighed.
 */
export function isSecure(
  header: HeaderGetter,
  encrypted: boolean,
  url: () => URL,
  peer: string | (() => string),
  trust: TrustFn | undefined,
): boolean {
  if (trust === undefined && header('x-vercel-id') === undefined && header('cf-visitor') === undefined)
    return encrypted;
  return proxyView(header, url(), typeof peer === 'string' ? peer : peer(), trust)
    .ownOrigin()
    .startsWith('https:');
}

/** `scheme://authority` as browsers serialise an origin, or undefined when either part is not one. */
function originOf(proto: string, authority: string): string | undefined {
  const scheme = proto.toLowerCase();
  if ((scheme !== 'http' && scheme !== 'https') || !/^[A-Za-z0-9.\-[\]:]{1,260}$/.test(authority)) return undefined;
  try {
    return new URL(`${scheme}://${authority}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin a platform's own edge proxy says the visitor used, where that proxy always sets its headers (a client
 * cannot reach the function around it): Vercel (`x-vercel-id` with `X-Forwarded-Proto` / `X-Forwarded-Host`) and
 * Cloudflare (`cf-visitor: {"scheme":"https"}`, the `Host` kept). Without such a proxy a client could send the same
 * headers, but it could send any `Host` as well: these headers let it claim nothing more, and a browser page cannot
 * set them on a cross-site request without a preflight the BFF refuses.
 */
function platformOrigin(header: HeaderGetter, url: URL): string | undefined {
  if (header('x-vercel-id') !== undefined) {
    const proto = header('x-forwarded-proto')?.split(',', 1)[0]?.trim();
    const host = header('x-forwarded-host')?.split(',', 1)[0]?.trim();
    if (proto === undefined && host === undefined) return undefined;
    return originOf(proto ?? url.protocol.slice(0, -1), host ?? url.host);
  }
  const visitor = header('cf-visitor');
  if (visitor !== undefined) {
    const scheme = /"scheme"\s*:\s*"(https?)"/.exec(visitor)?.[1];
    return scheme === undefined ? undefined : originOf(scheme, url.host);
  }
  return undefined;
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
function fromTheRight(header: string | undefined, hops: number): string | undefined {
  if (header === undefined) return undefined;
  const entries = header.split(',');
  const entry = entries[Math.max(0, entries.length - hops)]?.trim();
  return entry === '' ? undefined : entry;
}
