/**
 * MoR routes of the Partner API (Partner API spec 4.1 "MoR", "Settlement, history, refunds"; scope `buy` for all, including the
 * two order reads, whose scope the spec gives two ways: docs/spec-decisions.md):
 *
 * - `POST /quotes` `{domain}` → 201 `{quote_id, domain, price_cents, currency, expires_at, created_at}`: the price
 *   locked 10 minutes, the domain reserved for the credential. 404 unlisted; 409 sold or reserved by another.
 * - `POST /orders` (header `Idempotency-Key` required) → 201 the order (`EXTERNALLY_PAID`, or `HELD_FOR_REVIEW` for
 *   a held domain) with its timeline. 400 `missing_idempotency_key`, 400 `validation_error`, 404 unlisted, 409 sold
 *   or reserved or quote used or key reused with another body, 422 `quote_expired`, 422 `price_mismatch` (with the
 *   listing's `price_cents` and `currency` in the error object).
 * - `GET /orders?status=&domain=&from=&to=&cursor=&limit=` → `{orders, next_cursor}`, newest first, own orders only.
 * - `GET /orders/{public_id}` → the order with its `timeline`; 404 for an unknown id or another credential's order.
 * - `POST /refunds` `{order_id, reason?}` (optional `Idempotency-Key`) → 201 `{refund_id, order_id, amount_cents,
 *   currency, status, reason, created_at, order}`; 409 once the transfer completed, or when already refunded.
 */
import type { KeyObject } from 'node:crypto';
import {
  createOrderRequestSchema,
  ERROR_CODES,
  listOrdersParamsSchema,
  ProtocolError,
  quoteRequestSchema,
  refundRequestSchema,
} from '@domainkit/protocol';
import express, { type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { authorize, credentialOf } from '../auth/authorize.ts';
import type { Clock } from '../clock.ts';
import type { SandboxDb } from '../db/tables.ts';
import { announceEvents, type WireEvent } from '../events/store.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { readJsonBody } from '../http/body.ts';
import { errorBodyText } from '../http/errors.ts';
import { decodeCursor, pageOf } from '../http/pagination.ts';
import { requestState } from '../http/request-context.ts';
import { scenarioDelay } from '../scenarios/scenarios.ts';
import { readIdempotencyKey, requestFingerprint, runIdempotent, type StoredAnswer } from './idempotency.ts';
import { createQuote, toQuoteWire } from '../quotes/quotes.ts';
import { createOrder, orderTimeline, toOrderWire, transitionOrder } from './orders.ts';
import { verifyQuoteId } from '../quotes/quote-id.ts';

/** What the MoR routes need. */
export interface MorRouteOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly quoteKey: KeyObject;
}

const publicIdSchema = z.string().min(1).max(100);

function sendStored(res: Response, answer: StoredAnswer, replayed: boolean): void {
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(answer.status).type('application/json').send(answer.body);
}

function errorAnswer(res: Response, err: ProtocolError): StoredAnswer {
  return { status: err.status, body: errorBodyText(requestState(res).requestId, err.code, err.message) };
}

/** Builds the MoR router (mounted under `/api/partner/v1`). */
export function morRouter(options: MorRouteOptions): Router {
  const { db, clock, logger, quoteKey } = options;
  const router = express.Router();
  const write = authorize({ scope: 'buy', rateClass: 'write' });
  const read = authorize({ scope: 'buy', rateClass: 'read' });

  router.post('/quotes', write, async (req, res) => {
    const input = parseOrThrow(quoteRequestSchema, readJsonBody(req), 'quote request');
    const credential = credentialOf(res);
    await scenarioDelay(credential.environment, input.domain);
    const now = new Date(clock());
    const quote = await db.transaction().execute((trx) => createQuote(trx, { credential, domain: input.domain, now }));
    logger.info(
      { req_id: requestState(res).requestId, key_id: credential.key_id, quote: quote.id, domain: quote.domain },
      'quote issued',
    );
    res.status(201).json(toQuoteWire(quoteKey, quote));
  });

  router.post('/orders', write, async (req, res) => {
    const idempotencyKey = readIdempotencyKey(req, true)!;
    const raw = readJsonBody(req);
    const input = parseOrThrow(createOrderRequestSchema, raw, 'order');
    let quoteRowId: string | undefined;
    if (input.quote_id !== undefined) {
      quoteRowId = verifyQuoteId(quoteKey, input.quote_id);
      if (quoteRowId === undefined) {
        throw apiError(
          'validation_error',
          'quote_id is not a quote id issued by this marketplace (malformed or altered): pass the quote_id answered by POST /quotes unchanged.',
        );
      }
    }
    const credential = credentialOf(res);
    await scenarioDelay(credential.environment, input.domain);
    const now = new Date(clock());
    const requestId = requestState(res).requestId;
    const result = await runIdempotent<WireEvent[]>(
      db,
      { keyId: credential.key_id, idempotencyKey, fingerprint: requestFingerprint('POST /orders', raw), now },
      async (trx) => {
        const outcome = await createOrder(trx, {
          credential,
          now,
          order: {
            domain: input.domain,
            quoteRowId,
            quoteId: input.quote_id,
            expectedPrice: input.expected_price,
            currency: input.currency,
            buyer: input.buyer,
            returnUrl: input.return_url,
            cancelUrl: input.cancel_url,
            externalPaymentRef: input.external_payment_ref,
          },
        });
        if (outcome.kind === 'refused') {
          return {
            answer: {
              status: ERROR_CODES[outcome.code].status,
              body: errorBodyText(requestId, outcome.code, outcome.message, outcome.fields),
            },
            extra: [],
          };
        }
        return {
          answer: { status: 201, body: JSON.stringify(toOrderWire(outcome.order, outcome.timeline)) },
          extra: outcome.events,
        };
      },
    );
    if (!result.replayed) {
      announceEvents(result.extra);
      if (result.answer.status === 201)
        logger.info(
          { req_id: requestId, key_id: credential.key_id, events: result.extra.map((e) => e.id) },
          'order recorded',
        );
    }
    sendStored(res, result.answer, result.replayed);
  });

  router.get('/orders', read, async (req, res) => {
    const params = parseOrThrow(listOrdersParamsSchema, req.query, 'query');
    const credential = credentialOf(res);
    let query = db.selectFrom('orders').selectAll().where('key_id', '=', credential.key_id);
    if (params.status !== undefined) query = query.where('status', '=', params.status);
    if (params.domain !== undefined) query = query.where('domain', '=', params.domain);
    if (params.from !== undefined) query = query.where('created_at', '>=', new Date(params.from));
    if (params.to !== undefined) query = query.where('created_at', '<', new Date(params.to));
    if (params.cursor !== undefined) {
      const [seq] = decodeCursor('orders', params.cursor, ['seq']);
      query = query.where('seq', '<', seq as number);
    }
    const rows = await query
      .orderBy('seq', 'desc')
      .limit(params.limit + 1)
      .execute();
    const page = pageOf('orders', rows, params.limit, (r) => [r.seq]);
    res.json({ orders: page.items.map((r) => toOrderWire(r)), next_cursor: page.next_cursor });
  });

  router.get('/orders/:publicId', read, async (req, res) => {
    const publicId = parseOrThrow(publicIdSchema, req.params.publicId, 'order id');
    const credential = credentialOf(res);
    const row = await db
      .selectFrom('orders')
      .selectAll()
      .where('public_id', '=', publicId)
      .where('key_id', '=', credential.key_id)
      .executeTakeFirst();
    if (row === undefined) throw apiError('not_found', `No order ${publicId} for this credential.`);
    res.json(toOrderWire(row, await orderTimeline(db, publicId)));
  });

  router.post('/refunds', write, async (req, res) => {
    const idempotencyKey = readIdempotencyKey(req, false);
    const raw = readJsonBody(req);
    const input = parseOrThrow(refundRequestSchema, raw, 'refund request');
    const credential = credentialOf(res);
    const now = new Date(clock());
    const refund = async (trx: Parameters<Parameters<typeof runIdempotent>[2]>[0]) => {
      const moved = await transitionOrder(trx, {
        publicId: input.order_id,
        action: 'refund',
        now,
        keyId: credential.key_id,
        reason: input.reason ?? null,
      });
      const body = {
        refund_id: moved.refundId!,
        order_id: moved.order.public_id,
        amount_cents: moved.order.sale_price_cents,
        currency: moved.order.currency,
        status: 'succeeded',
        reason: input.reason ?? null,
        created_at: now.toISOString(),
        order: toOrderWire(moved.order, await orderTimeline(trx, moved.order.public_id)),
      };
      return { answer: { status: 201, body: JSON.stringify(body) }, extra: [moved.event] };
    };
    if (idempotencyKey === undefined) {
      const { answer, extra } = await db.transaction().execute(refund);
      announceEvents(extra);
      sendStored(res, answer, false);
      return;
    }
    const result = await runIdempotent<WireEvent[]>(
      db,
      { keyId: credential.key_id, idempotencyKey, fingerprint: requestFingerprint('POST /refunds', raw), now },
      async (trx) => {
        try {
          return await refund(trx);
        } catch (err) {
          if (err instanceof ProtocolError) return { answer: errorAnswer(res, err), extra: [] };
          throw err;
        }
      },
    );
    if (!result.replayed) announceEvents(result.extra);
    sendStored(res, result.answer, result.replayed);
  });

  return router;
}
