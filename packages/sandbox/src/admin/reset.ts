/**
 * Resetting the sandbox world (admin `POST /admin/reset`, CLI `reset`): every order, quote, event, delivery,
 * settlement, payout, brokerage case, referral link, click, sale, checkout session, idempotency key and rate-limit
 * window (Partner API, Public API and OAuth endpoints) is deleted; the inventory is generated again from its seed (every domain listed at its original price, the
 * scenario domains restored); fault injection is turned off.
 *
 * Kept: credentials (partners' keys keep working), webhook endpoints, signing keys, tracked nonces (a request signed
 * before the reset still cannot be replayed), and the event sequence (event ids keep growing, so a partner's stored
 * `after_id` never hides new events). Tables of other areas (Public API, OAuth) are not touched.
 */
import { lockBootstrap, getMeta } from '../db/meta.ts';
import type { SandboxDb } from '../db/tables.ts';
import { clearFaults } from '../faults/faults.ts';
import { sql } from 'kysely';
import { DEFAULT_INVENTORY_SEED } from '../inventory/generate.ts';
import { insertInventory } from '../inventory/seed.ts';
import { ensureScenarioDomains } from '../scenarios/scenarios.ts';

/** Tables emptied by a reset, children first. */
const WORLD_TABLES = [
  'webhook_attempts',
  'webhook_deliveries',
  'events',
  'order_timeline',
  'refunds',
  'orders',
  'quotes',
  'idempotency_keys',
  'settlements',
  'payouts',
  'brokerage_timeline',
  'brokerage_cases',
  'referral_clicks',
  'commission_ledger',
  'referral_links',
  'sales',
  'checkout_sessions',
  'rate_limits',
] as const;

/** Resets the world in one transaction. */
export async function resetWorld(db: SandboxDb, now: Date): Promise<{ tables: readonly string[]; seed: number }> {
  return db.transaction().execute(async (trx) => {
    await lockBootstrap(trx);
    for (const table of WORLD_TABLES) await trx.deleteFrom(table).execute();
    // The Public API's and OAuth endpoints' windows (registration, token, sign-in), so a reset ends their 429s too.
    await sql`delete from public_rate_windows`.execute(trx);
    const seed = Number((await getMeta(trx, 'inventory_seed')) ?? DEFAULT_INVENTORY_SEED);
    await trx.deleteFrom('domains').execute();
    await insertInventory(trx, seed);
    await ensureScenarioDomains(trx, now);
    await clearFaults(trx, now);
    return { tables: [...WORLD_TABLES, 'public_rate_windows', 'domains'], seed };
  });
}
