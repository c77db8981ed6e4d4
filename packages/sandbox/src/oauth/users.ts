/**
 * Sandbox users: the people who sign in on the consent page (`/oauth/authorize`, Public API spec 5.2) and own the domains of
 * the bulk operations (Public API spec 4.2). At first start the sandbox creates a demo user with a random password and a few
 * dozen domains, and saves the sign-in in `{dataDir}/sandbox-user.json` (mode 0600, like the demo credential's
 * `credentials.json`): the repository holds no password. Users' passwords are checked against scrypt hashes.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { z } from 'zod';
import { randomBase62, randomId } from '../ids.ts';
import { mulberry32, pick, randomInt } from '../inventory/prng.ts';
import { WORDS } from '../inventory/words.ts';
import type { PublicDb, PublicExecutor, SandboxUserDomainRow, SandboxUserRow } from '../db/public-tables.ts';
import { TLDS } from '../inventory/tlds.ts';
import { hashPassword, verifyPassword } from './secrets.ts';

/** The demo user's email address (`.test` is reserved, RFC 2606). */
export const DEMO_USER_EMAIL = 'demo@sandbox.test';
/** How many domains the demo user owns. */
export const DEMO_USER_DOMAINS = 40;
/** Name of the demo user's sign-in file inside the data folder. */
export const DEMO_USER_FILE = 'sandbox-user.json';
/** Nameservers of a new sandbox registration. */
export const DEFAULT_NAMESERVERS = ['ns1.sandbox-registrar.example', 'ns2.sandbox-registrar.example'] as const;

/** The demo user's sign-in, as saved in `sandbox-user.json`. */
export const demoUserSchema = z.object({
  user_id: z.string().startsWith('usr_'),
  email: z.email(),
  /** Signs in on the consent page. Never logged. */
  password: z.string().min(12),
});
export type DemoUser = z.infer<typeof demoUserSchema>;

/** The path of the demo user's file in a data folder. */
export function demoUserFilePath(dataDir: string): string {
  return join(dataDir, DEMO_USER_FILE);
}

/**
 * Reads the demo user's sign-in saved in a data folder.
 * @throws {Error} when the file is missing (start the sandbox first) or malformed.
 */
export function readDemoUser(dataDir: string): DemoUser {
  const path = demoUserFilePath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new Error(`no demo user in ${path}: start the sandbox on this data folder first`, { cause });
  }
  const parsed = demoUserSchema.safeParse(
    (() => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return undefined;
      }
    })(),
  );
  if (!parsed.success)
    throw new Error(`${path} is not a sandbox user file: delete it and restart the sandbox to get a new password`);
  return parsed.data;
}

function writeDemoUserFile(dataDir: string, user: DemoUser): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = demoUserFilePath(dataDir);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(user, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** Finds a user by email (case-insensitive). */
export async function findUserByEmail(db: PublicExecutor, email: string): Promise<SandboxUserRow | undefined> {
  return db.selectFrom('sandbox_users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

/**
 * Checks an email and password.
 * @returns the user, or `undefined` when either is wrong (the caller cannot tell which, by design).
 */
export async function authenticateUser(
  db: PublicExecutor,
  email: string,
  password: string,
): Promise<SandboxUserRow | undefined> {
  const user = await findUserByEmail(db, email);
  // Hash even for an unknown email, so the answer time does not say whether the account exists.
  const ok = await verifyPassword(
    password,
    user?.password_hash ?? 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  );
  return ok ? user : undefined;
}

/** Deterministic registrations for a user: hyphenated two-word labels (never in the marketplace inventory). */
export function generateOwnedDomainNames(seed: number, count: number): string[] {
  const random = mulberry32(seed);
  const tlds = TLDS.slice(0, 12);
  const names = new Set<string>();
  while (names.size < count) {
    const a = pick(random, WORDS);
    const b = pick(random, WORDS);
    if (a !== b) names.add(`${a}-${b}.${pick(random, tlds).tld}`);
  }
  return [...names];
}

/**
 * Gives a user registrations (names another user already holds are skipped).
 * @returns the registrations created.
 */
export async function addOwnedDomains(
  db: PublicExecutor,
  userId: string,
  names: readonly string[],
  now: Date,
  seed = 1,
): Promise<SandboxUserDomainRow[]> {
  if (names.length === 0) return [];
  const random = mulberry32(seed);
  const day = 86_400_000;
  const rows = names.map((name) => {
    const registered = new Date(now.getTime() - randomInt(random, 30, 3000) * day);
    const expires = new Date(now.getTime() + randomInt(random, 20, 700) * day);
    return {
      name,
      user_id: userId,
      tld: name.slice(name.lastIndexOf('.') + 1),
      locked: random() < 0.7,
      auto_renew: random() < 0.5,
      nameservers: [...DEFAULT_NAMESERVERS],
      registered_at: registered,
      expires_at: expires,
      updated_at: registered,
    };
  });
  return db
    .insertInto('sandbox_user_domains')
    .values(rows)
    .onConflict((oc) => oc.column('name').doNothing())
    .returningAll()
    .execute();
}

/** What {@link createSandboxUser} needs. */
export interface NewSandboxUser {
  readonly email: string;
  readonly password: string;
  readonly name?: string;
  /** Domains to own: names, or a count of generated names. Default none. */
  readonly domains?: readonly string[] | number;
  readonly id?: string;
}

/**
 * Creates a sandbox user (and its domains). Used for the demo user, and by tests and tools that need a second one.
 * @throws {Error} when the email is taken (unique constraint).
 */
export async function createSandboxUser(
  db: PublicExecutor,
  input: NewSandboxUser,
  now: Date,
): Promise<{ user: SandboxUserRow; domains: SandboxUserDomainRow[] }> {
  const user = await db
    .insertInto('sandbox_users')
    .values({
      id: input.id ?? randomId('usr_', 16),
      email: input.email.trim().toLowerCase(),
      name: input.name ?? input.email.split('@')[0]!,
      password_hash: await hashPassword(input.password),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const seed = Number.parseInt(Buffer.from(user.id).toString('hex').slice(-8), 16);
  const names =
    typeof input.domains === 'number' ? generateOwnedDomainNames(seed, input.domains) : (input.domains ?? []);
  const domains = await addOwnedDomains(db, user.id, names, now, seed);
  return { user, domains };
}

const DEMO_PASSWORD_KEY = 'demo_user_password';

/**
 * Makes sure the demo user exists, owns its domains, and that `{dataDir}/sandbox-user.json` holds a password that
 * signs it in. Like the demo credential's secret, the demo password is also kept in `sandbox_meta`, so several
 * sandboxes sharing one PostgreSQL write the same file; the user table itself keeps only the scrypt hash. A
 * password that no longer verifies (a hand-edited file, a reset database) is replaced by a new random one.
 * Serialised across processes by an advisory lock.
 * @returns the demo user's sign-in and how it was obtained.
 */
export async function ensureDemoUser(
  db: PublicDb,
  dataDir: string,
  now: Date,
): Promise<{ demo: DemoUser; origin: 'created' | 'existing' | 'new_password'; file: string }> {
  const file = demoUserFilePath(dataDir);
  let fromFile: DemoUser | undefined;
  try {
    fromFile = existsSync(file) ? readDemoUser(dataDir) : undefined;
  } catch {
    fromFile = undefined;
  }
  const result = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(7276100500)`.execute(trx);
    const stored = (
      await trx.selectFrom('sandbox_meta').select('value').where('key', '=', DEMO_PASSWORD_KEY).executeTakeFirst()
    )?.value;
    const remember = (password: string) =>
      trx
        .insertInto('sandbox_meta')
        .values({ key: DEMO_PASSWORD_KEY, value: password })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: password }))
        .execute();
    const row = await findUserByEmail(trx, DEMO_USER_EMAIL);
    if (row === undefined) {
      const password = fromFile?.password ?? stored ?? randomBase62(24);
      const { user } = await createSandboxUser(
        trx,
        {
          email: DEMO_USER_EMAIL,
          name: 'Demo User',
          password,
          domains: generateOwnedDomainNames(0x5eed0500, DEMO_USER_DOMAINS),
          ...(fromFile ? { id: fromFile.user_id } : {}),
        },
        now,
      );
      await remember(password);
      return { demo: { user_id: user.id, email: user.email, password }, origin: 'created' as const };
    }
    for (const candidate of [stored, fromFile?.password]) {
      if (candidate !== undefined && (await verifyPassword(candidate, row.password_hash))) {
        if (candidate !== stored) await remember(candidate);
        return { demo: { user_id: row.id, email: row.email, password: candidate }, origin: 'existing' as const };
      }
    }
    const password = randomBase62(24);
    await trx
      .updateTable('sandbox_users')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', row.id)
      .execute();
    await remember(password);
    return { demo: { user_id: row.id, email: row.email, password }, origin: 'new_password' as const };
  });
  if (JSON.stringify(fromFile) !== JSON.stringify(result.demo)) writeDemoUserFile(dataDir, result.demo);
  return { ...result, file };
}
