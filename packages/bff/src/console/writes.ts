/**
 * The console's writes (docs/console-api.md "Session"): `POST /console/session` (the partner's `authorize` hook
 * decides), `POST /console/orders/:id/refund` and `POST /console/links`. The routes are marked same-site writes, so a
 * cross-site request is refused 403 before they run; each write needs an `Idempotency-Key` (the same key replays its
 * first answer, another write under it is 409 `conflict`), is checked before anything goes upstream, is sent with that
 * key, drops the cached views it changes, and is logged with the actor the token names.
 */
import { createHash } from 'node:crypto';
import { MarketplaceError } from '@domainkit/client';
import {
  consoleCreateLinkRequestSchema,
  consoleRefundRequestSchema,
  type ConsoleSession,
  ErrorCode,
} from '@domainkit/protocol';
import { z } from 'zod';
import { type BffRequest, json, JSON_BODY_LIMIT_BYTES, readJson, type RouteHandler } from '../http/index.ts';
import { parseInput } from '../validate.ts';
import { type ConsoleDeps, type ConsoleHandler, consoleError, guarded } from './guard.ts';
import { mintConsoleToken } from './token.ts';
import { consoleOrder, isRefundable, TAGS } from './views.ts';

/** How long a write's answer is kept for a replay of its `Idempotency-Key` (ms): a day. */
const REPLAY_MS = 86_400_000;

interface Remembered {
  readonly fingerprint: string;
  readonly at: number;
  readonly answer: Promise<{ status: number; body: unknown }>;
}

/** The writes' idempotency keys of this process, with their answers. */
export class ConsoleWrites {
  readonly #seen = new Map<string, Remembered>();

  /**
   * The answer of the write `fingerprint` under `key`: the first answer again when the key was used for the same
   * write, 409 `conflict` for another, else `run`'s (remembered unless it failed before reaching the marketplace).
   */
  async once(key: string, fingerprint: string, now: number, run: () => Promise<Response>): Promise<Response> {
    for (const [k, r] of this.#seen) if (now - r.at > REPLAY_MS) this.#seen.delete(k);
    const earlier = this.#seen.get(key);
    if (earlier !== undefined) {
      if (earlier.fingerprint !== fingerprint)
        return consoleError('conflict', 'This Idempotency-Key was used for another write: use a new key per write.');
      const { status, body } = await earlier.answer;
      return json(body, status, { 'Cache-Control': 'no-store', 'Idempotent-Replayed': 'true' });
    }
    const answer = run().then(async (r) => ({ status: r.status, body: await r.json() }));
    this.#seen.set(key, { fingerprint, at: now, answer });
    try {
      const { status, body } = await answer;
      if (status >= 500) this.#seen.delete(key);
      return json(body, status, { 'Cache-Control': 'no-store' });
    } catch (error) {
      this.#seen.delete(key);
      throw error;
    }
  }
}

const keySchema = z.object({
  key: z
    .string({ error: 'is required on every console write: a new random key (such as a UUID) per write' })
    .regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be 16 to 128 letters, digits, "-" or "_" (such as a UUID)'),
});

/** The body of a write: `{}` when none was sent. */
async function bodyOf(req: BffRequest): Promise<unknown> {
  const length = req.header('content-length');
  if (req.header('content-type') === undefined && (length === undefined || length === '0')) return {};
  return readJson(req, JSON_BODY_LIMIT_BYTES);
}

/** Runs a write once per `Idempotency-Key` (400 `missing_idempotency_key` without one). */
function idempotent(
  deps: ConsoleDeps,
  writes: ConsoleWrites,
  what: string,
  run: (req: BffRequest, actor: string, body: unknown, key: string) => Promise<Response>,
): ConsoleHandler {
  return async (req, claims) => {
    const raw = req.header('idempotency-key');
    if (raw === undefined)
      return consoleError('missing_idempotency_key', 'Send an Idempotency-Key header: a new random key per write.');
    const { key } = parseInput(keySchema, { key: raw }, 'header', {
      key: { label: 'The Idempotency-Key header', hint: 'a new random key per write', example: '' },
    });
    const body = await bodyOf(req);
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([what, req.params, body]))
      .digest('hex');
    return writes.once(key, fingerprint, deps.now(), () => run(req, claims.sub, body, key));
  };
}

const orderIdSchema = z.strictObject({ id: z.string().trim().min(1).max(100) });

/** `POST /console/orders/:id/refund`: only before `TRANSFER_COMPLETED`; the marketplace's refusal in its words. */
function refund(deps: ConsoleDeps, writes: ConsoleWrites): ConsoleHandler {
  return idempotent(deps, writes, 'refund', async (req, actor, sent, key) => {
    const { id } = parseInput(orderIdSchema, req.params, 'path');
    const input = parseInput(consoleRefundRequestSchema, sent, 'body');
    // The order as the console shows it (the shared cache, so a refund costs no extra read while the view is fresh):
    // past TRANSFER_COMPLETED nothing is sent. Were it moved on since, the marketplace refuses, in its own words.
    const { value } = await deps.cache.get(`order:${id}`, ['orders'], 1, async () => ({
      order: consoleOrder(await deps.client.orders.retrieve(id)),
    }));
    const order = value.order;
    if (!isRefundable(order.status)) {
      return consoleError(
        'not_refundable',
        `Order ${id} is ${order.status}: a refund is only possible before TRANSFER_COMPLETED.`,
        { status: order.status },
      );
    }
    let made: Awaited<ReturnType<ConsoleDeps['client']['refunds']['create']>>;
    try {
      made = await deps.client.refunds.create(
        { order_id: id, ...(input.reason !== undefined && input.reason !== '' && { reason: input.reason }) },
        { idempotencyKey: key },
      );
    } catch (error) {
      const status = error instanceof MarketplaceError ? (error.status ?? 0) : 0;
      if (error instanceof MarketplaceError && status >= 400 && status < 500 && status !== 429) {
        deps.logger.info({ actor, order_id: id, code: error.code }, 'console refund refused by the marketplace');
        if (error.code === ErrorCode.NotFound) return consoleError('not_found', `No order ${id}.`);
        return consoleError('not_refundable', `The marketplace refused to refund order ${id}.`, {
          status: order.status,
          detail: error.message,
        });
      }
      throw error;
    }
    await deps.cache.invalidate(TAGS.order);
    deps.logger.info({ actor, order_id: id, refund_id: made.refund_id }, 'console refund made');
    const after = made.order ?? { ...order, status: 'REFUNDED' };
    return json({ refund: made, order: consoleOrder(after) });
  });
}

/** `POST /console/links`: a generic, domain or product referral link. */
function createLink(deps: ConsoleDeps, writes: ConsoleWrites): ConsoleHandler {
  return idempotent(deps, writes, 'link', async (_req, actor, sent, key) => {
    const input = parseInput(consoleCreateLinkRequestSchema, sent, 'body');
    const link = await deps.client.links.create(input, { idempotencyKey: key });
    await deps.cache.invalidate(TAGS.link);
    deps.logger.info({ actor, link_id: link.link_id, kind: link.kind }, 'console link created');
    return json({ link }, 201);
  });
}

/** `POST /console/session`: the partner's hook says who is signed in; a token for them, or 401. */
function session(deps: ConsoleDeps): RouteHandler {
  return async function domainkitBffConsoleSession(req: BffRequest): Promise<Response> {
    const who = await deps.settings.authorize(req.request);
    const actor = who ? String(who.actor ?? '').trim() : '';
    if (actor === '' || actor.length > 200)
      return consoleError('unauthorized', 'Sign in to the admin first: the console could not tell who you are.');
    // The session takes no body: one sent is read within the JSON limit (refused past it, 413) and ignored.
    await bodyOf(req);
    const { token, claims } = mintConsoleToken(deps.key, actor, deps.settings.tokenTtlSeconds, deps.now());
    deps.logger.info({ actor }, 'console session opened');
    const body: ConsoleSession = {
      token,
      token_type: 'Bearer',
      expires_in: deps.settings.tokenTtlSeconds,
      expires_at: new Date(claims.exp * 1000).toISOString(),
      scopes: [...claims.scp],
      actor,
    };
    return json(body, 200, { 'Cache-Control': 'no-store' });
  };
}

/** The console's write routes: same-site writes, each counted against the visitor write limit. */
export function writeRoutes(deps: ConsoleDeps) {
  const writes = new ConsoleWrites();
  return [
    { path: '/console/session', POST: session(deps), sameSiteWrite: true, limit: 'write' as const },
    {
      path: '/console/orders/:id/refund',
      POST: guarded(deps, 'refund', refund(deps, writes)),
      sameSiteWrite: true,
      limit: 'write' as const,
    },
  ];
}

/** `POST /console/links` (joined with `GET /console/links` in one route spec by index.ts). */
export function createLinkRoute(deps: ConsoleDeps): RouteHandler {
  return guarded(deps, 'create_link', createLink(deps, new ConsoleWrites()));
}
