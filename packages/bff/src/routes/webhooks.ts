/**
 * `POST /webhooks`: deliveries from the marketplace (spec 5.3, 6). The signature is verified on the raw bytes
 * (this route reads its own body: no JSON parser runs first), the event is stored in the inbox under its id, and
 * 200 is answered at once; the partner's handlers run afterwards. A bad signature is 400 (the marketplace retries,
 * catch-up fills any gap); a body already consumed by the partner's own JSON parser is a 500 that says so in the log.
 */
import { WebhookPayloadError, WebhookSignatureError, createWebhookVerifier } from '@domainkit/client';
import express, { type RequestHandler } from 'express';
import { BffHttpError } from '../errors.ts';
import { eventDomains, storeEvents } from '../events/inbox.ts';
import type { BffRuntime } from '../runtime.ts';

/** Largest webhook body accepted (an event is under 2 kB). */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

/** Reads the raw body as bytes, whatever its content type. */
export function rawBody(): RequestHandler {
  return express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES });
}

/** The webhook receiver. */
export function webhookRoute(
  runtime: BffRuntime,
  options: { secret: string; headerPrefix?: string | undefined },
): RequestHandler {
  const verifier = createWebhookVerifier({ secret: options.secret, headerPrefix: options.headerPrefix });
  return async function domainkitBffWebhook(req, res) {
    if (!Buffer.isBuffer(req.body)) {
      runtime.logger.error(
        { route: 'POST /webhooks' },
        'the webhook body was already parsed by another middleware: mount the domainkit BFF before express.json() (or exclude its path), so the signature can be checked on the raw bytes',
      );
      throw new BffHttpError('internal_error', 'The webhook receiver is misconfigured.');
    }
    let event;
    try {
      event = verifier.constructEvent(req.body, req.headers);
    } catch (error) {
      if (error instanceof WebhookSignatureError || error instanceof WebhookPayloadError) {
        runtime.logger.warn({ route: 'POST /webhooks', code: error.code }, 'webhook delivery refused');
        throw new BffHttpError(
          'validation_error',
          error instanceof WebhookPayloadError ? 'The body is not an event.' : 'The webhook signature does not verify.',
        );
      }
      throw error;
    }
    const db = await runtime.db();
    const stored = await storeEvents(db, runtime.keyId, [event], 'webhook', new Date(runtime.now()));
    for (const domain of eventDomains([event])) runtime.domainChanged(domain);
    res.status(200).json({ received: true });
    runtime.logger.debug({ event: event.id, type: event.type, duplicate: stored === 0 }, 'webhook event stored');
    void runtime.kickInbox();
  };
}
