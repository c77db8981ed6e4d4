/**
 * Webhook registration and the event history (Partner API spec 2.4, 4.1 "Webhooks and events", scope `webhook`):
 *
 * - `PUT /api/partner/webhooks` (no `/v1`, Partner API spec 9.1) `{url, secret}` → 200 `{url, active, created_at, updated_at}`.
 *   Registers or replaces the credential's endpoint and signing secret (the secret is never answered). The URL must
 *   be `https://`, except for loopback hosts (`localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`), which may use
 *   `http://` so local development works; it may not carry a user name or password; its host must resolve to public
 *   addresses, or loopback on a port other than the sandbox's (webhook-target.ts). Deliveries of events already
 *   queued use the endpoint as registered when they are attempted. Registering again re-activates an endpoint that
 *   was disabled.
 * - `GET /api/partner/webhooks` (added; the spec shows only `PUT`) → 200 the same shape, or 404 `not_found` when
 *   nothing is registered. `active` is false once the endpoint answered 410 Gone (events/outbox.ts).
 * - `GET /v1/events?after_id=&limit=` → `{events, next_cursor}`: the credential's events in creation order, after
 *   `after_id` (exclusive; omitted = from the first). `limit` 1–100, default 50. `next_cursor` is the id to pass as
 *   `after_id` for the next page, null when caught up. An `after_id` past the end gives an empty page.
 */
import { listEventsParamsSchema, webhookRegistrationRequestSchema } from '@domainkit/protocol';
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { authorize, credentialOf } from '../auth/authorize.ts';
import type { Clock } from '../clock.ts';
import type { SandboxDb, WebhookEndpointRow } from '../db/tables.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { readJsonBody } from '../http/body.ts';
import { eventSeq, listEvents } from './store.ts';
import { checkWebhookUrl, type OwnPorts } from './webhook-target.ts';

function toWire(row: WebhookEndpointRow) {
  return {
    url: row.url,
    active: row.active,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Builds `PUT /webhooks` and `GET /webhooks` (mount under `/api/partner`). */
export function webhookRegistrationRouter(options: {
  db: SandboxDb;
  clock: Clock;
  logger: Logger;
  /** The sandbox's listening ports: refused as webhook targets on loopback. */
  ownPorts: OwnPorts;
}): Router {
  const { db, clock, logger } = options;
  const router = express.Router();
  router.put('/webhooks', authorize({ scope: 'webhook', rateClass: 'manage' }), async (req, res) => {
    const input = parseOrThrow(webhookRegistrationRequestSchema, readJsonBody(req), 'webhook registration');
    const url = (await checkWebhookUrl(input.url, options.ownPorts)).toString();
    const credential = credentialOf(res);
    const now = new Date(clock());
    const row = await db
      .insertInto('webhook_endpoints')
      .values({ key_id: credential.key_id, url, secret: input.secret, active: true, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('key_id').doUpdateSet({ url, secret: input.secret, active: true, updated_at: now }))
      .returningAll()
      .executeTakeFirstOrThrow();
    logger.info({ key_id: credential.key_id, host: new URL(url).host }, 'webhook endpoint registered');
    res.json(toWire(row));
  });
  router.get('/webhooks', authorize({ scope: 'webhook', rateClass: 'read' }), async (_req, res) => {
    const row = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('key_id', '=', credentialOf(res).key_id)
      .executeTakeFirst();
    if (row === undefined)
      throw apiError(
        'not_found',
        'No webhook endpoint is registered for this credential: PUT /webhooks registers one.',
      );
    res.json(toWire(row));
  });
  return router;
}

/** Builds `GET /events` (mount under `/api/partner/v1`). */
export function eventsRouter(options: { db: SandboxDb }): Router {
  const { db } = options;
  const router = express.Router();
  router.get('/events', authorize({ scope: 'webhook', rateClass: 'read' }), async (req, res) => {
    const params = parseOrThrow(listEventsParamsSchema, req.query, 'query');
    const after = params.after_id === undefined ? 0 : eventSeq(params.after_id);
    res.json(await listEvents(db, credentialOf(res).key_id, after, params.limit));
  });
  return router;
}
