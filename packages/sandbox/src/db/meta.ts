/**
 * The `sandbox_meta` key/value table: settings the sandbox creates once and must share between restarts and
 * between processes on one PostgreSQL (demo key id, admin token, lander signing key, inventory seed).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { SandboxDatabase } from './tables.ts';

type Executor = Kysely<SandboxDatabase> | Transaction<SandboxDatabase>;

/** The keys the sandbox stores. */
export type MetaKey =
  | 'demo_key_id'
  | 'demo_webhook_secret'
  | 'admin_token'
  | 'lander_signing_key'
  | 'quote_signing_key'
  | 'inventory_seed';

/** Reads one setting, or `undefined` when it was never written. */
export async function getMeta(db: Executor, key: MetaKey): Promise<string | undefined> {
  const row = await db.selectFrom('sandbox_meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Writes one setting, replacing any previous value. */
export async function setMeta(db: Executor, key: MetaKey, value: string): Promise<void> {
  await db
    .insertInto('sandbox_meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Serialises start-up work (creating the demo credential, seeding inventory) across processes sharing one
 * PostgreSQL: a transaction-scoped advisory lock, released at commit or rollback.
 */
export async function lockBootstrap(trx: Transaction<SandboxDatabase>): Promise<void> {
  await sql`select pg_advisory_xact_lock(7276100001)`.execute(trx);
}
