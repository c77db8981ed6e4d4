/**
 * Webhook registration and the event history (Partner API spec 2.4, 2.5, 4.1 "Webhooks and events", 6; scope `webhook`).
 */
import { PARTNER_API_OPERATIONS as OPS } from '@domainkit/protocol';
import { partnerEndpoint } from '../endpoint.ts';

/**
 * `GET /events?after_id=&limit=`: the events after `after_id`, oldest first; `next_cursor` is the id to pass as
 * the next `after_id`, `null` when caught up.
 */
export const listEventsEndpoint = partnerEndpoint('events.list', OPS.listEvents);

/**
 * `PUT /api/partner/webhooks` (no `/v1`, Partner API spec 9): registers or updates the delivery URL and signing secret.
 * Idempotent (PUT), so retried after a network error or a 5xx.
 */
export const registerWebhookEndpoint = partnerEndpoint('webhooks.register', OPS.registerWebhook);
