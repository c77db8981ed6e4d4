/**
 * Order tracking for the buyer (Partner API spec 2.1, 3, 6): `GET /orders/:id/status?after=<version>&wait=<seconds>`
 * with header `X-Order-Token` is a long poll on the status the BFF keeps from the webhooks. It answers at once when
 * the order's version differs from `after` (or the order is final), else when the order moves, else after `wait`
 * seconds (at most {@link MAX_TRACK_WAIT_SECONDS}, and always before the request's deadline) with the same version.
 *
 * The order moves in this process when the inbox applies one of its events ({@link OrderWatch.notify}); the stored
 * order is read again every {@link TRACK_RECHECK_MS} while waiting, so an event applied by another process (another
 * replica, or a Workers isolate handling it under a webhook's `waitUntil`) is seen too. Never a tight loop: one read
 * per recheck per waiting buyer. The status never moves back: it is the stored order's, which an older event never
 * moves (status.ts `movesForward`). A wrong token gets the same 404 as an unknown order.
 */
import { named } from '../http/widget.ts';
import type { WidgetOrderTrack } from '@domainkit/protocol';
import { z } from 'zod';
import { toCents } from '../db/tables.ts';
import type { BffDb } from '../db/tables.ts';
import { BffHttpError } from '../errors.ts';
import { type BffRequest, json, type RouteHandler } from '../http/index.ts';
import { parseInput } from '../validate.ts';
import { findIntentForView, viewTokenMatches } from './order-store.ts';
import { ORDER_TOKEN_HEADER } from './order-routes.ts';
import { FINAL_ORDER_STATUSES } from './status.ts';
import { intentMoney, intentStatus } from './views.ts';

/** Longest wait a buyer may ask of one `GET /orders/:id/status` (seconds; under common proxies' 30 s). */
export const MAX_TRACK_WAIT_SECONDS = 25;
/** How often a waiting request reads the stored order again (ms), for moves made in another process. */
export const TRACK_RECHECK_MS = 2000;
/** Time kept between the end of a wait and the request's deadline (ms), to answer before it. */
const DEADLINE_MARGIN_MS = 1000;

/** Statuses a tracked order never leaves: the final order statuses and a purchase that ended without an order. */
const ENDED = new Set([...FINAL_ORDER_STATUSES, 'FAILED']);

/**
 * Wakes the buyers waiting on an order when this process applies one of its events: one set of waiters per order id.
 * Waiters that time out or whose request ends remove themselves.
 */
export class OrderWatch {
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Wakes every request waiting on `orderId` (called after the inbox applied an event of that order). */
  notify(orderId: string): void {
    const waiters = this.#waiters.get(orderId);
    if (waiters === undefined) return;
    this.#waiters.delete(orderId);
    for (const wake of waiters) wake();
  }

  /** How many requests wait on `orderId` (metrics, tests). */
  waiting(orderId: string): number {
    return this.#waiters.get(orderId)?.size ?? 0;
  }

  /**
   * Resolves when `orderId` is notified, after `ms`, or when `signal` aborts, whichever comes first; never rejects.
   * @param ms - the longest wait, in milliseconds.
   */
  wait(orderId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const set = this.#waiters.get(orderId) ?? new Set<() => void>();
      this.#waiters.set(orderId, set);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.#waiters.get(orderId) === set) this.#waiters.delete(orderId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      (timer as { unref?: () => void }).unref?.();
      signal.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }
}

/** What the order tracking route uses. */
export interface OrderTrackRouteDeps {
  /** The open database. @throws {BffHttpError} 503 `unavailable` when it is not available. */
  readonly db: () => Promise<BffDb>;
  /** The moves this process applies. */
  readonly watch: OrderWatch;
  /** The visitor deadline (ms, option `requestDeadlineSeconds`): a wait always ends before it. */
  readonly deadlineMs: number;
  /** How often a waiting request reads the order again (ms); default {@link TRACK_RECHECK_MS}. */
  readonly recheckMs?: number | undefined;
}

const paramsSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'must be an order id such as "ord_…"'),
});
const querySchema = z.strictObject({
  after: z
    .string()
    .regex(/^[0-9]{1,16}$/, 'must be the `version` of the last answer (digits), or left out')
    .optional(),
  wait: z
    .string()
    .regex(/^[0-9]{1,3}$/, `must be a whole number of seconds from 0 to ${MAX_TRACK_WAIT_SECONDS}`)
    .transform(Number)
    .refine((n) => n <= MAX_TRACK_WAIT_SECONDS, `must be at most ${MAX_TRACK_WAIT_SECONDS} seconds`)
    .optional(),
});
const NOT_FOUND = 'No such order for this order token.';

/** The tracked order as the buyer sees it now, or undefined when the token does not open it. */
async function readTrack(db: BffDb, id: string, token: string | undefined): Promise<WidgetOrderTrack | undefined> {
  const found = await findIntentForView(db, id);
  if (found === undefined || !(await viewTokenMatches(db, found.intent, token))) return undefined;
  const { intent, order } = found;
  const updated = Math.max(intent.updated_at.getTime(), order?.updated_at.getTime() ?? 0);
  const status = order?.status ?? intentStatus(intent);
  const body: WidgetOrderTrack = {
    order_id: intent.order_id ?? intent.intent_id,
    status,
    ...named(order?.domain ?? intent.domain),
    sale_price_cents: toCents(order?.sale_price_cents ?? intent.price_cents),
    currency: order?.currency ?? intent.currency,
    updated_at: new Date(updated).toISOString(),
    version: String(updated),
    final: ENDED.has(status),
  };
  const money = order === undefined ? intentMoney(intent) : undefined;
  if (money !== undefined) body.money = money;
  return body;
}

/** The order tracking route (`GET /orders/:id/status`; counted as a search; answered before the visitor deadline). */
export function orderTrackRoute(deps: OrderTrackRouteDeps): RouteHandler {
  const recheckMs = deps.recheckMs ?? TRACK_RECHECK_MS;
  return async function domainkitBffOrderTrack(req: BffRequest): Promise<Response> {
    const started = Date.now();
    const query = parseInput(querySchema, req.query, 'query', {
      after: { label: '`after`', hint: 'the `version` of the last answer', example: '1767225600000' },
      wait: { label: '`wait`', hint: `seconds to wait for a change, 0 to ${MAX_TRACK_WAIT_SECONDS}`, example: '25' },
    });
    const { id } = parseInput(paramsSchema, { id: req.params.id }, 'path', {
      id: { label: 'The order id in the path', hint: 'the order_id from POST /orders', example: 'ord_…' },
    });
    const token = req.header(ORDER_TOKEN_HEADER);
    const db = await deps.db();
    let track = await readTrack(db, id, token);
    if (track === undefined) throw new BffHttpError('not_found', NOT_FOUND);
    const waitMs = Math.max(0, Math.min((query.wait ?? 0) * 1000, deps.deadlineMs - DEADLINE_MARGIN_MS));
    // Should the deadline pass anyway (a slow database), the buyer gets the last status read, never a 504.
    req.onDeadline(() => ({ status: 200, body: track }));
    while (
      query.after !== undefined &&
      track.version === query.after &&
      !track.final &&
      !req.deadline.aborted &&
      Date.now() - started < waitMs
    ) {
      await deps.watch.wait(track.order_id, Math.min(recheckMs, waitMs - (Date.now() - started)), req.deadline);
      track = (await readTrack(db, id, token)) ?? track;
    }
    return json(track, 200, { 'Cache-Control': 'no-store' });
  };
}
