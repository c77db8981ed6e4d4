/**
 * Admin calls that let a test or an operator watch the sandbox: the event history of every credential, and a test
 * ping to a credential's webhook endpoint.
 *
 * | call | answer |
 * |---|---|
 * | `GET /admin/events?after_id=&key_id=&limit=` | `{events, next_cursor}`: every credential's events in creation order, each with its `key_id` |
 * | `POST /admin/webhooks/ping` `{key_id?}` | `{url, event_id, status_code, ok, duration_ms, error}`: one signed `webhook.ping` delivery, sent now |
 *
 * The ping (docs/spec-decisions.md "Webhook test ping") is signed like every delivery (Partner API spec 5.3) and shaped like an
 * event (Partner API spec 2.5) with `type: "webhook.ping"` and empty `data`; it is not stored in the history and never retried.
 */
import { headerNames, signWebhookPayload } from '@domainkit/protocol';
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { SandboxDb } from '../db/tables.ts';
import { eventId, eventSeq, toWireEvent } from '../events/store.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { randomBase62 } from '../ids.ts';
import type { WebhookSender } from '../events/webhook-target.ts';

/** The event type of a test ping (not one of Partner API spec 6's: receivers should answer 200 and ignore it). */
export const WEBHOOK_PING_TYPE = 'webhook.ping';

/** Builds the observation router (mounted inside the admin router, after its token guard and JSON parser). */
export function observeAdminRouter(options: {
  db: SandboxDb;
  clock: Clock;
  logger: Logger;
  demoKeyId: string;
  headerPrefix: string;
  /** Sends the ping (to checked addresses only, like every delivery). */
  webhookSender: WebhookSender;
}): Router {
  const { db, clock, logger } = options;
  const router = express.Router();
  const names = headerNames(options.headerPrefix);

  router.get('/events', async (req, res) => {
    const q = parseOrThrow(
      z.strictObject({
        after_id: z.string().max(40).optional(),
        key_id: z.string().min(1).max(100).optional(),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
      req.query,
      'query',
    );
    let query = db
      .selectFrom('events')
      .select(['seq', 'payload', 'key_id'])
      .where('seq', '>', q.after_id === undefined ? 0 : eventSeq(q.after_id));
    if (q.key_id !== undefined) query = query.where('key_id', '=', q.key_id);
    const rows = await query
      .orderBy('seq')
      .limit(q.limit + 1)
      .execute();
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    res.json({
      events: page.map((r) => ({ ...toWireEvent(r), key_id: r.key_id })),
      next_cursor: rows.length > q.limit && last !== undefined ? eventId(last.seq) : null,
    });
  });

  router.post('/webhooks/ping', async (req, res) => {
    const input = parseOrThrow(
      z.strictObject({ key_id: z.string().min(1).max(100).optional() }),
      req.body ?? {},
      'ping',
    );
    const keyId = input.key_id ?? options.demoKeyId;
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .innerJoin('credentials', 'credentials.key_id', 'webhook_endpoints.key_id')
      .select([
        'webhook_endpoints.url',
        'webhook_endpoints.secret',
        'webhook_endpoints.active',
        'credentials.partner_id',
      ])
      .where('webhook_endpoints.key_id', '=', keyId)
      .executeTakeFirst();
    if (endpoint === undefined || !endpoint.active)
      throw apiError(
        'not_found',
        `Credential ${keyId} has no active webhook endpoint: register one with PUT /api/partner/webhooks first.`,
      );
    const id = `evt_ping_${randomBase62(16)}`;
    const payload = JSON.stringify({
      id,
      type: WEBHOOK_PING_TYPE,
      created_at: new Date(clock()).toISOString(),
      partner_id: endpoint.partner_id,
      data: {},
    });
    const sent = await options.webhookSender.post(
      endpoint.url,
      {
        [names.signature]: await signWebhookPayload(endpoint.secret, payload),
        [names.eventId]: id,
        [names.deliveryAttempt]: '1',
      },
      payload,
    );
    // A 410 to a ping disables nothing: it is reported like any other non-200.
    const error = sent.statusCode === 410 ? 'answered HTTP 410; only 200 acknowledges a delivery' : sent.error;
    const result = {
      url: endpoint.url,
      event_id: id,
      status_code: sent.statusCode,
      ok: error === null,
      duration_ms: sent.durationMs,
      error,
    };
    logger.info({ key_id: keyId, ...result }, 'webhook ping sent');
    res.json(result);
  });

  return router;
}
