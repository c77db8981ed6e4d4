/**
 * The webhooks feature (Partner API spec 6): `POST /webhooks` stores signed events in the inbox, the inbox worker
 * runs the partner's handlers, catch-up reads `GET /events` for what a webhook missed, and the webhook endpoint is
 * registered upstream. The entry every other module of the BFF imports it through.
 */
import type { RouteSpec } from '../http/index.ts';
import { webhookRoute, type WebhookRouteDeps } from './route.ts';

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
export { WEBHOOK_BODY_LIMIT_BYTES, WEBHOOK_RETRY_AFTER_SECONDS, webhookRoute, type WebhookRouteDeps } from './route.ts';

/** What the handler composes of the webhooks feature's receiver (served when option `webhook` is set). */
export interface WebhooksFeature {
  /**
   * `POST /webhooks`: the marketplace's signed deliveries. No visitor limit, no cross-site check (a server sends
   * them, signed) and no visitor deadline (it answers once the event is stored).
   */
  readonly routes: readonly RouteSpec[];
}

/** The webhooks feature's receiver route, made once per BFF. */
export function webhooksFeature(deps: WebhookRouteDeps): WebhooksFeature {
  return { routes: [{ path: '/webhooks', POST: webhookRoute(deps), deadline: false, rawBody: true }] };
}
export {
  webhookOptionsShape,
  WEBHOOK_ALIASES,
  clientForWebhooksProblem,
  webhookProblems,
  unknownEventTypeProblem,
  resolveEventHandlers,
  INBOX_TIMINGS,
  WEBHOOK_ENV_VARIABLES,
  readWebhookEnv,
  type WebhookOptions,
} from './options.ts';
