/**
 * The webhook outbox worker (Partner API spec 5.3, 6): delivers stored events to the credential's registered endpoint.
 *
 * Each delivery is a `POST` of the event's JSON body (Partner API spec 2.5, the exact bytes stored with the event) with
 * `Content-Type: application/json`, `X-Service-Signature: <hex HMAC-SHA256(webhook secret, raw body)>` (no `v1=`,
 * Partner API spec 5.3), and, for the receiver's convenience, `X-Service-Event-Id` and `X-Service-Delivery-Attempt`.
 *
 * Only an HTTP 200 within the acknowledgement timeout (5 s, Partner API spec 6 rule 1 and 8) counts as delivered; any other
 * status (redirects are not followed), a network error or no answer in time is a failed attempt, retried under the
 * same event id with exponential back-off and jitter:
 *
 * | after failed attempt | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |
 * |---|---|---|---|---|---|---|---|---|
 * | next attempt in (±20 % jitter) | 30 s | 1 min | 2 min | 4 min | 8 min | 16 min | 32 min | none: the delivery is `failed` |
 *
 * so an endpoint has about an hour to recover; afterwards `GET /events?after_id=` catches up. The `timeScale`
 * option (`SANDBOX_WEBHOOK_TIME_SCALE`) multiplies the schedule (0.001 turns 30 s into 30 ms) for tests.
 *
 * An answer of 410 Gone means the endpoint is gone for good (as Standard Webhooks and Stripe read it): the
 * registration becomes `active: false`, the delivery and every other pending one of that endpoint end `failed`,
 * and no new event is queued for it until it is registered again (`PUT /webhooks`). Every event stays in
 * `GET /events`.
 *
 * Endpoints are independent: each has at most {@link PER_ENDPOINT_CONCURRENCY} attempts in flight (counted across
 * every process sharing the database), and an attempt is never awaited by another endpoint's, so a slow or hanging
 * endpoint delays only its own deliveries. Within an endpoint, due deliveries are claimed in event order.
 *
 * Deliveries are rows in the database, claimed with a lease (`for update skip locked`), so several sandbox
 * processes on one PostgreSQL share the work. A lease lasts the attempt timeout plus a margin and is extended
 * while the attempt is worked; its holder is fenced by the attempt number (a claim increments it), so a process
 * whose lease was taken over records nothing over its successor's work. A delivery is therefore attempted by one
 * process at a time, and the attempts of one event are sent in order. A restarted sandbox picks up every pending
 * delivery (one whose process died mid-attempt is retried once its lease runs out). Leases are measured on the
 * host's clock, not the sandbox's (moving the sandbox clock never frees a delivery that is being worked).
 */
import { signWebhookPayload, WEBHOOK_ACK_TIMEOUT_SECONDS, headerNames } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { SandboxDb, SandboxExecutor, SandboxTrx, WebhookDeliveryRow, WebhookEndpointRow } from '../db/tables.ts';
import { eventId, eventSignals } from './store.ts';
import type { WebhookSender } from './webhook-target.ts';

/** Base of the back-off: the wait after the first failed attempt, in seconds (before jitter and time scale). */
export const RETRY_BASE_SECONDS = 30;
/** Attempts in flight per endpoint, across every process sharing the database. */
export const PER_ENDPOINT_CONCURRENCY = 4;
/** Attempts in flight per process, over all endpoints. */
const MAX_IN_FLIGHT = 64;
/** Endpoints looked at per claim round. */
const MAX_KEYS_PER_ROUND = 100;
/** A lease outlasts the attempt timeout by this much (time to record the outcome); extended while worked. */
const LEASE_MARGIN_MS = 5_000;
/** The worker looks for due deliveries at least this often (other processes may have queued some). */
const MAX_POLL_MS = 1000;

/**
 * The wait after failed attempt `attempt` (1-based): `30 s × 2^(attempt−1)`, times a jitter factor in [0.8, 1.2),
 * times `timeScale`. In milliseconds.
 */
export function retryDelayMs(attempt: number, timeScale: number, random: () => number = Math.random): number {
  return Math.round(RETRY_BASE_SECONDS * 1000 * 2 ** (attempt - 1) * (0.8 + 0.4 * random()) * timeScale);
}

/** Options of {@link startOutbox}. */
export interface OutboxOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly headerPrefix: string;
  /** Multiplies the retry schedule; default 1. */
  readonly timeScale?: number;
  /** The acknowledgement timeout in milliseconds; default 5000 (Partner API spec 8). */
  readonly timeoutMs?: number;
  /** Attempts in flight per endpoint; default {@link PER_ENDPOINT_CONCURRENCY}. */
  readonly perEndpointConcurrency?: number;
  /** Sends the requests (to checked public or loopback addresses only: webhook-target.ts). */
  readonly sender: WebhookSender;
}

/** A running outbox worker. */
export interface Outbox {
  /** Looks for due deliveries now. */
  kick(): void;
  /** Stops claiming, and waits for the attempts in flight to finish. */
  stop(): Promise<void>;
}

/**
 * Starts the worker: it runs at once (picking up deliveries left pending by an earlier run), after every event
 * committed in this process, whenever one of its attempts ends, and at least every second.
 */
export function startOutbox(options: OutboxOptions): Outbox {
  const { db, clock, logger } = options;
  const timeScale = options.timeScale ?? 1;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_ACK_TIMEOUT_SECONDS * 1000;
  const perEndpoint = options.perEndpointConcurrency ?? PER_ENDPOINT_CONCURRENCY;
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const names = headerNames(options.headerPrefix);
  /** The attempts this process is working, by delivery id. */
  const inFlight = new Map<number, Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let kicked = false;

  const kick = () => {
    kicked = true;
    wake?.();
  };
  eventSignals.on('emitted', kick);

  /**
   * Claims what may start now: per endpoint with due work, up to the endpoint's free slots (its row is locked while
   * counting, so two processes never both fill the same slots), oldest event first. Deliveries whose credential has
   * no active endpoint any more end `failed`.
   */
  async function claim(): Promise<WebhookDeliveryRow[]> {
    const room = MAX_IN_FLIGHT - inFlight.size;
    if (room <= 0) return [];
    const now = new Date(clock());
    const wallNow = new Date();
    const leaseUntil = new Date(wallNow.getTime() + leaseMs);
    const mine = [...inFlight.keys()];
    return db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('webhook_deliveries')
        .select('key_id')
        .distinct()
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', wallNow)]))
        .limit(MAX_KEYS_PER_ROUND)
        .execute();
      if (due.length === 0) return [];
      const dueKeys = due.map((r) => r.key_id);
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', lease_until: null, last_error: 'no active webhook endpoint' })
        .where('status', '=', 'pending')
        .where('key_id', 'in', dueKeys)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_endpoints')
                .select('key_id')
                .whereRef('webhook_endpoints.key_id', '=', 'webhook_deliveries.key_id')
                .where('webhook_endpoints.active', '=', true),
            ),
          ),
        )
        .execute();
      const endpoints = await trx
        .selectFrom('webhook_endpoints')
        .select('key_id')
        .where('key_id', 'in', dueKeys)
        .where('active', '=', true)
        .orderBy('key_id')
        .forUpdate()
        .skipLocked()
        .execute();
      const claimed: WebhookDeliveryRow[] = [];
      for (const { key_id } of endpoints) {
        const left = room - claimed.length;
        if (left <= 0) break;
        const busy = await trx
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('key_id', '=', key_id)
          .where('status', '=', 'pending')
          .where('lease_until', '>', wallNow)
          .executeTakeFirstOrThrow();
        const slots = Math.min(left, perEndpoint - Number(busy.n));
        if (slots <= 0) continue;
        const rows = await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({ lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
          .where('id', 'in', (eb) => {
            let pick = eb
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('key_id', '=', key_id)
              .where('status', '=', 'pending')
              .where('next_attempt_at', '<=', now)
              .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', wallNow)]));
            if (mine.length > 0) pick = pick.where('id', 'not in', mine);
            return pick.orderBy('event_seq').orderBy('id').limit(slots).forUpdate().skipLocked();
          })
          .returningAll()
          .execute();
        claimed.push(...rows.sort((a, b) => a.event_seq - b.event_seq || a.id - b.id));
      }
      return claimed;
    });
  }

  /** Keeps a claimed delivery's lease alive while it is worked (fenced by its attempt number). */
  function holdLease(delivery: WebhookDeliveryRow): () => void {
    const renew = setInterval(
      () => {
        db.updateTable('webhook_deliveries')
          .set({ lease_until: new Date(Date.now() + leaseMs) })
          .where('id', '=', delivery.id)
          .where('attempts', '=', delivery.attempts)
          .where('status', '=', 'pending')
          .execute()
          .catch((err: unknown) => {
            if (!stopped) logger.warn({ err, delivery_id: delivery.id }, 'webhook lease renewal failed');
          });
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    return () => clearInterval(renew);
  }

  async function send(url: string, secret: string, id: string, payload: string, attempt: number) {
    return options.sender.post(
      url,
      {
        [names.signature]: await signWebhookPayload(secret, payload),
        [names.eventId]: id,
        [names.deliveryAttempt]: String(attempt),
      },
      payload,
    );
  }

  async function attempt(delivery: WebhookDeliveryRow): Promise<void> {
    const event = await db
      .selectFrom('events')
      .select(['payload', 'type'])
      .where('seq', '=', delivery.event_seq)
      .executeTakeFirst();
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('key_id', '=', delivery.key_id)
      .executeTakeFirst();
    const id = eventId(delivery.event_seq);
    const startedAt = new Date(clock());
    // The fence: only the holder of this attempt number may record its outcome.
    const mineStill = (q: ReturnType<typeof updateDelivery>) =>
      q.where('attempts', '=', delivery.attempts).where('status', '=', 'pending');
    const updateDelivery = (trx: SandboxExecutor) =>
      trx.updateTable('webhook_deliveries').where('id', '=', delivery.id);
    if (event === undefined || endpoint === undefined || !endpoint.active) {
      await mineStill(updateDelivery(db))
        .set({
          status: 'failed',
          lease_until: null,
          last_error: event === undefined ? 'the event no longer exists' : 'no active webhook endpoint',
        })
        .execute();
      return;
    }
    const result = await send(endpoint.url, endpoint.secret, id, event.payload, delivery.attempts);
    const { statusCode, error, durationMs } = result;
    const delivered = error === null;
    const gone = statusCode === 410;
    const nowMs = clock();
    const exhausted = !delivered && (gone || delivery.attempts >= delivery.max_attempts);
    let recorded = true;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          attempt: delivery.attempts,
          url: endpoint.url,
          started_at: startedAt,
          duration_ms: durationMs,
          status_code: statusCode,
          error,
          outcome: delivered ? 'delivered' : 'failed',
        })
        .execute();
      const updated = await mineStill(updateDelivery(trx))
        .set({
          status: delivered ? 'delivered' : exhausted ? 'failed' : 'pending',
          lease_until: null,
          last_status_code: statusCode,
          last_error: error,
          ...(delivered ? { delivered_at: new Date(nowMs) } : {}),
          ...(!delivered && !exhausted
            ? { next_attempt_at: new Date(nowMs + retryDelayMs(delivery.attempts, timeScale)) }
            : {}),
        })
        .executeTakeFirst();
      recorded = updated.numUpdatedRows > 0n;
      if (gone) await disableEndpoint(trx, endpoint, nowMs);
      if (delivered && recorded && !delivery.duplicate) await maybeDuplicate(trx, delivery, nowMs);
    });
    const line = {
      event_id: id,
      event_type: event.type,
      key_id: delivery.key_id,
      delivery_id: delivery.id,
      attempt: delivery.attempts,
      status_code: statusCode,
      ms: durationMs,
    };
    if (!recorded) logger.warn(line, 'webhook attempt ended after its delivery was taken over or closed');
    else if (delivered) logger.info(line, 'webhook delivered');
    else if (gone) logger.warn(line, 'webhook endpoint answered 410 Gone: disabled until registered again');
    else
      logger.info(
        { ...line, error, final: exhausted },
        exhausted ? 'webhook delivery failed for good' : 'webhook attempt failed; will retry',
      );
  }

  /**
   * 410 Gone: marks the registration inactive (unless it was replaced since the attempt started) and closes the
   * endpoint's other pending deliveries. The events stay listed by `GET /events`.
   */
  async function disableEndpoint(trx: SandboxTrx, endpoint: WebhookEndpointRow, nowMs: number): Promise<void> {
    const disabled = await trx
      .updateTable('webhook_endpoints')
      .set({ active: false, updated_at: new Date(nowMs) })
      .where('key_id', '=', endpoint.key_id)
      .where('url', '=', endpoint.url)
      .where('updated_at', '=', endpoint.updated_at)
      .executeTakeFirst();
    if (disabled.numUpdatedRows === 0n) return;
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', lease_until: null, last_error: 'the endpoint answered 410 Gone and was disabled' })
      .where('key_id', '=', endpoint.key_id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** The duplicate-delivery fault: queues a second copy of a delivered event. */
  async function maybeDuplicate(trx: SandboxTrx, delivery: WebhookDeliveryRow, nowMs: number): Promise<void> {
    const faults = await trx
      .selectFrom('fault_settings')
      .select('duplicate_rate')
      .where('id', '=', 1)
      .executeTakeFirst();
    if (faults === undefined || faults.duplicate_rate <= 0 || Math.random() >= faults.duplicate_rate) return;
    await trx
      .insertInto('webhook_deliveries')
      .values({
        event_seq: delivery.event_seq,
        key_id: delivery.key_id,
        status: 'pending',
        max_attempts: delivery.max_attempts,
        next_attempt_at: new Date(nowMs),
        duplicate: true,
        created_at: new Date(nowMs),
      })
      .execute();
    kicked = true;
  }

  /** Starts one claimed attempt; it runs on its own, and its end wakes the worker (a slot is free). */
  function start(delivery: WebhookDeliveryRow): void {
    const release = holdLease(delivery);
    const work = attempt(delivery)
      .catch((err: unknown) => {
        if (!stopped) logger.error({ err, delivery_id: delivery.id }, 'webhook delivery bookkeeping failed');
      })
      .finally(() => {
        release();
        inFlight.delete(delivery.id);
        kick();
      });
    inFlight.set(delivery.id, work);
  }

  /** Milliseconds until the next delivery that is not yet due becomes due (at most {@link MAX_POLL_MS}). */
  async function untilNextDue(): Promise<number> {
    const nowMs = clock();
    const row = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('due'))
      .where('status', '=', 'pending')
      .where('next_attempt_at', '>', new Date(nowMs))
      .executeTakeFirst();
    const due = row?.due as Date | string | null | undefined;
    if (due === null || due === undefined) return MAX_POLL_MS;
    return Math.min(MAX_POLL_MS, Math.max(5, new Date(due).getTime() - nowMs));
  }

  const loop = (async () => {
    while (!stopped) {
      let waitMs = MAX_POLL_MS;
      try {
        kicked = false;
        const claimed = await claim();
        // Even when the worker stopped meanwhile: stop() waits for these attempts.
        for (const d of claimed) start(d);
        if (stopped) break;
        waitMs = claimed.length > 0 || kicked ? 0 : await untilNextDue();
      } catch (err) {
        if (stopped) break;
        logger.warn({ err }, 'webhook outbox round failed; retrying');
      }
      if (stopped || waitMs === 0) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, waitMs);
        if (kicked) resolve();
      });
      clearTimeout(timer);
      wake = undefined;
    }
  })();

  return {
    kick,
    async stop() {
      stopped = true;
      eventSignals.off('emitted', kick);
      clearTimeout(timer);
      wake?.();
      await loop;
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
  };
}
