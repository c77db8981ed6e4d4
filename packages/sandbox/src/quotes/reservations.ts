/**
 * Domain reservations (Partner API spec 2.2): while a quote is live (not expired, not used), its domain is reserved for the
 * quoting credential. Other credentials cannot quote it, order it, or sell it through a checkout session; the
 * hosted lander refuses to take a payment for it.
 */
import type { DomainRow, SandboxExecutor } from '../db/tables.ts';

/**
 * Why a domain cannot be sold to this credential now, or `undefined` when it can.
 * @returns a sentence for a 409 `conflict`.
 */
export async function reservationConflict(
  db: SandboxExecutor,
  domain: DomainRow,
  keyId: string,
  now: Date,
): Promise<string | undefined> {
  if (domain.scenario === 'reserved')
    return `${domain.name} is reserved by another buyer's quote (a scenario domain: it always is). Choose another domain.`;
  const quote = await db
    .selectFrom('quotes')
    .select('expires_at')
    .where('environment', '=', domain.environment)
    .where('domain', '=', domain.name)
    .where('key_id', '!=', keyId)
    .where('order_id', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('expires_at', 'desc')
    .executeTakeFirst();
  if (quote === undefined) return undefined;
  return `${domain.name} is reserved by another buyer's quote until ${quote.expires_at.toISOString()}. Try again after that, or choose another domain.`;
}
