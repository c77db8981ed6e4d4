/**
 * `POST /webhooks`: deliveries from the marketplace (Partner API spec 5.3, 6). The signature is verified on the exact
 * bytes received, on every runtime (this route reads its own body with `readRawBody`: no JSON parser runs first; a
 * body over {@link WEBHOOK_BODY_LIMIT_BYTES} is refused 413 as soon as its bytes pass the limit), the event is stored
 * in the inbox under its id, and 200 is answered at once; the partner's handlers run afterwards (`eventsStored`,
 * kept alive with the host's `waitUntil` where it has one). A bad signature is 400 (the marketplace retries, catch-up
 * fills any gap); a body already consumed by the partner's own JSON parser is a 500 that says so in the log.
 */
import { WebhookPayloadError, WebhookSignatureError, createWebhookVerifier } from '@domainkit/client';
import type { Logger } from 'pino';
import type { BffMetrics } from '../metrics.ts';
import type { BffDb } from '../db/tables.ts';
import { BffHttpError } from '../errors.ts';
import { eventDomains } from './inbox.ts';
import { storeEvents } from './inbox-store.ts';
import { type BffRequest, json, readRawBody, refuseDeclaredOverLimit, type RouteHandler } from '../http/index.ts';

/** The `Retry-After` (seconds) of a delivery that could not be stored (503). */
export const WEBHOOK_RETRY_AFTER_SECONDS = 30;

/** Largest webhook body accepted (an event is under 2 kB). */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

/** What the webhook route uses. */
export interface WebhookRouteDeps {
  /** The webhook secret deliveries are signed with. */
  readonly secret: string;
  /** Signing header prefix; the client's default when undefined. */
  readonly headerPrefix: string | undefined;
  /** The open database. @throws {BffHttpError} 503 `unavailable` when it is not available. */
  readonly db: () => Promise<BffDb>;
  /** The credential whose inbox the events go to. */
  readonly keyId: string;
  readonly now: () => number;
  readonly logger: Logger;
  /** Where refused signatures are counted (metrics.ts). */
  readonly metrics?: Pick<BffMetrics, 'webhookVerificationFailed'> | undefined;
  /** Told each domain an event names (drops cached searches). */
  readonly domainChanged: (domain: string) => void;
  /**
   * Told an event was stored: the inbox worker handles it after the answer. Resolves when that work is done (the
   * route hands it to the host's `waitUntil`, so a serverless function lives until then).
   */
  readonly eventsStored: () => Promise<unknown>;
}

/** The webhook receiver (`POST /webhooks`). */
export function webhookRoute(deps: WebhookRouteDeps): RouteHandler {
  const verifier = createWebhookVerifier({ secret: deps.secret, headerPrefix: deps.headerPrefix });
  return async function domainkitBffWebhook(req: BffRequest): Promise<Response> {
    refuseDeclaredOverLimit(req.request, WEBHOOK_BODY_LIMIT_BYTES);
    // A host whose own parser read the body first (express.json() mounted before the BFF) hands over a used body:
    // the exact bytes are gone, so no signature can be checked.
    if (req.request.bodyUsed) {
      deps.logger.error(
        { route: 'POST /webhooks' },
        'the webhook body was already parsed by another middleware: mount the domainkit BFF before express.json() (or exclude its path), so the signature can be checked on the raw bytes',
      );
      throw new BffHttpError('internal_error', 'The webhook receiver is misconfigured.');
    }
    const body = await readRawBody(req, WEBHOOK_BODY_LIMIT_BYTES);
    let event: Awaited<ReturnType<typeof verifier.constructEvent>>;
    try {
      event = await verifier.constructEvent(body, req.request.headers);
    } catch (error) {
      if (error instanceof WebhookSignatureError || error instanceof WebhookPayloadError) {
        deps.logger.warn({ route: 'POST /webhooks', code: error.code }, 'webhook delivery refused');
        if (error instanceof WebhookSignatureError) deps.metrics?.webhookVerificationFailed();
        throw new BffHttpError(
          'validation_error',
          error instanceof WebhookPayloadError ? 'The body is not an event.' : 'The webhook signature does not verify.',
        );
      }
      throw error;
    }
    let stored: number;
    try {
      const db = await deps.db();
      stored = await storeEvents(db, deps.keyId, [event], 'webhook', new Date(deps.now()));
    } catch (cause) {
      // Not stored, so not acknowledged: the marketplace delivers it again (and catch-up covers the rest).
      deps.logger.error(
        { route: 'POST /webhooks', event: event.id, error: cause instanceof Error ? cause.message : String(cause) },
        'webhook event could not be stored; answered 503 so that it is delivered again',
      );
      throw new BffHttpError('unavailable', 'The event could not be stored right now; deliver it again later.', {
        retryAfter: WEBHOOK_RETRY_AFTER_SECONDS,
        cause,
      });
    }
    for (const domain of eventDomains([event])) deps.domainChanged(domain);
    deps.logger.debug({ event: event.id, type: event.type, duplicate: stored === 0 }, 'webhook event stored');
    // The partner's handlers run after the answer; a host with `waitUntil` keeps the function alive for them.
    const handled = deps.eventsStored();
    req.waitUntil?.(handled);
    return json({ received: true }, 200);
  };
}
