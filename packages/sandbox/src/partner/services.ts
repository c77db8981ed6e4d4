/**
 * Background work of the Partner API side of a sandbox: the webhook outbox worker (events/outbox.ts), started with
 * the app and stopped before its database closes.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { SandboxDb } from '../db/tables.ts';
import { startOutbox, type Outbox } from '../events/outbox.ts';
import type { WebhookSender } from '../events/webhook-target.ts';
import type { ResolvedOptions } from '../options.ts';

/** Starts the outbox worker, or a no-op when `deliverWebhooks` is false. */
export function startPartnerServices(
  resolved: ResolvedOptions,
  deps: { db: SandboxDb; clock: Clock; logger: Logger; sender: WebhookSender },
): Outbox {
  if (!resolved.deliverWebhooks) return { kick() {}, stop: async () => {} };
  return startOutbox({
    ...deps,
    headerPrefix: resolved.headerPrefix,
    timeScale: resolved.webhookTimeScale,
    timeoutMs: resolved.webhookTimeoutMs,
  });
}
