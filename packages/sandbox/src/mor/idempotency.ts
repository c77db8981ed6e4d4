/**
 * Idempotency keys of writes (Partner API spec 4.1 "Idempotency on POST /orders"):
 *
 * 1. `POST /orders` requires `Idempotency-Key` (1–255 visible ASCII characters); without it: 400
 *    `missing_idempotency_key`. (`POST /refunds` honours one when sent.)
 * 2. The first request with a key claims it by inserting a row keyed by (credential, key) in the same transaction
 *    as the write, and stores the answer it gives (status and body text) in that row. Concurrent requests with the
 *    key wait on the row (a unique-constraint conflict) and then replay the stored answer, so ten concurrent requests
 *    make one order, also across processes sharing one PostgreSQL.
 * 3. The same key with the same body fingerprint replays the stored answer byte for byte, with the header
 *    `Idempotent-Replayed: true`. The fingerprint is SHA-256 of the endpoint and the body's canonical JSON (keys
 *    sorted, no whitespace), so re-serialised JSON with the same content is the same body.
 * 4. The same key with a different body (or on another endpoint) answers 409 `conflict`; nothing is stored.
 * 5. Keys are scoped to the credential, and kept 24 hours; after that a key may be used again.
 *
 * A request refused before it runs (authentication, scope, rate limit, a missing key, an invalid body) stores
 * nothing; an answer given once it ran (the order, or a refusal such as `quote_expired`) is stored; an unexpected
 * failure rolls the transaction back and stores nothing, so a retry runs again.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { SandboxDb, SandboxTrx } from '../db/tables.ts';
import { apiError } from '../http/api-error.ts';

/** How long a key is remembered, in seconds. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;

/**
 * Reads the `Idempotency-Key` header.
 * @throws {ProtocolError} `missing_idempotency_key` when required and absent; `validation_error` when malformed.
 */
export function readIdempotencyKey(req: Request, required: boolean): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined || raw === '') {
    if (required)
      throw apiError(
        'missing_idempotency_key',
        `${req.method} ${req.path} requires an Idempotency-Key header: a unique value (a UUID v4) per write, reused only to retry that same write.`,
      );
    return undefined;
  }
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(value))
    throw apiError(
      'validation_error',
      'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID v4 is recommended).',
    );
  return value;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint of a request: SHA-256 (hex) of the endpoint and the canonical JSON of its body. */
export function requestFingerprint(endpoint: string, body: unknown): string {
  return createHash('sha256')
    .update(`${endpoint}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** An answer to send (and to store under the key). */
export interface StoredAnswer {
  readonly status: number;
  /** The body as sent: JSON text. */
  readonly body: string;
}

/**
 * Runs a write under an idempotency key (see the module comment).
 * @param work - the write, inside the transaction that claims the key; it returns the answer to store.
 * @returns the answer and whether it is a replay; `extra` is what `work` returned besides the answer (only on a
 *   fresh run).
 * @throws {ProtocolError} `conflict` when the key was used with another fingerprint.
 */
export async function runIdempotent<T>(
  db: SandboxDb,
  key: { keyId: string; idempotencyKey: string; fingerprint: string; now: Date },
  work: (trx: SandboxTrx) => Promise<{ answer: StoredAnswer; extra: T }>,
): Promise<{ answer: StoredAnswer; replayed: true } | { answer: StoredAnswer; replayed: false; extra: T }> {
  const cutoff = new Date(key.now.getTime() - IDEMPOTENCY_KEY_TTL_SECONDS * 1000);
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({
        key_id: key.keyId,
        idem_key: key.idempotencyKey,
        fingerprint: key.fingerprint,
        response_status: 0,
        response_body: '',
        created_at: key.now,
      })
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'idem_key'])
          .doUpdateSet({ fingerprint: key.fingerprint, response_status: 0, response_body: '', created_at: key.now })
          .where('idempotency_keys.created_at', '<', cutoff),
      )
      .returning('idem_key')
      .executeTakeFirst();
    if (claimed === undefined) {
      const stored = await trx
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('key_id', '=', key.keyId)
        .where('idem_key', '=', key.idempotencyKey)
        .executeTakeFirstOrThrow();
      if (stored.fingerprint !== key.fingerprint) {
        throw apiError(
          'conflict',
          'This Idempotency-Key was already used with a different request body. Use a fresh key for a new operation; reuse a key only to retry the same write with the same body.',
        );
      }
      return { answer: { status: stored.response_status, body: stored.response_body }, replayed: true as const };
    }
    const { answer, extra } = await work(trx);
    await trx
      .updateTable('idempotency_keys')
      .set({ response_status: answer.status, response_body: answer.body })
      .where('key_id', '=', key.keyId)
      .where('idem_key', '=', key.idempotencyKey)
      .execute();
    return { answer, replayed: false as const, extra };
  });
}

/** Deletes keys older than the TTL (housekeeping). */
export async function sweepIdempotencyKeys(db: SandboxDb, now: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_SECONDS * 1000))
    .execute();
}
