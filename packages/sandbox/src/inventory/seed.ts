/**
 * Loads the synthetic inventory into the database once, at first start. Later starts keep what is stored (sold
 * domains stay sold); the seed used is remembered in `sandbox_meta`.
 */
import type { Logger } from 'pino';
import { ENVIRONMENTS } from '../scopes.ts';
import { getMeta, lockBootstrap, setMeta } from '../db/meta.ts';
import type { SandboxDb, SandboxTrx } from '../db/tables.ts';
import { generateInventory } from './generate.ts';

const CHUNK = 500;

/** Inserts the SANDBOX and LIVE inventories generated from `seed` (names already present are kept). */
export async function insertInventory(trx: SandboxTrx, seed: number): Promise<void> {
  for (const environment of ENVIRONMENTS) {
    const domains = generateInventory({ seed, environment });
    for (let i = 0; i < domains.length; i += CHUNK) {
      await trx
        .insertInto('domains')
        .values(
          domains
            .slice(i, i + CHUNK)
            .map((d) => ({ ...d, words: [...d.words], environment, status: 'listed' as const })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

/**
 * Inserts the SANDBOX and LIVE inventories generated from `seed` when the database has none yet.
 * @returns the seed the stored inventory was generated from (which differs from `seed` when the data folder was
 *   created with another seed: a warning is logged and the stored inventory is kept).
 */
export async function seedInventory(db: SandboxDb, seed: number, logger: Logger): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await lockBootstrap(trx);
    const stored = await getMeta(trx, 'inventory_seed');
    if (stored !== undefined) {
      const storedSeed = Number(stored);
      if (storedSeed !== seed) {
        logger.warn(
          { stored_seed: storedSeed, requested_seed: seed },
          'the inventory was generated with another seed; keeping it (use a new data folder for a new inventory)',
        );
      }
      return storedSeed;
    }
    await insertInventory(trx, seed);
    await setMeta(trx, 'inventory_seed', String(seed));
    logger.info({ seed }, 'synthetic inventory created');
    return seed;
  });
}
