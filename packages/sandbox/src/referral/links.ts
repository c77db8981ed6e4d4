/**
 * Referral (Partner API spec 1 item 5, 2.7): tracked links, their clicks, the sales attributed to them and the affiliate's
 * commission ledger.
 *
 * A tracked link is `{base}/r/{code}`: opening it records a click and redirects (302) to the marketplace storefront
 * (`/market/{domain}` for a domain link, `/market` otherwise) with `?ref={code}`, and sets a `dk_ref` cookie. A buyer
 * who buys there (storefront → hosted lander → test card) makes a sale attributed to the link: the affiliate
 * accrues a commission (economics.ts), `pending` until the next settlement run pays it out; refunding the sale
 * reverses it. The ledger's running balance is the sum of its signed lines.
 */
import type { CommissionLedgerRow, ReferralLinkRow, SaleRow, SandboxExecutor, SandboxTrx } from '../db/tables.ts';
import { COMMISSION_BPS, shareOf } from '../economics.ts';
import { apiError } from '../http/api-error.ts';
import { randomBase62, randomId } from '../ids.ts';

/** A link on the wire, with its click and sale counts. */
export function toLinkWire(row: ReferralLinkRow, baseUrl: string, stats: { clicks: number; sales: number }) {
  return {
    link_id: row.link_id,
    kind: row.kind,
    url: `${baseUrl}/r/${row.code}`,
    domain: row.domain,
    product: row.product,
    label: row.label,
    clicks: stats.clicks,
    sales: stats.sales,
    created_at: row.created_at.toISOString(),
  };
}

/** Click and sale counts of links. */
export async function linkStats(
  db: SandboxExecutor,
  linkIds: readonly string[],
): Promise<Map<string, { clicks: number; sales: number }>> {
  const stats = new Map<string, { clicks: number; sales: number }>(linkIds.map((id) => [id, { clicks: 0, sales: 0 }]));
  if (linkIds.length === 0) return stats;
  const clicks = await db
    .selectFrom('referral_clicks')
    .select(['link_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('link_id', 'in', [...linkIds])
    .groupBy('link_id')
    .execute();
  const sales = await db
    .selectFrom('sales')
    .select(['link_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('link_id', 'in', [...linkIds])
    .where('status', '=', 'COMPLETED')
    .groupBy('link_id')
    .execute();
  for (const c of clicks) stats.get(c.link_id)!.clicks = Number(c.n);
  for (const s of sales) if (s.link_id !== null) stats.get(s.link_id)!.sales = Number(s.n);
  return stats;
}

/** Creates a tracked link for a credential's affiliate account. */
export async function createLink(
  db: SandboxExecutor,
  input: {
    keyId: string;
    affiliateId: string;
    environment: ReferralLinkRow['environment'];
    kind: ReferralLinkRow['kind'];
    domain?: string | undefined;
    product?: string | undefined;
    label?: string | undefined;
    now: Date;
  },
): Promise<ReferralLinkRow> {
  return db
    .insertInto('referral_links')
    .values({
      link_id: randomId('lnk_', 20),
      key_id: input.keyId,
      affiliate_id: input.affiliateId,
      environment: input.environment,
      kind: input.kind,
      domain: input.kind === 'domain' ? (input.domain ?? null) : null,
      product: input.kind === 'product' ? (input.product ?? null) : null,
      label: input.label ?? null,
      code: randomBase62(12),
      created_at: input.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Records `count` clicks on a link at `now`. */
export async function recordClicks(db: SandboxExecutor, linkId: string, count: number, now: Date): Promise<void> {
  await db
    .insertInto('referral_clicks')
    .values(Array.from({ length: count }, () => ({ link_id: linkId, at: now })))
    .execute();
}

/**
 * Records a sale attributed to a link (payment model `non_mor`: the service collected payment) and accrues the
 * affiliate's commission as a `pending` ledger line.
 */
export async function recordReferralSale(
  trx: SandboxTrx,
  input: {
    link: ReferralLinkRow;
    domain: string;
    priceCents: number;
    currency: string;
    buyerEmail?: string | null;
    checkoutSessionId?: string | null;
    now: Date;
  },
): Promise<{ sale: SaleRow; entry: CommissionLedgerRow }> {
  const { link, now } = input;
  const credential = await trx
    .selectFrom('credentials')
    .select(['partner_id'])
    .where('key_id', '=', link.key_id)
    .executeTakeFirstOrThrow();
  const commission = shareOf(input.priceCents, COMMISSION_BPS.referral);
  const sale = await trx
    .insertInto('sales')
    .values({
      id: randomId('sale_', 20),
      environment: link.environment,
      domain: input.domain,
      key_id: link.key_id,
      partner_id: credential.partner_id,
      affiliate_id: link.affiliate_id,
      payment_model: 'non_mor',
      checkout_session_id: input.checkoutSessionId ?? null,
      price_cents: input.priceCents,
      currency: input.currency,
      created_at: now,
      link_id: link.link_id,
      buyer_email: input.buyerEmail ?? null,
      commission_cents: commission,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const entry = await trx
    .insertInto('commission_ledger')
    .values({
      affiliate_id: link.affiliate_id,
      key_id: link.key_id,
      type: 'accrued',
      status: 'pending',
      sale_id: sale.id,
      payout_id: null,
      amount_cents: commission,
      currency: input.currency,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { sale, entry };
}

/**
 * Records a referral sale through a link as the back office would (admin API, fixtures): a listed domain of the
 * link's inventory is marked sold at `priceCents` (cents) when given, else at its listing price.
 * @throws {ProtocolError} `not_found` (no such link, or the domain is not in the link's inventory), `conflict`
 *   (the domain is already sold).
 */
export async function sellThroughLink(
  trx: SandboxTrx,
  input: {
    linkId: string;
    domain: string;
    priceCents?: number | undefined;
    buyerEmail?: string | undefined;
    now: Date;
  },
): Promise<{ sale: SaleRow; entry: CommissionLedgerRow }> {
  const { now } = input;
  const link = await trx
    .selectFrom('referral_links')
    .selectAll()
    .where('link_id', '=', input.linkId)
    .executeTakeFirst();
  if (link === undefined) throw apiError('not_found', `No referral link ${input.linkId}.`);
  const listing = await trx
    .selectFrom('domains')
    .selectAll()
    .where('environment', '=', link.environment)
    .where('name', '=', input.domain)
    .forUpdate()
    .executeTakeFirst();
  // A sale names a domain of the link's inventory (sales reference their listing).
  if (listing === undefined)
    throw apiError('not_found', `${input.domain} is not in the ${link.environment} inventory: sell a listed domain.`);
  if (listing.status !== 'listed') throw apiError('conflict', `${input.domain} is already sold.`);
  // The given price is the sale's (a negotiated price); the listing price only when none is given.
  const price = input.priceCents ?? listing.price_cents;
  await trx
    .updateTable('domains')
    .set({ status: 'sold', sold_at: now })
    .where('environment', '=', listing.environment)
    .where('name', '=', listing.name)
    .execute();
  return recordReferralSale(trx, {
    link,
    domain: input.domain,
    priceCents: price,
    currency: 'USD',
    buyerEmail: input.buyerEmail ?? null,
    now,
  });
}

/**
 * Refunds a completed sale (admin): the sale becomes `REFUNDED`, its domain goes back on sale, and a referral
 * commission is reversed (a negative `reversed` line; the accrual's status becomes `reversed`).
 * @throws {ProtocolError} `not_found`, `conflict` (already refunded).
 */
export async function refundSale(
  trx: SandboxTrx,
  saleId: string,
  now: Date,
): Promise<{ sale: SaleRow; reversal: CommissionLedgerRow | null }> {
  const sale = await trx.selectFrom('sales').selectAll().where('id', '=', saleId).forUpdate().executeTakeFirst();
  if (sale === undefined) throw apiError('not_found', `No sale ${saleId}.`);
  if (sale.status === 'REFUNDED') throw apiError('conflict', `Sale ${saleId} is already refunded.`);
  const refunded = await trx
    .updateTable('sales')
    .set({ status: 'REFUNDED', refunded_at: now })
    .where('id', '=', saleId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('domains')
    .set({ status: 'listed', sold_at: null })
    .where('environment', '=', sale.environment)
    .where('name', '=', sale.domain)
    .where('status', '=', 'sold')
    .execute();
  let reversal: CommissionLedgerRow | null = null;
  const accrual = await trx
    .selectFrom('commission_ledger')
    .selectAll()
    .where('sale_id', '=', saleId)
    .where('type', '=', 'accrued')
    .executeTakeFirst();
  if (accrual !== undefined && accrual.status !== 'reversed') {
    await trx.updateTable('commission_ledger').set({ status: 'reversed' }).where('id', '=', accrual.id).execute();
    reversal = await trx
      .insertInto('commission_ledger')
      .values({
        affiliate_id: accrual.affiliate_id,
        key_id: accrual.key_id,
        type: 'reversed',
        status: null,
        sale_id: saleId,
        payout_id: null,
        amount_cents: -accrual.amount_cents,
        currency: accrual.currency,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  return { sale: refunded, reversal };
}

/** `jane@example.com` → `j***@example.com`: an affiliate sees which sale it was, not who bought. */
export function maskEmail(email: string | null): string | null {
  if (email === null) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
