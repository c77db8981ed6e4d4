/**
 * The database of one BFF: opened on first use (or by {@link DatabaseHandle.open}), never when the BFF is created,
 * when an enabled feature needs one (MoR, webhooks, an explicit `database`); closed by the BFF only when the BFF
 * opened it.
 *
 * Two ways to hold PostgreSQL: one pool for the process (Node, Bun, Deno), or one connection per request
 * (`database.perRequest`, the default on Cloudflare workerd, where a socket opened while serving one request cannot
 * be used by another). Per request, the connection is opened on the request's first query, kept in an
 * `AsyncLocalStorage` scope entered by {@link DatabaseHandle.withRequest}, and closed once the request's answer and
 * the work it handed to `waitUntil` are done. Migrations run once per process (isolate), before the first query.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BffHttpError } from '../errors.ts';
import { isWorkerd } from '../platform.ts';
import { openBffDatabase, openPostgres, pingDatabase, type BffDatabase, type BffDatabaseOptions } from './database.ts';
import type { BffDb } from './tables.ts';

/** Where the BFF's state lives. */
export interface DatabaseSource {
  /** `none` when no enabled feature (MoR, webhooks, an explicit `database`) needs one. */
  readonly kind: 'pglite' | 'postgres' | 'none';
  /** A handle passed in (the caller closes it), or the options to open one (the BFF closes it). */
  readonly source: BffDatabase | BffDatabaseOptions | undefined;
  /** Whether the BFF opened the database itself, and so closes it. */
  readonly owned: boolean;
}

/** Keeps work that outlives a response running (Workers `ctx.waitUntil`, Vercel `waitUntil`). */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** One request's connection (per-request mode) and the work it handed to `waitUntil`. */
interface RequestScope {
  database: Promise<BffDatabase> | undefined;
  readonly pending: Array<Promise<unknown>>;
}

const UNAVAILABLE = 'The order service is not available right now; try again shortly.';

/** The BFF's database: its kind, readiness, and the open handle for the stores. */

/** How many times `/readyz` pings the database before it answers 503 (each failed pooled connection is discarded). */
const PING_ATTEMPTS = 3;
export class DatabaseHandle {
  /** `pglite`, `postgres`, or `none` (no feature needing a database is enabled). */
  readonly kind: 'pglite' | 'postgres' | 'none';
  /** True when PostgreSQL is held one connection per request ({@link withRequest}) instead of one pool. */
  readonly perRequest: boolean;
  readonly #source: DatabaseSource;
  readonly #scopes = new AsyncLocalStorage<RequestScope>();
  /** The shared database (pool or PGlite, or the caller's handle), once opening started. */
  #shared: Promise<BffDatabase> | undefined;
  #opened: Promise<void> | undefined;
  /**
   * Per-request mode: true once this process (isolate) migrated. Only a flag, never a shared promise: on workerd a
   * promise made while serving one request cannot settle in another (each request that finds it false migrates on
   * its own connection; Kysely's migration lock serialises them, and the second finds nothing to do).
   */
  #migrated = false;
  #closed = false;

  constructor(resolved: DatabaseSource) {
    this.kind = resolved.kind;
    this.#source = resolved;
    const options = resolved.owned ? (resolved.source as BffDatabaseOptions | undefined) : undefined;
    this.perRequest = resolved.kind === 'postgres' && options !== undefined && (options.perRequest ?? isWorkerd());
  }

  /** Whether a database is configured at all. */
  get configured(): boolean {
    return this.kind !== 'none' && this.#source.source !== undefined;
  }

  /**
   * Opens (or, per request, migrates) the database unless already done. Resolves when it is open and migrated
   * (at once when none is configured); rejects when it cannot open (a later call tries again per request only).
   */
  open(): Promise<void> {
    if (!this.configured) return Promise.resolve();
    if (this.#closed && this.#shared === undefined && !this.#migrated)
      return Promise.reject(new BffHttpError('unavailable', UNAVAILABLE));
    if (this.perRequest) return this.#migrate();
    // One promise for every caller: a failure is handled once (the runtime logs it), not once per reader.
    this.#opened ??= this.#openShared().then(() => undefined);
    return this.#opened;
  }

  /** Resolves when the database is open and migrated, opening it now if nothing did yet (see {@link open}). */
  get ready(): Promise<void> {
    return this.open();
  }

  #openShared(): Promise<BffDatabase> {
    this.#shared ??= this.#source.owned
      ? openBffDatabase(this.#source.source as BffDatabaseOptions)
      : Promise.resolve(this.#source.source as BffDatabase);
    return this.#shared;
  }

  /** Per request: runs the migrations on a connection of their own unless this process already did. */
  async #migrate(): Promise<void> {
    if (this.#migrated) return;
    const { url, schema } = this.#source.source as BffDatabaseOptions;
    const database = await openPostgres(url!, schema ?? 'public', { max: 1 });
    this.#migrated = true;
    await database.close();
  }

  /**
   * The open database: per request, this request's connection (opened now on its first query).
   * @throws {BffHttpError} 503 `unavailable` when none is configured, it failed to open, or the BFF is closed.
   */
  async db(): Promise<BffDb> {
    if (!this.configured || this.#closed) throw new BffHttpError('unavailable', UNAVAILABLE);
    try {
      if (!this.perRequest) return (await this.#openShared()).db;
      return (await this.#requestDatabase()).db;
    } catch (cause) {
      throw new BffHttpError('unavailable', UNAVAILABLE, { cause });
    }
  }

  async #requestDatabase(): Promise<BffDatabase> {
    const scope = this.#scopes.getStore();
    if (scope === undefined) {
      // Outside a request (a timer on a long-lived process): one pool, opened once, as without perRequest.
      await this.#migrate();
      const { url, schema } = this.#source.source as BffDatabaseOptions;
      this.#shared ??= openPostgres(url!, schema ?? 'public', { migrate: false });
      return this.#shared;
    }
    scope.database ??= (async () => {
      const { url, schema } = this.#source.source as BffDatabaseOptions;
      // The first requests of a process migrate on their own connection, then keep it for their queries.
      const database = await openPostgres(url!, schema ?? 'public', { max: 1, migrate: !this.#migrated });
      this.#migrated = true;
      return database;
    })();
    return scope.database;
  }

  /**
   * Runs `work` (serving one request, or one `scheduled()` round) in its own database scope. Per request, the
   * connection it opens is closed once `work` settled and every promise handed to the returned scope's
   * `waitUntil` settled too; that closing is itself handed to `waitUntil` (when given) so the host keeps the
   * isolate alive for it. Without per-request mode, `work` simply runs.
   * @param waitUntil - the host's (Workers `ctx.waitUntil`); without one the closing runs on its own.
   * @param work - receives `keep`: hands a promise to the host's `waitUntil` and keeps the scope's connection open
   *   until it settles.
   */
  async withRequest<T>(
    waitUntil: WaitUntil | undefined,
    work: (keep: (promise: Promise<unknown>) => void) => Promise<T>,
  ): Promise<T> {
    if (!this.perRequest) {
      return work((promise) => {
        if (waitUntil !== undefined) waitUntil(promise.catch(() => {}));
      });
    }
    const scope: RequestScope = { database: undefined, pending: [] };
    const keep = (promise: Promise<unknown>) => {
      const settled = promise.catch(() => {});
      scope.pending.push(settled);
      waitUntil?.(settled);
    };
    try {
      return await this.#scopes.run(scope, () => work(keep));
    } finally {
      const closing = (async () => {
        // Work handed on may add more work (an inbox run kicking another): wait until nothing is left.
        for (let seen = 0; seen < scope.pending.length; ) {
          const batch = scope.pending.slice(seen);
          seen += batch.length;
          await Promise.all(batch);
        }
        const database = await scope.database?.catch(() => undefined);
        await database?.close();
      })();
      if (waitUntil !== undefined) waitUntil(closing);
      else void closing;
    }
  }

  /**
   * Checks the database answers (`select 1`), up to {@link PING_ATTEMPTS} times: a pooled connection the server cut
   * (a restart or failover, `pg_terminate_backend`) fails its next query once and is discarded, and readiness must
   * not flap to 503 for a database that answers on a fresh connection.
   * @throws {BffHttpError} 503 `unavailable`, as {@link db} or when no attempt is answered.
   */
  async check(): Promise<void> {
    const db = await this.db();
    for (let attempt = 1; ; attempt++) {
      try {
        await pingDatabase(db);
        return;
      } catch (cause) {
        if (attempt >= PING_ATTEMPTS) throw new BffHttpError('unavailable', 'The database does not answer.', { cause });
      }
    }
  }

  /** Refuses further use, and closes the database when this handle opened it. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#shared === undefined || !this.#source.owned) return;
    try {
      await (await this.#shared).close();
    } catch {
      // It never opened: nothing to close.
    }
  }
}
