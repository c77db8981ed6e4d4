/**
 * Webhook registration and the event history (Partner API spec 2.4, 2.5, 4.1 "Webhooks and events", 6; scope `webhook`).
 */
import {
  eventListSchema,
  listEventsParamsSchema,
  webhookRegistrationRequestSchema,
  webhookRegistrationSchema,
} from '@domainkit/protocol';
import { PARTNER_API_PREFIX, defineEndpoint } from '../endpoint.ts';

/**
 * `GET /events?after_id=&limit=`: the events after `after_id`, oldest first; `next_cursor` is the id to pass as
 * the next `after_id`, `null` when caught up.
 */
export const listEventsEndpoint = defineEndpoint({
  name: 'events.list',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/events`,
  input: listEventsParamsSchema,
  response: eventListSchema,
  rateClass: 'read',
});

/**
 * `PUT /api/partner/webhooks` (no `/v1`, Partner API spec 9): registers or updates the delivery URL and signing secret.
 * Idempotent (PUT), so retried after a network error or a 5xx.
 */
export const registerWebhookEndpoint = defineEndpoint({
  name: 'webhooks.register',
  method: 'PUT',
  path: '/api/partner/webhooks',
  input: webhookRegistrationRequestSchema,
  response: webhookRegistrationSchema,
  rateClass: 'manage',
});
