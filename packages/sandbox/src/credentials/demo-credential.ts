/**
 * The demo credential: a SANDBOX credential with every scope and a linked affiliate, created at first start and
 * saved with a webhook secret and the admin token in `{dataDir}/credentials.json` (mode 0600), so a partner's CI
 * obtains it with no person involved. The database is the source of truth; the file mirrors it.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { getMeta, lockBootstrap, setMeta } from '../db/meta.ts';
import type { SandboxDb } from '../db/tables.ts';
import { randomSecret } from '../ids.ts';
import { KEY_PREFIXES, SCOPES, scopeSchema } from '../scopes.ts';
import { createCredential, findActiveCredential } from './store.ts';

/** The demo credential as saved in `credentials.json` and returned by `startSandbox`. */
export const demoCredentialSchema = z.object({
  /** Public key id, `pk_test_…`. */
  key_id: z.string().startsWith(KEY_PREFIXES.SANDBOX.keyId),
  /** API secret, `sk_test_…`: signs requests (Partner API spec 5.1); never sent, never logged. */
  secret: z.string().startsWith(KEY_PREFIXES.SANDBOX.secret),
  /** A webhook signing secret to register with `PUT /api/partner/webhooks` (Partner API spec 2.4, 5.3). */
  webhook_secret: z.string().min(16),
  /** Bearer token of the sandbox's admin API (`/admin`). */
  admin_token: z.string().min(16),
  environment: z.literal('SANDBOX'),
  scopes: z.array(scopeSchema),
});

/** The demo credential: key id and secret, webhook secret, admin token, environment and scopes. */
export type DemoCredential = z.infer<typeof demoCredentialSchema>;

/** Name of the credential file inside the data folder. */
export const CREDENTIALS_FILE = 'credentials.json';

/** The path of the credential file of a data folder. */
export function credentialsFilePath(dataDir: string): string {
  return join(dataDir, CREDENTIALS_FILE);
}

/**
 * Reads the demo credential saved in a data folder.
 * @param dataDir - the sandbox data folder (default of the sandbox: `.data/sandbox`).
 * @throws {Error} when the file is missing (start the sandbox, or run `domainkit-sandbox credentials`, first) or is
 *   not a valid credential file.
 */
export function readDemoCredential(dataDir: string): DemoCredential {
  const path = credentialsFilePath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new Error(
      `no demo credential in ${path}: start the sandbox or run "domainkit-sandbox credentials --data-dir ${dataDir}" first`,
      { cause },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new Error(`${path} is not valid JSON: delete it to have the sandbox write it again`, { cause });
  }
  const parsed = demoCredentialSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${path} is not a sandbox credential file: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function writeDemoCredentialFile(dataDir: string, demo: DemoCredential): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = credentialsFilePath(dataDir);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** The outcome of {@link ensureDemoCredential}. */
export interface EnsuredDemoCredential {
  readonly demo: DemoCredential;
  /** `created` on first start, `restored` when the database was new but the file held a credential, else `existing`. */
  readonly origin: 'created' | 'restored' | 'existing';
  readonly file: string;
}

/**
 * Makes sure the demo credential exists in the database and in `{dataDir}/credentials.json`:
 * 1. the database already has it: use it (and rewrite the file if it is missing or differs);
 * 2. else the file has one (for example a new PostgreSQL schema with an old data folder): store it, so keys a
 *    partner already configured keep working;
 * 3. else generate a new one.
 *
 * @throws {Error} when an existing credential file is corrupt (it is never silently overwritten).
 */
export async function ensureDemoCredential(db: SandboxDb, dataDir: string, now: Date): Promise<EnsuredDemoCredential> {
  const file = credentialsFilePath(dataDir);
  const fromFile = existsSync(file) ? readDemoCredential(dataDir) : undefined;

  const { demo, origin } = await db.transaction().execute(async (trx) => {
    await lockBootstrap(trx);
    const keyId = await getMeta(trx, 'demo_key_id');
    const webhookSecret = await getMeta(trx, 'demo_webhook_secret');
    const adminToken = await getMeta(trx, 'admin_token');
    const row = keyId === undefined ? undefined : await findActiveCredential(trx, keyId);
    if (row && webhookSecret !== undefined && adminToken !== undefined) {
      const existing: DemoCredential = {
        key_id: row.key_id,
        secret: row.secret,
        webhook_secret: webhookSecret,
        admin_token: adminToken,
        environment: 'SANDBOX',
        scopes: row.scopes,
      };
      return { demo: existing, origin: 'existing' as const };
    }
    const restoring = fromFile !== undefined && (await findActiveCredential(trx, fromFile.key_id)) === undefined;
    const created = await createCredential(
      trx,
      {
        environment: 'SANDBOX',
        scopes: SCOPES,
        affiliate: true,
        approved: true,
        label: 'demo credential',
        ...(restoring ? { keyId: fromFile.key_id, secret: fromFile.secret } : {}),
      },
      now,
    );
    const demo: DemoCredential = {
      key_id: created.key_id,
      secret: created.secret,
      webhook_secret: restoring ? fromFile.webhook_secret : `whsec_${randomSecret(24)}`,
      admin_token: restoring ? fromFile.admin_token : `adm_${randomSecret(24)}`,
      environment: 'SANDBOX',
      scopes: created.scopes,
    };
    await setMeta(trx, 'demo_key_id', demo.key_id);
    await setMeta(trx, 'demo_webhook_secret', demo.webhook_secret);
    await setMeta(trx, 'admin_token', demo.admin_token);
    return { demo, origin: restoring ? ('restored' as const) : ('created' as const) };
  });

  if (fromFile === undefined || JSON.stringify(fromFile) !== JSON.stringify(demo))
    writeDemoCredentialFile(dataDir, demo);
  return { demo, origin, file };
}
