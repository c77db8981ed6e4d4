/**
 * First-start work, repeated harmlessly on every start: open and migrate the database, make sure the demo
 * credential, the inventory and the lander signing key exist.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { ensureDemoCredential, type DemoCredential } from './credentials/demo-credential.ts';
import { openDatabase, type SandboxDatabaseHandle } from './db/database.ts';
import { getMeta, lockBootstrap, setMeta } from './db/meta.ts';
import type { SandboxDb } from './db/tables.ts';
import { randomSecret } from './ids.ts';
import { seedInventory } from './inventory/seed.ts';
import type { ResolvedOptions } from './options.ts';
import { ensureScenarioDomains } from './scenarios/scenarios.ts';
import { updateFaults } from './faults/faults.ts';

/** A prepared sandbox database with its settings. */
export interface Bootstrapped {
  readonly handle: SandboxDatabaseHandle;
  readonly demo: DemoCredential;
  readonly credentialsFile: string;
  /** Signs and verifies lander `pt` tokens. */
  readonly landerKey: KeyObject;
  /** Signs and verifies `quote_id`s. */
  readonly quoteKey: KeyObject;
}

async function ensureSigningKey(db: SandboxDb, name: 'lander_signing_key' | 'quote_signing_key'): Promise<KeyObject> {
  const secret = await db.transaction().execute(async (trx) => {
    await lockBootstrap(trx);
    const existing = await getMeta(trx, name);
    if (existing !== undefined) return existing;
    const created = randomSecret(32);
    await setMeta(trx, name, created);
    return created;
  });
  return createSecretKey(Buffer.from(secret, 'base64url'));
}

/**
 * Opens the database and prepares everything the app needs.
 * @throws {Error} when the database cannot be opened or migrated, or the credential file is corrupt.
 */
export async function bootstrap(options: ResolvedOptions, logger: Logger): Promise<Bootstrapped> {
  const handle = await openDatabase({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    schema: options.schema,
    logger,
  });
  try {
    const { demo, origin, file } = await ensureDemoCredential(handle.db, options.dataDir, new Date(options.now()));
    logger.info(
      { key_id: demo.key_id, credentials_file: file, origin },
      origin === 'created' ? 'demo credential created' : 'demo credential ready',
    );
    await seedInventory(handle.db, options.seed, logger);
    await ensureScenarioDomains(handle.db, new Date(options.now()));
    const landerKey = await ensureSigningKey(handle.db, 'lander_signing_key');
    const quoteKey = await ensureSigningKey(handle.db, 'quote_signing_key');
    if (options.faults !== undefined) await updateFaults(handle.db, options.faults, new Date(options.now()));
    return { handle, demo, credentialsFile: file, landerKey, quoteKey };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
