/**
 * MoR quotes (Partner API spec 2.2): `POST /quotes` locks a domain's buy-now price for 10 minutes
 * (`QUOTE_TTL_SECONDS`) and reserves the domain for the quoting credential (`reservations.ts`); its signed
 * `quote_id` (`quote-id.ts`) buys once, with the same credential, before it expires. Every rule about a quote's
 * life is here; `mor/orders.ts` asks {@link takeQuoteForOrder} when an order names one.
 */
import type { KeyObject } from 'node:crypto';
import { QUOTE_TTL_SECONDS, type ErrorCode } from '@domainkit/protocol';
import type { CredentialRow, QuoteRow, SandboxTrx } from '../db/tables.ts';
import { apiError } from '../http/api-error.ts';
import { REPRICE_BPS } from '../scenarios/scenarios.ts';
import { newQuoteRowId, signQuoteId } from './quote-id.ts';
import { reservationConflict } from './reservations.ts';

/** A quote on the wire (Partner API spec 2.2). */
export function toQuoteWire(key: KeyObject, row: QuoteRow) {
  return {
    quote_id: signQuoteId(key, row.id),
    domain: row.domain,
    price_cents: row.price_cents,
    currency: row.currency,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Issues a quote: locks the domain's buy-now price for 10 minutes and reserves it for the credential.
 * @throws {ProtocolError} `not_found` (unlisted), `conflict` (sold, or reserved by another credential).
 */
export async function createQuote(
  trx: SandboxTrx,
  input: { credential: CredentialRow; domain: string; now: Date },
): Promise<QuoteRow> {
  const { credential, now } = input;
  const domain = await trx
    .selectFrom('domains')
    .selectAll()
    .where('environment', '=', credential.environment)
    .where('name', '=', input.domain)
    .forUpdate()
    .executeTakeFirst();
  if (domain === undefined) throw apiError('not_found', `${input.domain} is not listed on the marketplace.`);
  if (domain.status !== 'listed') throw apiError('conflict', `${input.domain} is already sold: it cannot be quoted.`);
  const reserved = await reservationConflict(trx, domain, credential.key_id, now);
  if (reserved !== undefined) throw apiError('conflict', reserved);
  const quote = await trx
    .insertInto('quotes')
    .values({
      id: newQuoteRowId(),
      key_id: credential.key_id,
      environment: credential.environment,
      domain: domain.name,
      price_cents: domain.price_cents,
      currency: domain.currency,
      created_at: now,
      expires_at: new Date(now.getTime() + QUOTE_TTL_SECONDS * 1000),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (domain.scenario === 'reprice_after_quote' && domain.repriced_at === null) {
    const price = Math.round((domain.price_cents * (10_000 + REPRICE_BPS)) / 10_000 / 500) * 500;
    await trx
      .updateTable('domains')
      .set({ price_cents: price, repriced_at: now })
      .where('environment', '=', domain.environment)
      .where('name', '=', domain.name)
      .execute();
  }
  return quote;
}

/** Why an order cannot use a quote: a Partner API spec 7 code and a message saying what to do. */
export interface QuoteRefusal {
  readonly kind: 'refused';
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * Finds and locks the quote an order names, and checks it may buy: issued to this credential, for this domain (when
 * the order names one), not used, not expired.
 * @returns the quote, or the refusal to answer (stored under the order's idempotency key).
 */
export async function takeQuoteForOrder(
  trx: SandboxTrx,
  input: { quoteRowId: string; keyId: string; domain: string | undefined; now: Date },
): Promise<{ readonly kind: 'taken'; readonly quote: QuoteRow } | QuoteRefusal> {
  const refuse = (code: ErrorCode, message: string): QuoteRefusal => ({ kind: 'refused', code, message });
  const quote = await trx
    .selectFrom('quotes')
    .selectAll()
    .where('id', '=', input.quoteRowId)
    .forUpdate()
    .executeTakeFirst();
  if (quote === undefined)
    return refuse(
      'validation_error',
      'quote_id is unknown to the marketplace (was the sandbox reset?): ask POST /quotes for a new one.',
    );
  if (quote.key_id !== input.keyId)
    return refuse('validation_error', 'quote_id was issued to another credential: quote with this credential.');
  if (input.domain !== undefined && input.domain !== quote.domain)
    return refuse('validation_error', `quote_id was issued for ${quote.domain}, not ${input.domain}.`);
  if (quote.order_id !== null)
    return refuse(
      'conflict',
      `quote_id was already used by order ${quote.order_id}: a quote buys once. Ask POST /quotes for a new one.`,
    );
  if (quote.expires_at.getTime() <= input.now.getTime()) {
    return refuse(
      'quote_expired',
      `The quote expired at ${quote.expires_at.toISOString()} (quotes are valid 10 minutes): ask POST /quotes for a fresh one.`,
    );
  }
  return { kind: 'taken', quote };
}

/** Marks a quote used by an order: it buys once, and no longer reserves its domain. */
export async function markQuoteUsed(trx: SandboxTrx, quoteRowId: string, orderPublicId: string): Promise<void> {
  await trx.updateTable('quotes').set({ order_id: orderPublicId }).where('id', '=', quoteRowId).execute();
}
