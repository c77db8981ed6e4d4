/**
 * The webhook outbox worker (spec 5.3, 6): delivers stored events to the credential's registered endpoint.
 *
 * Each delivery is a `POST` of the event's JSON body (spec 2.5, the exact bytes stored with the event) with
 * `Content-Type: application/json`, `X-Service-Signature: <hex HMAC-SHA256(webhook secret, raw body)>` (no `v1=`,
 * spec 5.3), and, for the receiver's convenience, `X-Service-Event-Id` and `X-Service-Delivery-Attempt`.
 *
 * Only an HTTP 200 within the acknowledgement timeout (5 s, spec 6 rule 1 and 8) counts as delivered; any other
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
 * Deliveries are rows in the database, claimed with a lease (`for update skip locked`), so several sandbox
 * processes on one PostgreSQL share the work without sending an attempt twice, and a restarted sandbox picks up
 * every pending delivery (a delivery whose process died mid-attempt is retried once its lease runs out). Within one
 * claim, a credential's deliveries are sent one after another in event order; across retries, order is not
 * guaranteed (receivers order by event id, spec 6 rule 2 and 4).
 */
import { signWebhookPayload, WEBHOOK_ACK_TIMEOUT_SECONDS, headerNames } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { SandboxDb, WebhookDeliveryRow } from '../db/tables.ts';
import { eventId, eventSignals } from './store.ts';

/** Base of the back-off: the wait after the first failed attempt, in seconds (before jitter and time scale). */
export const RETRY_BASE_SECONDS = 30;
/** Deliveries claimed per round. */
const BATCH = 10;
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
  /** The acknowledgement timeout in milliseconds; default 5000 (spec 8). */
  readonly timeoutMs?: number;
}

/** A running outbox worker. */
export interface Outbox {
  /** Looks for due deliveries now. */
  kick(): void;
  /** Stops claiming, and waits for the attempts in flight to finish. */
  stop(): Promise<void>;
}

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
    const code = (err.cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return `connection failed (${code})`;
    return err.message.slice(0, 200);
  }
  return String(err).slice(0, 200);
}

/**
 * Starts the worker: it runs at once (picking up deliveries left pending by an earlier run), after every event
 * committed in this process, and at least every second.
 */
export function startOutbox(options: OutboxOptions): Outbox {
  const { db, clock, logger } = options;
  const timeScale = options.timeScale ?? 1;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_ACK_TIMEOUT_SECONDS * 1000;
  const names = headerNames(options.headerPrefix);
  const prefix = options.headerPrefix;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let kicked = false;

  const kick = () => {
    kicked = true;
    wake?.();
  };
  eventSignals.on('emitted', kick);

  async function claim(nowMs: number): Promise<WebhookDeliveryRow[]> {
    const now = new Date(nowMs);
    const leaseUntil = new Date(nowMs + timeoutMs + 5_000);
    return db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', now)]))
          .orderBy('event_seq')
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute();
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
    if (event === undefined || endpoint === undefined || !endpoint.active) {
      await db
        .updateTable('webhook_deliveries')
        .set({
          status: 'failed',
          lease_until: null,
          last_error: event === undefined ? 'the event no longer exists' : 'no active webhook endpoint',
        })
        .where('id', '=', delivery.id)
        .execute();
      return;
    }
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'domainkit-sandbox-webhooks/1',
          [names.signature]: signWebhookPayload(endpoint.secret, event.payload),
          [`${prefix}Event-Id`]: id,
          [`${prefix}Delivery-Attempt`]: String(delivery.attempts),
        },
        body: event.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      statusCode = res.status;
      await res.body?.cancel().catch(() => undefined);
      if (statusCode !== 200) error = `answered HTTP ${statusCode}; only 200 acknowledges a delivery`;
    } catch (err) {
      error = describeFailure(err, timeoutMs);
    }
    const durationMs = Math.round(performance.now() - started);
    const delivered = error === null;
    const nowMs = clock();
    const exhausted = !delivered && delivery.attempts >= delivery.max_attempts;
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
      await trx
        .updateTable('webhook_deliveries')
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
        .where('id', '=', delivery.id)
        .execute();
      if (delivered && !delivery.duplicate) {
        const faults = await trx
          .selectFrom('fault_settings')
          .select('duplicate_rate')
          .where('id', '=', 1)
          .executeTakeFirst();
        if (faults !== undefined && faults.duplicate_rate > 0 && Math.random() < faults.duplicate_rate) {
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
      }
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
    if (delivered) logger.info(line, 'webhook delivered');
    else
      logger.info(
        { ...line, error, final: exhausted },
        exhausted ? 'webhook delivery failed for good' : 'webhook attempt failed; will retry',
      );
  }

  async function round(): Promise<number> {
    const claimed = await claim(clock());
    const byKey = new Map<string, WebhookDeliveryRow[]>();
    for (const d of claimed) byKey.set(d.key_id, [...(byKey.get(d.key_id) ?? []), d]);
    await Promise.all(
      [...byKey.values()].map(async (list) => {
        for (const d of list) {
          try {
            await attempt(d);
          } catch (err) {
            if (!stopped) logger.error({ err, delivery_id: d.id }, 'webhook delivery bookkeeping failed');
          }
        }
      }),
    );
    return claimed.length;
  }

  async function untilNextDue(): Promise<number> {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('due'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    const due = row?.due as Date | string | null | undefined;
    if (due === null || due === undefined) return MAX_POLL_MS;
    return Math.min(MAX_POLL_MS, Math.max(5, new Date(due).getTime() - clock()));
  }

  const loop = (async () => {
    while (!stopped) {
      let waitMs = MAX_POLL_MS;
      try {
        kicked = false;
        const n = await round();
        waitMs = n === BATCH || kicked ? 0 : await untilNextDue();
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
      if (stopped) return loop;
      stopped = true;
      eventSignals.off('emitted', kick);
      clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
