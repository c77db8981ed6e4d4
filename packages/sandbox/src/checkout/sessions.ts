/**
 * Checkout sessions of the non-MoR flow (Partner API spec 1 item 3, 2.3, 4.1 "Non-MoR") and the sale that completes one: the
 * marketplace collects payment on its hosted lander and attributes the sale to the partner credential.
 */
import { CHECKOUT_SESSION_TTL_SECONDS } from '@domainkit/protocol';
import type { CheckoutSessionRow, CredentialRow, DomainRow, SaleRow, SandboxDb } from '../db/tables.ts';
import { COMMISSION_BPS, shareOf } from '../economics.ts';
import { randomId } from '../ids.ts';
import { reservationConflict } from '../quotes/reservations.ts';
import { recordReferralSale } from '../referral/links.ts';

/**
 * Opens a checkout session for a listed domain at its current buy-now price, valid 7 days.
 * @param input.now - the creation time; `expires_at` is 7 days later.
 */
export async function createCheckoutSession(
  db: SandboxDb,
  input: {
    credential: CredentialRow;
    domain: DomainRow;
    returnUrl?: string | undefined;
    cancelUrl?: string | undefined;
    now: Date;
    linkId?: string | undefined;
    /** The partner page's language (BCP 47), spoken by the lander when it can. */
    locale?: string | undefined;
  },
): Promise<CheckoutSessionRow> {
  const { credential, domain, now } = input;
  return db
    .insertInto('checkout_sessions')
    .values({
      id: randomId('cs_', 24),
      key_id: credential.key_id,
      environment: domain.environment,
      domain: domain.name,
      price_cents: domain.price_cents,
      currency: domain.currency,
      return_url: input.returnUrl ?? null,
      cancel_url: input.cancelUrl ?? null,
      status: 'open',
      created_at: now,
      expires_at: new Date(now.getTime() + CHECKOUT_SESSION_TTL_SECONDS * 1000),
      link_id: input.linkId ?? null,
      locale: input.locale ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A checkout session by id, or `undefined`. */
export async function findCheckoutSession(db: SandboxDb, id: string): Promise<CheckoutSessionRow | undefined> {
  return db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The sale that paid checkout session `sessionId`, or `undefined` while it is open. */
export async function findSaleOfSession(db: SandboxDb, sessionId: string): Promise<SaleRow | undefined> {
  return db.selectFrom('sales').selectAll().where('checkout_session_id', '=', sessionId).executeTakeFirst();
}

/** The outcome of {@link completeSale}. */
export type SaleOutcome =
  | { readonly kind: 'sold'; readonly sale: SaleRow; readonly session: CheckoutSessionRow }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'already_paid'; readonly session: CheckoutSessionRow }
  | { readonly kind: 'expired'; readonly session: CheckoutSessionRow }
  | { readonly kind: 'domain_unavailable'; readonly session: CheckoutSessionRow };

/**
 * Completes a paid checkout session in one transaction: locks the session, marks the domain sold only if it is
 * still listed (and not reserved by another credential's quote), marks the session paid and records the sale
 * (`payment_model` `non_mor`, with the partner's commission) attributed to the session's credential and its partner
 * and affiliate; a session opened from a referral link records a referral sale instead (referral/links.ts). A session paid already, or a domain sold meanwhile through
 * another session, changes nothing: a domain is never sold twice. The sale keeps `buyerEmail`, the address the buyer
 * gave on the hosted checkout (transfer instructions and the receipt go there).
 */
export async function completeSale(
  db: SandboxDb,
  sessionId: string,
  now: Date,
  buyerEmail: string | null = null,
): Promise<SaleOutcome> {
  return db.transaction().execute(async (trx): Promise<SaleOutcome> => {
    const session = await trx
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .forUpdate()
      .executeTakeFirst();
    if (session === undefined) return { kind: 'not_found' };
    if (session.status === 'paid') return { kind: 'already_paid', session };
    if (session.expires_at.getTime() <= now.getTime()) return { kind: 'expired', session };
    // A domain reserved by another credential's live quote (Partner API spec 2.2) cannot be sold here.
    const listing = await trx
      .selectFrom('domains')
      .selectAll()
      .where('environment', '=', session.environment)
      .where('name', '=', session.domain)
      .forUpdate()
      .executeTakeFirst();
    if (listing === undefined || (await reservationConflict(trx, listing, session.key_id, now)) !== undefined)
      return { kind: 'domain_unavailable', session };
    const sold = await trx
      .updateTable('domains')
      .set({ status: 'sold', sold_at: now })
      .where('environment', '=', session.environment)
      .where('name', '=', session.domain)
      .where('status', '=', 'listed')
      .returning('name')
      .executeTakeFirst();
    if (sold === undefined) return { kind: 'domain_unavailable', session };
    const paid = await trx
      .updateTable('checkout_sessions')
      .set({ status: 'paid', paid_at: now })
      .where('id', '=', session.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (session.link_id !== null) {
      const link = await trx
        .selectFrom('referral_links')
        .selectAll()
        .where('link_id', '=', session.link_id)
        .executeTakeFirst();
      if (link !== undefined) {
        const { sale } = await recordReferralSale(trx, {
          link,
          domain: session.domain,
          priceCents: session.price_cents,
          currency: session.currency,
          checkoutSessionId: session.id,
          buyerEmail,
          now,
        });
        return { kind: 'sold', sale, session: paid };
      }
    }
    const credential = await trx
      .selectFrom('credentials')
      .select(['partner_id', 'affiliate_id'])
      .where('key_id', '=', session.key_id)
      .executeTakeFirstOrThrow();
    const sale = await trx
      .insertInto('sales')
      .values({
        id: randomId('sale_', 20),
        environment: session.environment,
        domain: session.domain,
        key_id: session.key_id,
        partner_id: credential.partner_id,
        affiliate_id: credential.affiliate_id,
        payment_model: 'non_mor',
        checkout_session_id: session.id,
        price_cents: session.price_cents,
        currency: session.currency,
        created_at: now,
        commission_cents: shareOf(session.price_cents, COMMISSION_BPS.non_mor),
        buyer_email: buyerEmail,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { kind: 'sold', sale, session: paid };
  });
}
