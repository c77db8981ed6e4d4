/**
 * What a BFF router runs beside its routes, assembled from named parts: the database handle (`db/handle.ts`), the
 * upstream budget and client (`upstream.ts`), the domain-change signal (`domain-changes.ts`), and the background
 * work: the job scheduler (`background/jobs.ts`), the inbox worker with catch-up (`webhooks/inbox-worker.ts`),
 * order recovery (`purchase/order-recovery.ts`) and webhook registration (`webhooks/registration.ts`).
 * It owns no SQL and no default: every setting comes from {@link ResolvedBffOptions}. One runtime per `createBff`
 * call; `close()` stops it.
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
import { DatabaseHandle } from './db/handle.ts';
import { DomainChanges } from './upstream/domain-changes.ts';
import { BffHttpError } from './errors.ts';
import { CredentialCheck } from './upstream/credential-check.ts';
import { errorFields } from './logger.ts';
import type { MarketplaceApi } from './upstream/marketplace-api.ts';
import { BffMetrics } from './metrics.ts';
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
    this.jobs = new JobScheduler(logger);
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
    if (options.payments?.test === true && process.env.NODE_ENV === 'production') {
      logger.warn(
        'test cards are accepted in production (allowTestCardsInProduction): no money is collected; for a staging shop on a SANDBOX credential only',
      );
    }
    if (this.database.configured) {
      this.database.ready.then(
        () => this.#start(),
        (error: unknown) => logger.error({ ...errorFields(error) }, 'the BFF database could not be opened'),
      );
    }
  }

  /** Resolves when the database is open and migrated (at once when none is used); rejects when it cannot open. */
  get ready(): Promise<void> {
    return this.database.ready;
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
  #start(): void {
    const background = this.#options.background;
    if (!background.enabled || this.#closing !== undefined) return;
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
