/**
 * What a BFF router runs beside its routes, assembled from named parts: the database handle (`db/handle.ts`), the
 * upstream budget and client (`upstream.ts`), the domain-change signal (`domain-changes.ts`), and the background
 * work: the job scheduler (`background/jobs.ts`), the inbox worker with catch-up (`webhooks/inbox-worker.ts`),
 * order recovery (`purchase/order-recovery.ts`) and webhook registration (`webhooks/registration.ts`).
 * It owns no SQL and no default: every setting comes from {@link ResolvedBffOptions}. One runtime per `createBff`
 * call; `close()` stops it.
 *
 * Nothing opens or starts when the runtime is created: {@link BffRuntime.start} opens the database and, with
 * `background.mode: 'timers'`, runs the start tasks and sets the timers (the Express adapter calls it at once; the
 * web handler on its first request). With `'scheduled'` no timer is ever set: the host calls
 * {@link BffRuntime.scheduled} from its cron, and a stored webhook's events are handled under the request's
 * `waitUntil` ({@link BffRuntime.eventsStored}). {@link BffRuntime.withRequest} gives each request (and each round)
 * its database scope: on Cloudflare workerd, a connection of its own, closed once its work is done.
 */
import type { Logger } from 'pino';
import {
  InboxWorker,
  WebhookRegistration,
  type CatchUpReport,
  EventHandlers,
  type EventHandler,
  type EventHandlerType,
  inboxBacklog,
} from './webhooks/index.ts';
import { JobScheduler } from './background/jobs.ts';
import { OrderRecovery, countIntentsByState, type OrderFlowDeps, type RecoveryReport } from './purchase/index.ts';
import type { BffUpstreamBudget } from './upstream/budget.ts';
import { runBackgroundRound, type BackgroundReport } from './scheduled-round.ts';
import { DatabaseHandle, type WaitUntil } from './db/handle.ts';
import { DomainChanges } from './upstream/domain-changes.ts';
import { BffHttpError } from './errors.ts';
import { CredentialCheck } from './upstream/credential-check.ts';
import { errorFields } from './logger.ts';
import type { MarketplaceApi } from './upstream/marketplace-api.ts';
import { BffMetrics } from './metrics.ts';
import { nodeEnv } from './platform.ts';
import type { ResolvedBffOptions } from './resolved-options.ts';
import { createUpstream } from './upstream/upstream.ts';

export { BFF_VERSION } from './version.ts';

/** A BFF's parts and background machinery. */
export class BffRuntime {
  readonly logger: Logger;
  /** The metrics recorded by the routes and the background work (metrics.ts); served when `metrics` is on. */
  readonly metrics: BffMetrics;
  /** Whether the marketplace credential works (credential-check.ts): `/readyz` and `--check` ask it. */
  readonly credential: CredentialCheck;
  readonly client: MarketplaceApi;
  readonly budget: BffUpstreamBudget;
  readonly handlers = new EventHandlers();
  readonly database: DatabaseHandle;
  readonly domainChanges: DomainChanges;
  readonly jobs: JobScheduler;
  readonly inbox: InboxWorker;
  readonly recovery: OrderRecovery;
  readonly webhookRegistration: WebhookRegistration;
  readonly #options: ResolvedBffOptions;
  #closing: Promise<void> | undefined;
  #started: Promise<void> | undefined;
  #startRequested = false;
  #backgroundStarted = false;
  readonly #closeListeners: Array<() => void> = [];

  /**
   * @throws {BffOptionsError} when the client cannot be created from `marketplace`.
   */
  constructor(options: ResolvedBffOptions, logger: Logger, metrics: BffMetrics = new BffMetrics()) {
    this.#options = options;
    this.logger = logger;
    this.metrics = metrics;
    const startedAt = new Date(options.now());
    this.database = new DatabaseHandle(options.database);
    this.domainChanges = new DomainChanges(logger);
    this.jobs = new JobScheduler(logger, { timers: options.background.mode === 'timers' });
    const { client, budget } = createUpstream(options, () => this.database.db(), metrics);
    this.client = client;
    this.budget = budget;
    this.credential = new CredentialCheck({
      client,
      needs: { buy: options.payments !== undefined, webhook: options.webhook !== undefined },
      logger,
      now: options.now,
      okTtlMs: options.readiness.okTtlMs,
      failedTtlMs: options.readiness.failedTtlMs,
    });
    const credential = this.credential;
    metrics.setSources({
      budget: () => budget.snapshot(),
      degraded: () => {
        const last = options.readiness.checkCredential ? credential.last : undefined;
        return last !== undefined && !last.ok && last.degraded ? last.reason : undefined;
      },
      store: async () => {
        if (!this.database.configured) return undefined;
        const db = await this.database.db();
        const intents = await countIntentsByState(db, options.keyId);
        const inbox = await inboxBacklog(db, options.keyId, new Date(options.now()));
        return {
          intents,
          recoveryBacklog: (intents.created ?? 0) + (intents.paid ?? 0),
          inboxPending: inbox.pending,
          inboxLagSeconds: inbox.lagSeconds,
        };
      },
    });
    for (const [type, handler] of options.eventHandlers) this.handlers.on(type, handler);
    this.inbox = new InboxWorker({
      database: this.database,
      jobs: this.jobs,
      client,
      handlers: this.handlers,
      logger,
      keyId: options.keyId,
      now: options.now,
      timings: options.inbox,
      domainChanged: (domain) => this.domainChanges.changed(domain),
    });
    this.recovery = new OrderRecovery(() => this.orderFlow(), {
      embeddedSince: this.database.kind === 'pglite' ? startedAt : undefined,
    });
    this.webhookRegistration = new WebhookRegistration(client, options.webhook, logger);

    // A LIVE credential, or production without the staging opt-in, was refused at creation (options.ts).
    if (options.payments?.test === true && nodeEnv() === 'production') {
      logger.warn(
        'test cards are accepted in production (allowTestCardsInProduction): no money is collected; for a staging shop on a SANDBOX credential only',
      );
    }
  }

  /**
   * Resolves when the database is open and migrated (at once when none is used), opening it now if nothing did;
   * rejects when it cannot open.
   */
  get ready(): Promise<void> {
    return this.database.ready;
  }

  /**
   * Opens the database (and loads prom-client when metrics are served) and, with `background.mode: 'timers'` (and `background.enabled`), runs the start tasks
   * (webhook registration, a recovery pass, a catch-up) and sets the timers. Idempotent: later calls return the
   * first call's promise. Resolves once the database is open (the start tasks run on in the background); rejects
   * when it cannot open (logged once), and a later call tries again.
   */
  start(): Promise<void> {
    // prom-client is loaded only when metrics are served (the Express router passes it in at once).
    const metrics = this.#options.metrics.served ? this.metrics.load() : undefined;
    if (this.database.perRequest) {
      // Per request (workerd): nothing pending is kept for later requests, whose awaits could never settle there.
      return Promise.all([this.database.open(), metrics]).then(
        () => this.#startBackground(),
        (error: unknown) => {
          this.logger.error({ ...errorFields(error) }, 'the BFF database could not be opened');
          throw error;
        },
      );
    }
    if (this.#started === undefined) {
      // The start tasks are chained straight onto the opening (the promise `ready` gives too), so whoever awaits
      // `ready` and then `idle()` finds them already tracked.
      const opened = this.database.open().then(
        () => this.#startBackground(),
        (error: unknown) => {
          this.#started = undefined;
          this.logger.error({ ...errorFields(error) }, 'the BFF database could not be opened');
          throw error;
        },
      );
      this.#started = Promise.all([opened, metrics]).then(() => undefined);
    }
    return this.#started;
  }

  /**
   * Runs `work` (one request, or one background round) in its own database scope, starting the runtime on the
   * first call ({@link start}; see
   * {@link DatabaseHandle.withRequest}: on Cloudflare workerd a connection of its own, closed once the work and
   * what it handed to `waitUntil` are done).
   * @param context.waitUntil - the host's, when it has one (Workers `ctx.waitUntil`, Vercel `waitUntil`).
   * @param work - receives the `waitUntil` to give routes: it keeps the request's connection open for the work too.
   */
  withRequest<T>(
    context: { readonly waitUntil?: WaitUntil | undefined } | undefined,
    work: (waitUntil: WaitUntil) => Promise<T>,
  ): Promise<T> {
    // Called as the context's method: Workers' `ctx.waitUntil` throws "Illegal invocation" when called unbound.
    const host = context?.waitUntil;
    const waitUntil = host === undefined ? undefined : (promise: Promise<unknown>) => host.call(context, promise);
    // The first request (or round) starts the runtime: the database opens and, with timers, background work begins.
    // Per request, a connection's queries migrate first anyway: nothing to start ahead of them.
    if (!this.#startRequested && !this.database.perRequest) {
      this.#startRequested = true;
      const starting = this.start().catch(() => {}); // logged by start(); queries answer 503 meanwhile
      waitUntil?.(starting);
    }
    return this.database.withRequest(waitUntil, work);
  }

  /**
   * Told that a webhook stored events: handles them after the answer. With timers the inbox worker runs on its
   * own; the promise is also handed to `waitUntil` when given (serverless hosts and Workers end the work with the
   * response otherwise).
   */
  eventsStored(waitUntil?: WaitUntil): void {
    const run = this.inbox.kick();
    waitUntil?.(run);
  }

  /**
   * One round of background work for a platform cron (Workers `scheduled`, a Vercel cron route): webhook
   * registration while pending, a recovery pass (MoR), a catch-up with `GET /events` and the due inbox events
   * (webhooks). Runs whatever `background.mode` is, in a database scope of its own. Never rejects: a failing part is
   * logged and named in the report's `failed`, and the others still run.
   * @param context.waitUntil - the host's, to keep closing the round's connection alive (Workers `ctx.waitUntil`).
   */
  scheduled(context?: { readonly waitUntil?: WaitUntil | undefined }): Promise<BackgroundReport> {
    const mor = this.#options.payments !== undefined;
    const webhooks = this.#options.webhook !== undefined;
    const { jobs, webhookRegistration, logger } = this;
    return this.withRequest(context, async () => {
      try {
        await this.start();
      } catch (error) {
        return { failed: [{ task: 'database', message: (error as Error).message }] };
      }
      return jobs.track('scheduled', () =>
        runBackgroundRound({
          logger,
          registerWebhook: webhooks && webhookRegistration.pending ? () => webhookRegistration.register() : undefined,
          recover: mor ? () => this.recover() : undefined,
          catchUp: webhooks ? () => this.catchUp() : undefined,
          processInbox: webhooks
            ? async () => {
                await this.inbox.kick();
                const db = await this.database.db();
                return (await inboxBacklog(db, this.#options.keyId, new Date(this.#options.now()))).pending;
              }
            : undefined,
        }),
      ) as Promise<BackgroundReport>;
    });
  }

  /**
   * What the order flow needs.
   * @throws {BffHttpError} 404 `not_found` when MoR is not enabled; 503 `unavailable` as {@link DatabaseHandle.db}.
   */
  async orderFlow(): Promise<OrderFlowDeps> {
    const payments = this.#options.payments;
    if (payments === undefined) throw new BffHttpError('not_found', 'MoR orders are not enabled on this BFF.');
    return {
      db: await this.database.db(),
      keyId: this.#options.keyId,
      client: this.client,
      payments,
      budget: this.budget,
      logger: this.logger,
      now: this.#options.now,
      timings: this.#options.orders,
      domainChanged: (domain) => this.domainChanges.changed(domain),
      priceLearned: (price) => this.domainChanges.priced(price),
      onOrderFailed: this.#options.onOrderFailed,
    };
  }

  /** Registers `listener`, called once when {@link close} starts (the router stops its own timers). */
  onClose(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  /** Registers an event handler. */
  on(type: EventHandlerType, handler: EventHandler): void {
    this.handlers.on(type, handler);
  }

  /** One recovery pass of order intents. */
  recover(): Promise<RecoveryReport> {
    return this.recovery.run();
  }

  /** Catches up with `GET /events`, then handles the new events. */
  catchUp(): Promise<CatchUpReport> {
    return this.inbox.catchUp();
  }

  /** The start tasks (registration, recovery, catch-up) and the timers, once the database is open. */
  #startBackground(): void {
    const background = this.#options.background;
    if (!this.database.configured || !background.enabled || background.mode !== 'timers') return;
    if (this.#closing !== undefined || this.#backgroundStarted) return;
    this.#backgroundStarted = true;
    const { jobs, webhookRegistration } = this;
    const mor = this.#options.payments !== undefined;
    const webhooks = this.#options.webhook !== undefined;
    void jobs.track('start', async () => {
      const tasks: Array<Promise<unknown>> = [];
      if (webhooks) tasks.push(jobs.track('webhook registration', () => webhookRegistration.register()));
      if (mor) tasks.push(jobs.track('recovery', () => this.recover()));
      if (webhooks) tasks.push(jobs.track('catch-up', () => this.catchUp()));
      await Promise.all(tasks);
    });
    if (mor) jobs.every(background.recoveryIntervalMs, 'recovery', () => this.recover());
    if (webhooks) {
      jobs.every(background.catchUpIntervalMs, 'catch-up', async () => {
        if (webhookRegistration.pending) await jobs.track('webhook registration', () => webhookRegistration.register());
        await this.catchUp();
      });
    }
  }

  /**
   * Stops the timers, lets background work in flight finish (at most `graceMs`, default `background.closeGraceMs`),
   * and closes the database if the BFF opened it. Idempotent.
   */
  close(graceMs = this.#options.background.closeGraceMs): Promise<void> {
    this.#closing ??= (async () => {
      for (const listener of this.#closeListeners) listener();
      await this.jobs.stop(graceMs);
      await this.database.close();
    })();
    return this.#closing;
  }
}
