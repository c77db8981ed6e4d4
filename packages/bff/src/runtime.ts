/**
 * What a BFF router runs beside its routes: the database (opened once, in the background), the upstream budget,
 * the event handlers, and the background work: webhook registration, order recovery, event catch-up and the
 * inbox worker, on start and on timers. One runtime per `createBff` call; `close()` stops it.
 */
import { CLIENT_VERSION, PartnerClient } from '@domainkit/client';
import type { Logger } from 'pino';
import {
  createUpstreamBudget,
  DEFAULT_BUDGET_LIMITS,
  MemoryBucketStore,
  SqlBucketStore,
  type BffUpstreamBudget,
} from './budget.ts';
import { openBffDatabase, type BffDatabase, type BffDatabaseOptions } from './db/database.ts';
import type { BffDb } from './db/tables.ts';
import { BffHttpError } from './errors.ts';
import { catchUpEvents, type CatchUpReport } from './events/catch-up.ts';
import { EventHandlers, processInbox, type EventHandler } from './events/inbox.ts';
import { BffOptionsError, type MarketplaceApi, type ValidBffOptions } from './options.ts';
import type { OrderFlowDeps } from './orders/place-order.ts';
import { recoverIntents, type RecoveryReport } from './orders/recovery.ts';

/** This package's version. */
export const BFF_VERSION = '0.1.0';

/** Upstream settings tuned for a visitor waiting on the answer (ms). */
const UPSTREAM_DEFAULTS = {
  timeoutMs: 10_000,
  maxRetries: 2,
  initialRetryDelayMs: 250,
  maxRetryDelayMs: 2_000,
} as const;

function isHandle(value: unknown): value is BffDatabase {
  return (
    typeof value === 'object' && value !== null && 'db' in value && typeof (value as BffDatabase).close === 'function'
  );
}

function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const fields: Record<string, unknown> = { name: error.name, message: error.message };
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') fields.code = code;
    return { error: fields };
  }
  return { error: String(error) };
}

/** A BFF's background machinery. */
export class BffRuntime {
  readonly logger: Logger;
  readonly client: MarketplaceApi;
  readonly budget: BffUpstreamBudget;
  readonly handlers = new EventHandlers();
  /** The credential's key id: order intents, the inbox and the event cursor are kept per credential. */
  readonly keyId: string;
  readonly now: () => number;
  /** Resolves when the database is open and migrated (at once when none is used); rejects when it cannot open. */
  readonly ready: Promise<void>;
  readonly #options: ValidBffOptions;
  readonly #database: Promise<BffDatabase> | undefined;
  readonly #databaseKind: 'pglite' | 'postgres' | 'none';
  readonly #ownsDatabase: boolean;
  readonly #tasks = new Set<Promise<unknown>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #abort = new AbortController();
  #inboxRunning = false;
  #inboxAgain = false;
  #closing: Promise<void> | undefined;
  #closed = false;
  #webhookRegistered = false;
  readonly #domainListeners = new Set<(domain: string) => void>();
  /** When this runtime started, on its own clock. */
  readonly #startedAt: Date;

  /**
   * @throws {BffOptionsError} when the client cannot be created from `marketplace`.
   */
  constructor(options: ValidBffOptions, logger: Logger) {
    this.#options = options;
    this.logger = logger;
    this.now = options.now ?? Date.now;
    this.#startedAt = new Date(this.now());
    const needsDatabase =
      options.payments !== undefined || options.webhook !== undefined || options.database !== undefined;
    const dbOption = options.database as BffDatabase | BffDatabaseOptions | undefined;
    if (!needsDatabase) this.#databaseKind = 'none';
    else if (isHandle(dbOption)) this.#databaseKind = dbOption.kind;
    else this.#databaseKind = dbOption?.url ? 'postgres' : 'pglite';
    this.#ownsDatabase = needsDatabase && !isHandle(dbOption);

    const injected = (options.client as { keyId?: unknown } | undefined)?.keyId;
    const keyId = options.marketplace?.keyId ?? (typeof injected === 'string' ? injected : 'injected-client');
    this.keyId = keyId;
    this.budget = createUpstreamBudget({
      store: this.#databaseKind === 'postgres' ? new SqlBucketStore(() => this.db()) : new MemoryBucketStore(),
      namespace: keyId,
      limits: {
        search: options.upstreamBudget?.search ?? DEFAULT_BUDGET_LIMITS.search,
        write: options.upstreamBudget?.write ?? DEFAULT_BUDGET_LIMITS.write,
      },
      maxWaitMs: options.upstreamBudget?.maxWaitMs,
      now: this.now,
    });
    this.client = options.client ?? this.#createClient();

    for (const [type, handler] of Object.entries(options.onEvent ?? {})) {
      for (const h of Array.isArray(handler) ? handler : [handler]) this.handlers.on(type, h as EventHandler);
    }
    if (options.payments?.name === 'test_card' && options.marketplace?.keyId.startsWith('pk_live')) {
      logger.warn(
        'the test-card payment adapter is configured with a LIVE credential: no money is collected for these orders',
      );
    }

    if (!needsDatabase) {
      this.#database = undefined;
      this.ready = Promise.resolve();
    } else {
      this.#database = isHandle(dbOption) ? Promise.resolve(dbOption) : openBffDatabase(dbOption ?? {});
      this.ready = this.#database.then(() => undefined);
      this.ready.then(
        () => this.#afterReady(),
        (error: unknown) => logger.error({ ...errorFields(error) }, 'the BFF database could not be opened'),
      );
    }
  }

  #createClient(): MarketplaceApi {
    const m = this.#options.marketplace!;
    try {
      return new PartnerClient({
        baseUrl: m.baseUrl,
        keyId: m.keyId,
        secret: m.secret,
        headerPrefix: m.headerPrefix,
        dispatcher: m.dispatcher,
        timeoutMs: m.timeoutMs ?? UPSTREAM_DEFAULTS.timeoutMs,
        maxRetries: m.maxRetries ?? UPSTREAM_DEFAULTS.maxRetries,
        initialRetryDelayMs: UPSTREAM_DEFAULTS.initialRetryDelayMs,
        // A visitor is waiting: a Retry-After over 2 s is answered "busy" at once instead of hanging the request.
        maxRetryDelayMs: UPSTREAM_DEFAULTS.maxRetryDelayMs,
        userAgent: `domainkit-bff/${BFF_VERSION} domainkit-client/${CLIENT_VERSION} node/${process.versions.node}`,
        // The signing timestamp always uses the real clock (spec 5.1 ±300 s); `now` is the BFF's own clock only.
        budget: this.budget,
      });
    } catch (error) {
      throw new BffOptionsError([`\`marketplace\`: ${(error as Error).message.replace(/^PartnerClient: /, '')}`]);
    }
  }

  /** Registers `listener`, told each domain {@link domainChanged} names (the router drops its cached searches). */
  onDomainChanged(listener: (domain: string) => void): void {
    this.#domainListeners.add(listener);
  }

  /**
   * Says the BFF learnt that `domain` may no longer be for sale (an order recorded, an upstream 409 `conflict` or
   * 404 `not_found`, an order event naming it, an unavailable domain detail): every listener is told, with the
   * name lowercased. A listener that throws is logged, never raised.
   */
  domainChanged(domain: string): void {
    const name = domain.toLowerCase();
    for (const listener of this.#domainListeners) {
      try {
        listener(name);
      } catch (error) {
        this.logger.error({ domain: name, ...errorFields(error) }, 'a domain-change listener failed');
      }
    }
  }

  /** `pglite`, `postgres`, or `none` (no feature needing a database is enabled). */
  get databaseKind(): 'pglite' | 'postgres' | 'none' {
    return this.#databaseKind;
  }

  /**
   * The open database.
   * @throws {BffHttpError} 503 `unavailable` when none is configured, it failed to open, or the BFF is closed.
   */
  async db(): Promise<BffDb> {
    if (this.#database === undefined || this.#closed) {
      throw new BffHttpError('unavailable', 'The order service is not available right now; try again shortly.');
    }
    try {
      return (await this.#database).db;
    } catch (cause) {
      throw new BffHttpError('unavailable', 'The order service is not available right now; try again shortly.', {
        cause,
      });
    }
  }

  /** Checks the database answers (`select 1`). @throws as {@link db}. */
  async checkDatabase(): Promise<void> {
    const db = await this.db();
    try {
      await db.selectNoFrom((eb) => eb.lit(1).as('ok')).execute();
    } catch (cause) {
      throw new BffHttpError('unavailable', 'The database does not answer.', { cause });
    }
  }

  /** What the order flow needs. @throws as {@link db}, or 404 when MoR is not enabled. */
  async orderDeps(): Promise<OrderFlowDeps> {
    const payments = this.#options.payments;
    if (payments === undefined) throw new BffHttpError('not_found', 'MoR orders are not enabled on this BFF.');
    return {
      db: await this.db(),
      keyId: this.keyId,
      client: this.client,
      payments,
      budget: this.budget,
      logger: this.logger,
      now: this.now,
      leaseMs: (this.#options.background?.leaseSeconds ?? 60) * 1000,
      quoteMarginMs: 30_000,
      domainChanged: (domain) => this.domainChanged(domain),
    };
  }

  /** Runs `task` in the background, tracked by {@link idle}; its failure is logged. */
  track<T>(name: string, task: () => Promise<T>): Promise<T | undefined> {
    const promise = (async () => {
      try {
        return await task();
      } catch (error) {
        if (this.#closing === undefined)
          this.logger.error({ task: name, ...errorFields(error) }, 'background task failed');
        return undefined;
      }
    })();
    this.#tasks.add(promise);
    void promise.finally(() => this.#tasks.delete(promise));
    return promise;
  }

  /** Resolves when no background task is running (tests; graceful stops). */
  async idle(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.allSettled([...this.#tasks]);
  }

  /** Registers an event handler. */
  on(type: string, handler: EventHandler): void {
    this.handlers.on(type, handler);
  }

  /** Handles the due inbox events now (coalesced: a call during a run makes the run go on). */
  kickInbox(): Promise<unknown> {
    if (this.#database === undefined || this.#closing !== undefined) return Promise.resolve();
    if (this.#inboxRunning) {
      this.#inboxAgain = true;
      return this.idle();
    }
    this.#inboxRunning = true;
    return this.track('inbox', async () => {
      try {
        do {
          this.#inboxAgain = false;
          await processInbox(
            { db: await this.db(), keyId: this.keyId, handlers: this.handlers, logger: this.logger, now: this.now },
            { signal: this.#abort.signal },
          );
        } while (this.#inboxAgain && this.#closing === undefined);
        await this.#scheduleNextInboxRun();
      } finally {
        this.#inboxRunning = false;
      }
    });
  }

  async #scheduleNextInboxRun(): Promise<void> {
    const db = await this.db();
    const next = await db
      .selectFrom('bff_events')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('key_id', '=', this.keyId)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (next?.at == null) return;
    const delay = Math.max(50, new Date(next.at).getTime() - this.now());
    this.#timer(delay, () => void this.kickInbox());
  }

  /** One recovery pass of order intents (see `orders/recovery.ts`). */
  async recover(): Promise<RecoveryReport> {
    const deps = await this.orderDeps();
    // Embedded PGlite is one process: a lease on an intent created before this process started belongs to a dead one.
    const ignoreLeasesBefore = this.#databaseKind === 'pglite' ? this.#startedAt : undefined;
    return recoverIntents(deps, { ignoreLeasesBefore });
  }

  /** Catches up with `GET /events`, then handles the new events. */
  async catchUp(): Promise<CatchUpReport> {
    const report = await catchUpEvents(
      {
        db: await this.db(),
        keyId: this.keyId,
        client: this.client,
        logger: this.logger,
        now: this.now,
        domainChanged: (domain) => this.domainChanged(domain),
      },
      { signal: this.#abort.signal },
    );
    await this.kickInbox();
    return report;
  }

  /** Registers the webhook URL (`PUT /api/partner/webhooks`) when `webhook.publicUrl` is set. */
  async registerWebhook(): Promise<boolean> {
    const webhook = this.#options.webhook;
    if (webhook?.publicUrl === undefined) return false;
    const answer = await this.client.webhooks.register(
      { url: webhook.publicUrl, secret: webhook.secret },
      { context: { maxWaitMs: 0 } },
    );
    this.#webhookRegistered = true;
    this.logger.info({ url: answer.url, active: answer.active }, 'webhook endpoint registered');
    return true;
  }

  #timer(ms: number, run: () => void): void {
    if (this.#closing !== undefined) return;
    const t = setTimeout(() => {
      this.#timers.delete(t);
      run();
    }, ms);
    t.unref();
    this.#timers.add(t);
  }

  #every(seconds: number, name: string, run: () => Promise<unknown>): void {
    if (seconds <= 0) return;
    const loop = () =>
      this.#timer(seconds * 1000, () => {
        void this.track(name, run).finally(loop);
      });
    loop();
  }

  #afterReady(): void {
    const background = this.#options.background;
    if (background?.enabled === false || this.#closing !== undefined) return;
    const mor = this.#options.payments !== undefined;
    const webhooks = this.#options.webhook !== undefined;
    void this.track('start', async () => {
      const tasks: Array<Promise<unknown>> = [];
      if (webhooks) tasks.push(this.track('webhook registration', () => this.registerWebhook()));
      if (mor) tasks.push(this.track('recovery', () => this.recover()));
      if (webhooks) tasks.push(this.track('catch-up', () => this.catchUp()));
      await Promise.all(tasks);
    });
    if (mor) this.#every(background?.recoveryIntervalSeconds ?? 30, 'recovery', () => this.recover());
    if (webhooks) {
      this.#every(background?.catchUpIntervalSeconds ?? 60, 'catch-up', async () => {
        if (!this.#webhookRegistered && this.#options.webhook?.publicUrl !== undefined)
          await this.track('webhook registration', () => this.registerWebhook());
        await this.catchUp();
      });
    }
  }

  /**
   * Stops the timers, lets background work in flight finish (at most `graceMs`), and closes the database if the
   * BFF opened it. Idempotent.
   */
  close(graceMs = 10_000): Promise<void> {
    this.#closing ??= (async () => {
      for (const t of this.#timers) clearTimeout(t);
      this.#timers.clear();
      const settled = this.idle();
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([settled, timeout]);
      this.#abort.abort();
      this.#closed = true;
      if (this.#database !== undefined && this.#ownsDatabase) {
        try {
          await (await this.#database).close();
        } catch {
          // It never opened: nothing to close.
        }
      }
    })();
    return this.#closing;
  }
}
