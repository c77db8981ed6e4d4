/**
 * Readiness that proves the credential: cheap signed calls that succeed only with the right key id, secret and
 * scopes (Partner API spec 5.1 and its scope table), made at start and then periodically, the outcome cached.
 * `GET /readyz` answers 503 with the reason until they succeed, and `domainkit-bff --check` exits non-zero with it.
 *
 * | probe | proves | counts as success |
 * |---|---|---|
 * | `GET /domains/{probe}` | signature, scope `search` | any answer but 401/403 (an unlisted name answers 404) |
 * | `POST /checkout-session` `{domain: probe}` | scope `embed` (`POST /checkout` of the BFF) | 404/400/409: refused after the scope check, nothing is created |
 * | `GET /orders?limit=1` | scope `buy` (with `payments`) | 200 |
 * | `GET /events?limit=1` | scope `webhook` (with `webhook`) | 200 |
 *
 * The probe domain is under `.invalid` (RFC 2606): never listed, never sold. Reasons: `invalid_signature`,
 * `missing_credentials`, `invalid_timestamp` (the clock is off), `forbidden: scope <s> missing`, `unreachable`,
 * `marketplace_error` (5xx), or the marketplace's own code.
 */
import { MarketplaceConnectionError, MarketplaceError } from '@domainkit/client';
import type { Logger } from 'pino';
import type { MarketplaceApi } from '../options.ts';

/** The name probed: never listed (RFC 2606 reserves `.invalid`). */
export const PROBE_DOMAIN = 'domainkit-readiness-probe.invalid';

/**
 * The outcome of a check. A failure is `degraded` when it says the marketplace is down or unreachable
 * ({@link OUTAGE_REASONS}) after the credential was proven once: nothing says the credential stopped working, and
 * the BFF still serves what it holds (`/readyz` answers 200 `degraded`). Any other failure is the credential's.
 */
export type CredentialStatus =
  | { readonly ok: true; readonly checkedAt: number }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly message: string;
      readonly checkedAt: number;
      /** The marketplace is down or unreachable, and the credential worked before. */
      readonly degraded?: boolean | undefined;
    };

/**
 * Reasons that say the marketplace is down or out of reach (no answer, a timeout, a 5xx), not that the credential
 * is wrong: `invalid_signature`, `forbidden: scope … missing`, `invalid_timestamp` and every other refusal are.
 */
export const OUTAGE_REASONS: ReadonlySet<string> = new Set(['unreachable', 'marketplace_error']);

/** Which scopes the BFF's configuration needs beyond `search` and `embed`. */
export interface CredentialNeeds {
  readonly buy: boolean;
  readonly webhook: boolean;
}

/** The reason of a failed probe, as `/readyz` and `--check` name it. */
export function reasonOf(error: unknown, scope: string): { reason: string; message: string } {
  if (error instanceof MarketplaceConnectionError) return { reason: 'unreachable', message: error.message };
  if (error instanceof MarketplaceError) {
    if (error.status === 403) return { reason: `forbidden: scope ${scope} missing`, message: error.message };
    if (error.status !== undefined && error.status >= 500)
      return { reason: 'marketplace_error', message: error.message };
    return { reason: error.code, message: error.message };
  }
  return { reason: 'unreachable', message: error instanceof Error ? error.message : String(error) };
}

/** Options of one round of probes. */
export interface ProbeOptions {
  /**
   * Also run the probe that is a write (`POST /checkout-session`, scope `embed`); default true. It spends one token
   * of the write budget (20 a minute, Partner API spec 8) that a visitor's purchase may need, so the probe at start
   * leaves it out: `/readyz` and `--check` run it.
   */
  readonly writes?: boolean;
}

/**
 * Runs the probes once, in order, stopping at the first failure.
 * @returns the status (never throws).
 */
export async function checkCredential(
  client: MarketplaceApi,
  needs: CredentialNeeds,
  now: () => number = Date.now,
  options: ProbeOptions = {},
): Promise<CredentialStatus> {
  const context = { maxWaitMs: 5_000 };
  const probes: Array<{ scope: string; run: () => Promise<unknown>; accepted: readonly number[] }> = [
    { scope: 'search', run: () => client.getDomain(PROBE_DOMAIN, { context }), accepted: [404, 400] },
  ];
  if (options.writes !== false)
    probes.push({
      scope: 'embed',
      run: () => client.createCheckoutSession({ domain: PROBE_DOMAIN }, { context }),
      accepted: [404, 400, 409, 422],
    });
  if (needs.buy) probes.push({ scope: 'buy', run: () => firstPage(client.orders.list({ limit: 1 })), accepted: [] });
  if (needs.webhook)
    probes.push({ scope: 'webhook', run: () => firstPage(client.events.list({ limit: 1 })), accepted: [] });
  for (const probe of probes) {
    try {
      await probe.run();
    } catch (error) {
      // 429: the marketplace authenticated the call before limiting it; a spent budget of our own proves nothing.
      if (
        error instanceof MarketplaceError &&
        error.status !== undefined &&
        [...probe.accepted, 429].includes(error.status)
      )
        continue;
      if (error instanceof Error && error.name === 'UpstreamBusyError') continue;
      return { ok: false, ...reasonOf(error, probe.scope), checkedAt: now() };
    }
  }
  return { ok: true, checkedAt: now() };
}

async function firstPage(iterator: { pages(): AsyncGenerator<unknown> }): Promise<void> {
  for await (const _page of iterator.pages()) return;
}

/** Options of {@link CredentialCheck}. */
export interface CredentialCheckOptions {
  readonly client: MarketplaceApi;
  readonly needs: CredentialNeeds;
  readonly logger: Logger;
  readonly now: () => number;
  /** How long a success is trusted before the next probe (ms). */
  readonly okTtlMs: number;
  /** How long a failure is kept before probing again (ms). */
  readonly failedTtlMs: number;
}

/**
 * The cached credential status: {@link CredentialCheck.status} probes when the cached outcome is older than its
 * TTL (one probe at a time), and a change of outcome is logged (`warn` with the reason, `info` once it succeeds).
 */
export class CredentialCheck {
  readonly #o: CredentialCheckOptions;
  #last: CredentialStatus | undefined;
  #running: Promise<CredentialStatus> | undefined;
  /** Whether the probes have succeeded once (so an outage since is `degraded`, not a refusal). */
  #proven = false;

  constructor(options: CredentialCheckOptions) {
    this.#o = options;
  }

  /** The last outcome, without probing (undefined before the first). */
  get last(): CredentialStatus | undefined {
    return this.#last;
  }

  /** The status: cached while fresh, else probed now. Never throws. */
  async status(): Promise<CredentialStatus> {
    const last = this.#last;
    if (last !== undefined && this.#o.now() - last.checkedAt < (last.ok ? this.#o.okTtlMs : this.#o.failedTtlMs))
      return last;
    return this.refresh();
  }

  /**
   * Probes now (joining a probe in flight). With `writes: false` (the probe at start) the write probe is left out,
   * and a success is not cached, since it proved less than `/readyz` asks; a failure is.
   */
  refresh(options: ProbeOptions = {}): Promise<CredentialStatus> {
    this.#running ??= checkCredential(this.#o.client, this.#o.needs, this.#o.now, options)
      .then((probed) => {
        const before = this.#last;
        if (probed.ok) this.#proven = true;
        const status: CredentialStatus =
          !probed.ok && this.#proven && OUTAGE_REASONS.has(probed.reason) ? { ...probed, degraded: true } : probed;
        if (!status.ok || options.writes !== false) this.#last = status;
        if (!status.ok && (before === undefined || before.ok || before.reason !== status.reason)) {
          if (status.degraded)
            this.#o.logger.warn(
              { reason: status.reason, detail: status.message },
              'the marketplace cannot be reached: /readyz answers 200 degraded, searches are served from the cache',
            );
          else
            this.#o.logger.warn(
              { reason: status.reason, detail: status.message },
              'the marketplace credential does not work: /readyz answers 503 until it does',
            );
        } else if (status.ok && before !== undefined && !before.ok)
          this.#o.logger.info(
            before.degraded ? 'the marketplace answers again' : 'the marketplace credential works again',
          );
        return status;
      })
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }
}
