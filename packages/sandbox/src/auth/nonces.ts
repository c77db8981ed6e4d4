/**
 * Nonce tracking for replay protection (Partner API spec 5.1 "Replay protection"). A nonce is recorded per credential only after
 * its request's signature verified (so a failed attempt never consumes it), and tracked for `NONCE_TTL_SECONDS`
 * (900 s): longer than the 600 s window in which its timestamp can be valid, so it can never be replayed while its
 * timestamp is still accepted. The insert is atomic, so concurrent replays across processes sharing one PostgreSQL
 * are detected too.
 */
import { NONCE_TTL_SECONDS } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { SandboxDb } from '../db/tables.ts';

/** How often expired nonces are swept, at most (milliseconds of the sandbox clock); the sweep runs inside a record call. */
const SWEEP_INTERVAL_MS = 60_000;

/** Records nonces and sweeps expired ones. */
export interface NonceStore {
  /**
   * Records a nonce for a credential.
   * @returns `true` when the nonce was fresh (now tracked), `false` when it is already tracked (a replay).
   */
  record(keyId: string, nonce: string, nowMs: number): Promise<boolean>;
}

/** A nonce store over the `nonces` table. */
export function createNonceStore(db: SandboxDb, logger: Logger): NonceStore {
  let lastSweep = Number.NEGATIVE_INFINITY;
  async function sweep(nowMs: number): Promise<void> {
    if (nowMs - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = nowMs;
    try {
      await db.deleteFrom('nonces').where('expires_at', '<', new Date(nowMs)).execute();
    } catch (err) {
      logger.warn({ err }, 'sweeping expired nonces failed');
    }
  }
  return {
    async record(keyId, nonce, nowMs) {
      await sweep(nowMs);
      const now = new Date(nowMs);
      const expiresAt = new Date(nowMs + NONCE_TTL_SECONDS * 1000);
      // Insert if absent; an expired row that was not swept yet is taken over (its tracking period is over).
      const inserted = await db
        .insertInto('nonces')
        .values({ key_id: keyId, nonce, expires_at: expiresAt })
        .onConflict((oc) =>
          oc.columns(['key_id', 'nonce']).doUpdateSet({ expires_at: expiresAt }).where('nonces.expires_at', '<', now),
        )
        .returning('nonce')
        .executeTakeFirst();
      return inserted !== undefined;
    },
  };
}
