/**
 * Where the sandbox may send webhooks (docs/spec-decisions.md "Webhook URLs: public addresses only"), and the one
 * sender that delivers them (the outbox and the admin ping).
 *
 * A webhook host must resolve to public addresses only: every address it names is checked, and one that is private
 * (RFC 1918, IPv6 unique-local), link-local (cloud metadata at 169.254.169.254), carrier-grade NAT (another metadata
 * range), unspecified, multicast, broadcast, reserved, or an IPv6 form embedding an IPv4 address (NAT64, 6to4,
 * Teredo) refuses the URL. Loopback is allowed, for local development, except the port the sandbox itself listens
 * on. The check runs at registration (`PUT /webhooks`, 400 `validation_error`) and again when each request connects:
 * the sender resolves the name itself and connects to the address it checked, so a name rebound to a private
 * address after registration (DNS rebinding) gets nothing. Redirects are never followed.
 */
import dns, { type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch } from 'undici';
import { apiError } from '../http/api-error.ts';

/** The ports the sandbox listens on (its own app's requests arrive there): never a webhook target on loopback. */
export type OwnPorts = ReadonlySet<number>;

/** Why a webhook target is refused; its message says what to fix. */
export class WebhookTargetError extends Error {
  override readonly name = 'WebhookTargetError';
  readonly code = 'EWEBHOOKTARGET';
}

/**
 * Classifies one IP address (IPv4, or IPv6 without brackets): `public` (ipaddr.js range `unicast`), `loopback`
 * (127.0.0.0/8, ::1, and their IPv4-mapped forms), or the name of the range that makes it `refused`.
 */
export function classifyAddress(
  address: string,
): { kind: 'public' } | { kind: 'loopback' } | { kind: 'refused'; range: string } {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return { kind: 'refused', range: 'malformed' };
  }
  const range = parsed.range();
  if (range === 'unicast') return { kind: 'public' };
  if (range === 'loopback') return { kind: 'loopback' };
  return { kind: 'refused', range };
}

const RANGE_NAMES: Record<string, string> = {
  private: 'a private address',
  uniqueLocal: 'a private (unique-local) address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  carrierGradeNat: 'a carrier-grade NAT address (cloud metadata lives there)',
  unspecified: 'the unspecified address (it reaches this host)',
};

/** The refusal for `address` (reached as `host`), or `undefined` when it may be a webhook target on `port`. */
export function addressProblem(address: string, host: string, port: number, ownPorts: OwnPorts): string | undefined {
  const verdict = classifyAddress(address);
  if (verdict.kind === 'public') return undefined;
  const subject = host === address ? address : `${host} resolves to ${address}, which`;
  if (verdict.kind === 'loopback')
    return ownPorts.has(port)
      ? `${subject} is this sandbox itself (port ${port}): register your own receiver, on another port.`
      : undefined;
  const what = RANGE_NAMES[verdict.range] ?? `a ${verdict.range} address`;
  return `${subject} is ${what}, not a public address: webhooks are delivered to public addresses only (or to loopback, for local development).`;
}

function defaultPort(url: URL): number {
  return url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Resolves a name as the connection will (every address, the system resolver). */
function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dns.lookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

/** True when the host names one of the loopback names that may use plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * Checks a webhook URL at registration: no user info; `https`, or plain `http` to a loopback host; and every address
 * its host resolves to public, or loopback on a port other than the sandbox's. A name that does not resolve (yet) is
 * accepted: every delivery resolves it again.
 * @throws {ProtocolError} `validation_error` (Partner API spec 7: a malformed field) naming the problem.
 */
export async function checkWebhookUrl(raw: string, ownPorts: OwnPorts): Promise<URL> {
  const url = new URL(raw);
  if (url.username !== '' || url.password !== '')
    throw apiError(
      'validation_error',
      'url must not contain a user name or password: authenticate deliveries with the signature instead.',
    );
  if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) {
    throw apiError(
      'validation_error',
      `url must use https:// (plain http:// is accepted only for loopback hosts such as localhost or 127.0.0.1); received ${url.protocol}//${url.host}.`,
    );
  }
  const host = bare(url.hostname);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
    } catch {
      addresses = [];
    }
  }
  for (const address of addresses) {
    const problem = addressProblem(address, host, defaultPort(url), ownPorts);
    if (problem !== undefined) throw apiError('validation_error', `url: ${problem}`);
  }
  return url;
}

/** What one webhook request got back. */
export interface WebhookAttempt {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/** Sends webhook requests to checked addresses only. */
export interface WebhookSender {
  /**
   * POSTs `body` with `headers` to `url`, within `timeoutMs`; only an HTTP 200 is a success (`error: null`).
   * Never throws: a refused target, a network error or a timeout is an `error` saying what happened.
   */
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAttempt>;
  /** Closes the sender's connections. Safe to call twice. */
  close(): Promise<void>;
}

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
    if (err.cause instanceof WebhookTargetError) return `refused: ${err.cause.message}`;
    const code = (err.cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return `connection failed (${code})`;
    return err.message.slice(0, 200);
  }
  return String(err).slice(0, 200);
}

/**
 * The webhook sender: an undici agent whose connector checks the address of every connection it opens (an IP
 * literal as it is, a name through its own lookup), so what was checked is what is connected to.
 * @param options.timeoutMs - the acknowledgement timeout (Partner API spec 8: 5 s).
 * @param options.ownPorts - the sandbox's listening ports (refused on loopback).
 */
export function createWebhookSender(options: { timeoutMs: number; ownPorts: OwnPorts }): WebhookSender {
  const { timeoutMs, ownPorts } = options;
  const connectors = new Map<number, buildConnector.connector>();
  const connectorFor = (port: number) => {
    let connector = connectors.get(port);
    if (connector === undefined) {
      connector = buildConnector({
        timeout: timeoutMs,
        lookup(hostname: string, lookupOptions: dns.LookupOptions, callback: (...args: unknown[]) => void) {
          resolveAll(hostname).then(
            (addresses) => {
              for (const { address } of addresses) {
                const problem = addressProblem(address, hostname, port, ownPorts);
                if (problem !== undefined) return callback(new WebhookTargetError(problem));
              }
              if (lookupOptions.all === true) return callback(null, addresses);
              const first = addresses[0]!;
              callback(null, first.address, first.family);
            },
            (err: unknown) => callback(err),
          );
        },
      } as buildConnector.BuildOptions);
      connectors.set(port, connector);
    }
    return connector;
  };
  const agent = new Agent({
    connect(connectOptions, callback) {
      const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
      const host = bare(connectOptions.hostname);
      if (isIP(host) !== 0) {
        const problem = addressProblem(host, host, port, ownPorts);
        if (problem !== undefined) return callback(new WebhookTargetError(problem), null);
      }
      connectorFor(port)(connectOptions, callback);
    },
  });
  let closing: Promise<void> | undefined;
  return {
    async post(url, headers, body) {
      const started = performance.now();
      let statusCode: number | null = null;
      let error: string | null = null;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'domainkit-sandbox-webhooks/1', ...headers },
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
          dispatcher: agent,
        });
        statusCode = res.status;
        await res.body?.cancel().catch(() => undefined);
        if (statusCode === 410) error = 'answered HTTP 410 Gone: the endpoint was disabled';
        else if (statusCode !== 200) error = `answered HTTP ${statusCode}; only 200 acknowledges a delivery`;
      } catch (err) {
        error = describeFailure(err, timeoutMs);
      }
      return { statusCode, error, durationMs: Math.round(performance.now() - started) };
    },
    close: () => (closing ??= agent.close()),
  };
}
