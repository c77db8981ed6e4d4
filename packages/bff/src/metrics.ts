/**
 * The BFF's metrics, in the Prometheus text exposition format (prom-client), served at `GET /metrics` when the
 * `metrics` option is on, or mounted anywhere with {@link BffMetrics.handler}. One registry per `createBff`
 * (never prom-client's global one, so two BFFs in one process never mix their figures).
 *
 * | metric | type | labels | what |
 * |---|---|---|---|
 * | `domainkit_bff_upstream_requests_total` | counter | `class`, `status` | Partner API attempts (retries count), by Partner API spec 8 rate class and HTTP status (`0`: no answer) |
 * | `domainkit_bff_upstream_request_duration_seconds` | histogram | `class` | time of each attempt |
 * | `domainkit_bff_budget_tokens` | gauge | `class` | tokens left in the upstream budget's bucket (Partner API spec 8: 60 searches, 20 writes a minute) |
 * | `domainkit_bff_budget_paused_seconds` | gauge | `class` | seconds left of a pause ordered by a 429's `Retry-After` (0: not paused) |
 * | `domainkit_bff_budget_pauses_total` | counter | `class` | 429 answers that paused the budget |
 * | `domainkit_bff_cache_lookups_total` | counter | `cache`, `result` | search and siblings cache: `hit`, `miss`, `stale`, `coalesced`, `stale_if_error` |
 * | `domainkit_bff_visitor_refusals_total` | counter | `status`, `route` | visitor answers 503 (`busy`, upstream budget spent) and 429 (visitor limits) |
 * | `domainkit_bff_purchase_intents` | gauge | `state` | MoR order intents of this credential by state (`created`, `paid`, `recorded`, …) |
 * | `domainkit_bff_recovery_backlog` | gauge | | intents paid or created but not yet recorded upstream (what recovery still has to finish) |
 * | `domainkit_bff_mcp_tool_calls_total` | counter | `tool`, `outcome` | MCP tool calls (option `mcp`) by tool and outcome: `ok`, `busy` (upstream budget spent), `over_allowance` (the agent's allowance spent), `error` |
 * | `domainkit_bff_webhook_verification_failures_total` | counter | | deliveries refused because the signature did not verify |
 * | `domainkit_bff_inbox_pending` | gauge | | webhook and catch-up events stored but not yet handled |
 * | `domainkit_bff_inbox_lag_seconds` | gauge | | age of the oldest event not yet handled (0 when none) |
 * | `domainkit_bff_degraded` | gauge | `reason` | 1 while `/readyz` answers `degraded` (the marketplace down or unreachable after a first success: `unreachable`, `marketplace_error`); else one series `reason="none"` at 0 |
 *
 * Gauges read from the database and the budget when scraped; counters are recorded by the code that sees the
 * event, through the methods below (the seam other modules record into).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AttemptReport } from '@domainkit/client';
import type { RequestHandler } from 'express';
import type { Counter, Histogram, Registry } from 'prom-client';

/** The prom-client module (`import * as prom from 'prom-client'`). */
export type PromClient = typeof import('prom-client');

/** A bucket's state as the budget sees it now. */
export interface BudgetSnapshot {
  readonly rateClass: string;
  /** Whole and fractional tokens left. */
  readonly tokens: number;
  /** Milliseconds left of a 429 pause (0 when none). */
  readonly pausedMs: number;
}

/** Figures read from the database when scraped. */
export interface StoreSnapshot {
  /** Intent counts by state. */
  readonly intents: Readonly<Record<string, number>>;
  /** Intents not yet recorded upstream (`created`, `paid`). */
  readonly recoveryBacklog: number;
  /** Inbox events not yet handled. */
  readonly inboxPending: number;
  /** Age in seconds of the oldest one (0 when none). */
  readonly inboxLagSeconds: number;
}

/** Where the scraped gauges come from (set by the runtime once it has them). */
export interface MetricsSources {
  budget?: (() => Promise<readonly BudgetSnapshot[]>) | undefined;
  store?: (() => Promise<StoreSnapshot | undefined>) | undefined;
  /** Why readiness is degraded now, or `undefined` when it is not. */
  degraded?: (() => string | undefined) | undefined;
}

/** Compares in constant time (both sides hashed to equal length first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Cache lookup results as labelled. */
export type CacheResult = 'hit' | 'miss' | 'stale' | 'coalesced' | 'stale_if_error';

/** The search cache's `CacheSource` as a `result` label. */
export function cacheResultOf(source: string): CacheResult {
  return source === 'cache'
    ? 'hit'
    : source === 'upstream'
      ? 'miss'
      : (source as 'stale' | 'coalesced' | 'stale_if_error');
}

/** The prom-client registry and the recorded metrics of one BFF. */
interface Recorders {
  readonly registry: Registry;
  readonly upstream: Counter<'class' | 'status'>;
  readonly upstreamDuration: Histogram<'class'>;
  readonly pauses: Counter<'class'>;
  readonly cache: Counter<'cache' | 'result'>;
  /** The counter of each (cache, source) pair, bound once (a lookup per request skips hashing its labels). */
  readonly cacheChildren: Map<string, { inc(): void }>;
  readonly refusals: Counter<'status' | 'route'>;
  readonly webhookFailures: Counter;
  readonly mcpTools: Counter<'tool' | 'outcome'>;
}

/** Registers every BFF metric (the module table) in a new registry; the gauges read from `sources` when scraped. */
function createRecorders(prom: PromClient, sources: MetricsSources): Recorders {
  const registry = new prom.Registry();
  const registers = [registry];
  const { Counter, Gauge, Histogram } = prom;
  const upstream = new Counter({
    name: 'domainkit_bff_upstream_requests_total',
    help: 'Partner API attempts by rate class (Partner API spec 8) and HTTP status (0: no answer).',
    labelNames: ['class', 'status'],
    registers,
  });
  const upstreamDuration = new Histogram({
    name: 'domainkit_bff_upstream_request_duration_seconds',
    help: 'Duration of Partner API attempts.',
    labelNames: ['class'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new Gauge({
    name: 'domainkit_bff_budget_tokens',
    help: 'Tokens left in the upstream budget bucket of each rate class.',
    labelNames: ['class'],
    registers,
    async collect() {
      this.reset();
      for (const b of (await sources.budget?.()) ?? []) this.set({ class: b.rateClass }, b.tokens);
    },
  });
  new Gauge({
    name: 'domainkit_bff_budget_paused_seconds',
    help: "Seconds left of a pause of the upstream budget ordered by a 429's Retry-After (0: not paused).",
    labelNames: ['class'],
    registers,
    async collect() {
      this.reset();
      for (const b of (await sources.budget?.()) ?? []) this.set({ class: b.rateClass }, b.pausedMs / 1000);
    },
  });
  const pauses = new Counter({
    name: 'domainkit_bff_budget_pauses_total',
    help: 'Upstream 429 answers that paused the budget of a rate class.',
    labelNames: ['class'],
    registers,
  });
  const cache = new Counter({
    name: 'domainkit_bff_cache_lookups_total',
    help: 'Search and siblings cache lookups by result (hit, miss, stale, coalesced, stale_if_error).',
    labelNames: ['cache', 'result'],
    registers,
  });
  const refusals = new Counter({
    name: 'domainkit_bff_visitor_refusals_total',
    help: 'Visitor requests answered 503 (busy: upstream budget spent) or 429 (visitor limits).',
    labelNames: ['status', 'route'],
    registers,
  });
  const mcpTools = new Counter({
    name: 'domainkit_bff_mcp_tool_calls_total',
    help: "MCP tool calls by tool and outcome (ok, busy, over_allowance: the agent's allowance spent, error).",
    labelNames: ['tool', 'outcome'],
    registers,
  });
  let store: Promise<StoreSnapshot | undefined> | undefined;
  // One database read per scrape, shared by the gauges below.
  const snapshot = () => {
    store ??= (sources.store?.() ?? Promise.resolve(undefined)).finally(() =>
      setImmediate(() => {
        store = undefined;
      }),
    );
    return store;
  };
  new Gauge({
    name: 'domainkit_bff_purchase_intents',
    help: 'MoR order intents of this credential by state.',
    labelNames: ['state'],
    registers,
    async collect() {
      this.reset();
      const s = await snapshot();
      for (const [state, n] of Object.entries(s?.intents ?? {})) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'domainkit_bff_recovery_backlog',
    help: 'Order intents created or paid but not yet recorded upstream.',
    registers,
    async collect() {
      this.set((await snapshot())?.recoveryBacklog ?? 0);
    },
  });
  const webhookFailures = new Counter({
    name: 'domainkit_bff_webhook_verification_failures_total',
    help: 'Webhook deliveries refused because their signature did not verify.',
    registers,
  });
  new Gauge({
    name: 'domainkit_bff_inbox_pending',
    help: 'Webhook and catch-up events stored but not yet handled.',
    registers,
    async collect() {
      this.set((await snapshot())?.inboxPending ?? 0);
    },
  });
  new Gauge({
    name: 'domainkit_bff_degraded',
    help: 'Whether /readyz answers degraded (the marketplace down or unreachable after a first success), by reason.',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      const reason = sources.degraded?.();
      this.set({ reason: reason ?? 'none' }, reason === undefined ? 0 : 1);
    },
  });
  new Gauge({
    name: 'domainkit_bff_inbox_lag_seconds',
    help: 'Age of the oldest event not yet handled (0 when none).',
    registers,
    async collect() {
      this.set((await snapshot())?.inboxLagSeconds ?? 0);
    },
  });
  return {
    registry,
    upstream,
    upstreamDuration,
    pauses,
    cache,
    cacheChildren: new Map(),
    refusals,
    webhookFailures,
    mcpTools,
  };
}

/**
 * The metrics of one BFF (see the module table). prom-client is loaded only where metrics are wanted: the Express
 * router passes it in (its `bff.metrics.handler()` may be mounted anywhere); the web handler calls {@link load}
 * when the `metrics` option is on. Until then every record is a no-op.
 */
export class BffMetrics {
  readonly #sources: MetricsSources = {};
  #recorders: Recorders | undefined;

  /** @param prom - prom-client, to record from now on; without it nothing is recorded until {@link load}. */
  constructor(prom?: PromClient) {
    if (prom !== undefined) this.#recorders = createRecorders(prom, this.#sources);
  }

  /** Loads prom-client (a dynamic import) and records from now on; at once when it already does. */
  async load(): Promise<void> {
    if (this.#recorders !== undefined) return;
    const prom = await import('prom-client');
    this.#recorders ??= createRecorders(prom, this.#sources);
  }

  /** Whether metrics are recorded (prom-client loaded). */
  get recording(): boolean {
    return this.#recorders !== undefined;
  }

  /**
   * The prom-client registry holding every BFF metric.
   * @throws {Error} when prom-client was not loaded (see {@link load}).
   */
  get registry(): Registry {
    if (this.#recorders === undefined) throw new Error('BFF metrics are off: prom-client was not loaded');
    return this.#recorders.registry;
  }

  /** Sets where the scraped gauges read from. */
  setSources(sources: MetricsSources): void {
    Object.assign(this.#sources, sources);
  }

  /** Records one Partner API attempt (the client's `onAttempt`). */
  upstreamAttempt(report: AttemptReport): void {
    const r = this.#recorders;
    if (r === undefined) return;
    r.upstream.inc({ class: report.rateClass, status: String(report.status) });
    r.upstreamDuration.observe({ class: report.rateClass }, report.durationMs / 1000);
  }

  /** Records a 429 that paused the budget of a class. */
  budgetPaused(rateClass: string): void {
    this.#recorders?.pauses.inc({ class: rateClass });
  }

  /** Records a cache lookup (`cache`: `search` or `siblings`; `source`: the cache's `CacheSource`). */
  cacheLookup(cache: string, source: string): void {
    const r = this.#recorders;
    if (r === undefined) return;
    const key = `${cache}\u0000${source}`;
    let counter = r.cacheChildren.get(key);
    if (counter === undefined) {
      counter = r.cache.labels({ cache, result: cacheResultOf(source) });
      r.cacheChildren.set(key, counter);
    }
    counter.inc();
  }

  /** Records a visitor answer; only 503 and 429 are counted. */
  visitorAnswered(status: number, route: string): void {
    if (status === 503 || status === 429) this.#recorders?.refusals.inc({ status: String(status), route });
  }

  /** Records a webhook delivery whose signature did not verify. */
  webhookVerificationFailed(): void {
    this.#recorders?.webhookFailures.inc();
  }

  /** Records one MCP tool call (`outcome`: `ok`, `busy`, `over_allowance`, `error`). */
  mcpToolCalled(tool: string, outcome: string): void {
    this.#recorders?.mcpTools.inc({ tool, outcome });
  }

  /**
   * An Express handler answering the registry in the Prometheus text format.
   * @param token - when given, `Authorization: Bearer <token>` is required (401 otherwise).
   */
  handler(token?: string): RequestHandler {
    return async (req, res) => {
      if (token !== undefined && !sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.status(401).json({ error: { code: 'unauthorized', message: 'GET /metrics needs its bearer token.' } });
        return;
      }
      res.setHeader('Content-Type', this.registry.contentType);
      res.send(await this.registry.metrics());
    };
  }
}
