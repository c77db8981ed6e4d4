/**
 * Partner API credentials in the database (Partner API spec 5.1): key ids, secrets, environment, approval, scopes and the
 * linked affiliate account.
 */
import type { Kysely, Transaction } from 'kysely';
import { randomBase62, randomId } from '../ids.ts';
import type { CredentialRow, SandboxDatabase } from '../db/tables.ts';
import { KEY_PREFIXES, SCOPES, type Environment, type Scope } from '../scopes.ts';

type Executor = Kysely<SandboxDatabase> | Transaction<SandboxDatabase>;

/** What the admin asks for when creating a credential. */
export interface NewCredentialInput {
  readonly environment: Environment;
  readonly scopes: readonly Scope[];
  /** Link an affiliate account (needed by referral and reporting, Partner API spec 1). */
  readonly affiliate: boolean;
  /** Approve at creation. Default: SANDBOX credentials are approved, LIVE ones wait for approval. */
  readonly approved?: boolean;
  readonly label?: string | null;
  /** The shop's name buyers see on the hosted checkout. */
  readonly displayName?: string | null;
  /** Reuse these values instead of generating them (used when restoring the demo credential from its file). */
  readonly keyId?: string;
  readonly secret?: string;
  readonly partnerId?: string;
  readonly affiliateId?: string | null;
}

/**
 * Generates a key id and secret for an environment: `pk_test_` + 24 base62 characters and `sk_test_` + 40 (LIVE:
 * `pk_live_`, `sk_live_`). About 143 and 238 bits of randomness.
 */
export function generateKeyPair(environment: Environment): { keyId: string; secret: string } {
  const prefix = KEY_PREFIXES[environment];
  return { keyId: prefix.keyId + randomBase62(24), secret: prefix.secret + randomBase62(40) };
}

/**
 * Inserts a new credential and returns its row (including the secret: the caller shows it once, then forgets it).
 * Scopes are stored de-duplicated, in the spec's order.
 */
export async function createCredential(db: Executor, input: NewCredentialInput, now: Date): Promise<CredentialRow> {
  const generated = generateKeyPair(input.environment);
  const scopes = SCOPES.filter((s) => input.scopes.includes(s));
  return db
    .insertInto('credentials')
    .values({
      key_id: input.keyId ?? generated.keyId,
      secret: input.secret ?? generated.secret,
      environment: input.environment,
      approved: input.approved ?? input.environment === 'SANDBOX',
      scopes,
      partner_id: input.partnerId ?? randomId('ptr_', 16),
      affiliate_id: input.affiliateId !== undefined ? input.affiliateId : input.affiliate ? randomId('aff_', 16) : null,
      label: input.label ?? null,
      display_name: input.displayName ?? null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Looks a credential up by key id; `undefined` when unknown or revoked. */
export async function findActiveCredential(db: Executor, keyId: string): Promise<CredentialRow | undefined> {
  return db
    .selectFrom('credentials')
    .selectAll()
    .where('key_id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Names the shop of a credential, as buyers see it on the hosted checkout (`null` clears it).
 * @returns the updated row, or `undefined` when the key id is unknown.
 */
export async function nameShop(
  db: Executor,
  keyId: string,
  displayName: string | null,
): Promise<CredentialRow | undefined> {
  return db
    .updateTable('credentials')
    .set({ display_name: displayName })
    .where('key_id', '=', keyId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Approves a credential (LIVE credentials answer 403 until then).
 * @returns the updated row, or `undefined` when the key id is unknown.
 */
export async function approveCredential(db: Executor, keyId: string): Promise<CredentialRow | undefined> {
  return db
    .updateTable('credentials')
    .set({ approved: true })
    .where('key_id', '=', keyId)
    .returningAll()
    .executeTakeFirst();
}
