/**
 * The database of one `createBff` router: opened once, in the background, when an enabled feature needs one
 * (MoR, webhooks, an explicit `database`); closed by the router only when the router opened it.
 */
import { BffHttpError } from '../errors.ts';
import { openBffDatabase, pingDatabase, type BffDatabase, type BffDatabaseOptions } from './database.ts';
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

const UNAVAILABLE = 'The order service is not available right now; try again shortly.';

/** The router's database: its kind, readiness, and the open handle for the stores. */
export class DatabaseHandle {
  /** `pglite`, `postgres`, or `none` (no feature needing a database is enabled). */
  readonly kind: 'pglite' | 'postgres' | 'none';
  /** Resolves when the database is open and migrated (at once when none is used); rejects when it cannot open. */
  readonly ready: Promise<void>;
  readonly #database: Promise<BffDatabase> | undefined;
  readonly #owned: boolean;
  #closed = false;

  constructor(resolved: DatabaseSource) {
    this.kind = resolved.kind;
    this.#owned = resolved.owned;
    const source = resolved.source;
    if (resolved.kind === 'none' || source === undefined) {
      this.#database = undefined;
      this.ready = Promise.resolve();
    } else {
      this.#database = resolved.owned
        ? openBffDatabase(source as BffDatabaseOptions)
        : Promise.resolve(source as BffDatabase);
      this.ready = this.#database.then(() => undefined);
    }
  }

  /** Whether a database is configured at all. */
  get configured(): boolean {
    return this.#database !== undefined;
  }

  /**
   * The open database.
   * @throws {BffHttpError} 503 `unavailable` when none is configured, it failed to open, or the BFF is closed.
   */
  async db(): Promise<BffDb> {
    if (this.#database === undefined || this.#closed) throw new BffHttpError('unavailable', UNAVAILABLE);
    try {
      return (await this.#database).db;
    } catch (cause) {
      throw new BffHttpError('unavailable', UNAVAILABLE, { cause });
    }
  }

  /** Checks the database answers. @throws {BffHttpError} 503 `unavailable`, as {@link db} or when it does not answer. */
  async check(): Promise<void> {
    const db = await this.db();
    try {
      await pingDatabase(db);
    } catch (cause) {
      throw new BffHttpError('unavailable', 'The database does not answer.', { cause });
    }
  }

  /** Refuses further use, and closes the database when this handle opened it. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#database === undefined || !this.#owned) return;
    try {
      await (await this.#database).close();
    } catch {
      // It never opened: nothing to close.
    }
  }
}
