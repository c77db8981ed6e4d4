/**
 * Completed hosted-checkout sessions in the BFF database (migration 0036): the record that makes the partner's
 * `onCheckoutCompleted` hook run once per checkout session, whichever process verifies the buyer's signed return,
 * however often and however late (docs/spec-decisions.md, "Hosted checkout: the return journey").
 */
import type { CheckoutReturn } from '@domainkit/protocol';
import type { BffDb } from '../db/tables.ts';

/**
 * Records that a verified checkout session completed, keyed by the credential and the session id (never by the
 * signature: the lander signs the same session again each time the paid checkout link is opened).
 * @returns true for the first record of the session (the caller runs the hook), false when it was already recorded.
 */
export async function claimCheckoutCompletion(
  db: BffDb,
  keyId: string,
  sale: CheckoutReturn,
  now: Date,
): Promise<boolean> {
  const inserted = await db
    .insertInto('bff_checkout_completions')
    .values({
      key_id: keyId,
      checkout_session_id: sale.checkout_session_id,
      domain: sale.domain,
      price_cents: sale.price_cents,
      currency: sale.currency,
      completed_at: now,
      hook_error: null,
    })
    .onConflict((oc) => oc.columns(['key_id', 'checkout_session_id']).doNothing())
    .returning('checkout_session_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Keeps what the hook threw for a session (at most 500 characters), for operators; the hook is not run again. */
export async function recordCheckoutHookError(
  db: BffDb,
  keyId: string,
  checkoutSessionId: string,
  error: string,
): Promise<void> {
  await db
    .updateTable('bff_checkout_completions')
    .set({ hook_error: error.slice(0, 500) })
    .where('key_id', '=', keyId)
    .where('checkout_session_id', '=', checkoutSessionId)
    .execute();
}
