/**
 * The webhooks feature (Partner API spec 6): `POST /webhooks` stores signed events in the inbox, the inbox worker
 * runs the partner's handlers, catch-up reads `GET /events` for what a webhook missed, and the webhook endpoint is
 * registered upstream. The entry every other module of the BFF imports it through.
 */
export {
  EventHandlers,
  HANDLER_TYPES,
  type EventContext,
  type EventHandler,
  type EventHandlerMap,
  type EventHandlerType,
  type InboxTimings,
} from './inbox.ts';
export { inboxBacklog } from './inbox-store.ts';
export type { CatchUpReport } from './catch-up.ts';
export { InboxWorker } from './inbox-worker.ts';
export { WebhookRegistration } from './registration.ts';
export { WEBHOOK_BODY_LIMIT_BYTES, webhookRoute } from './route.ts';
