/**
 * The search answers and listings every BFF process of one credential shares, in the BFF database (PostgreSQL
 * shared by replicas, or embedded PGlite kept in the data folder across restarts): tables `bff_search_answers`,
 * `bff_search_evictions` and `bff_listings` (migration 0030). The only module that reads or writes them.
 *
 * A store belongs to one credential in one environment ({@link SearchScope}): each row names both, and every read,
 * write, eviction and prune is confined to the store's own rows, so shops of several credentials (a SANDBOX staging
 * shop and a LIVE one) on one database never see each other's answers, evictions or listings.
 */
import type { DomainSearchResponse } from '@domainkit/protocol';
import { sql } from 'kysely';
import { toCents, type BffDb } from '../db/tables.ts';
import type { MarketplaceEnvironment } from '../upstream/environment.ts';
import { MAX_LISTING_TERMS, nameTerms, type SeenListing } from './listing-index.ts';

/** Whose cache a {@link SqlAnswerStore} is: the credential's public key id and its environment (environment.ts). */
export interface SearchScope {
  readonly keyId: string;
  readonly environment: MarketplaceEnvironment;
}

/** A stored answer and when it was fetched (ms since the epoch). */
export interface StoredAnswer {
  readonly answer: DomainSearchResponse;
  readonly storedMs: number;
}

/** Where {@link SqlAnswerStore.changesSince} left off. */
export interface ChangeCursor {
  readonly evictionId: number;
  readonly listingMs: number;
  readonly answerMs: number;
}

/** What other processes changed since a cursor. */
export interface Changes {
  /** Domains whose answers were dropped. */
  readonly evicted: readonly string[];
  /** Listings seen (new or seen again). */
  readonly listings: readonly SeenListing[];
  /** Answers stored (new or refreshed), by normalised query. */
  readonly answers: ReadonlyArray<StoredAnswer & { readonly key: string }>;
  readonly cursor: ChangeCursor;
}

/** Overlap when reading listings by time, so rows committed slightly out of order are not missed (ms). */
const LISTING_OVERLAP_MS = 5_000;

/** The shared store of answers, evictions and listings of one credential. */
export class SqlAnswerStore {
  readonly #db: () => Promise<BffDb>;
  readonly #scope: { readonly key_id: string; readonly environment: MarketplaceEnvironment };

  /**
   * @param db - resolves to the open database.
   * @param scope - the credential whose rows this store reads and writes (no other's).
   */
  constructor(db: () => Promise<BffDb>, scope: SearchScope) {
    this.#db = db;
    this.#scope = { key_id: scope.keyId, environment: scope.environment };
  }

  /** The answer stored for normalised query `key`, if any. */
  async get(key: string): Promise<StoredAnswer | undefined> {
    const db = await this.#db();
    const row = await db
      .selectFrom('bff_search_answers')
      .select(['answer', 'stored_ms'])
      .where((eb) => eb.and(this.#scope))
      .where('key', '=', key)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return { answer: JSON.parse(row.answer) as DomainSearchResponse, storedMs: row.stored_ms };
  }

  /** Stores an answer fetched at `storedMs` and the listings it holds. */
  async put(key: string, answer: DomainSearchResponse, storedMs: number, listings: readonly SeenListing[]) {
    const db = await this.#db();
    const domains = answer.domains.map((d) => d.domain.toLowerCase());
    await db
      .insertInto('bff_search_answers')
      .values({ ...this.#scope, key, answer: JSON.stringify(answer), domains, stored_ms: storedMs })
      .onConflict((oc) =>
        oc.columns(['key_id', 'environment', 'key']).doUpdateSet({
          answer: (eb) => eb.ref('excluded.answer'),
          domains: (eb) => eb.ref('excluded.domains'),
          stored_ms: (eb) => eb.ref('excluded.stored_ms'),
        }),
      )
      .execute();
    await this.#see(db, listings);
  }

  /**
   * Takes `listing` (a price a quote, a checkout session or a domain detail gave at `listing.seenMs`) as the newest
   * known for its domain, unless a newer one is stored: every stored answer listing the domain, fetched no later,
   * shows it; other processes correct their copies from the listing at their next sync.
   */
  async reprice(listing: SeenListing): Promise<void> {
    await this.#see(await this.#db(), [listing]);
  }

  /**
   * Stores listings (a stored one seen later is kept; the terms are merged), then corrects every stored answer
   * listing one of them that was fetched no later than its listing was seen, to the listing's availability and price.
   */
  async #see(db: BffDb, listings: readonly SeenListing[]): Promise<void> {
    if (listings.length === 0) return;
    await db
      .insertInto('bff_listings')
      .values(
        listings.map((l) => ({
          ...this.#scope,
          domain: l.domain,
          available: l.available,
          price_cents: l.price_cents,
          currency: l.currency,
          terms: nameTerms(l.domain, l.terms.split(' ')),
          seen_ms: l.seenMs,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'environment', 'domain'])
          .doUpdateSet({
            available: (eb) => eb.ref('excluded.available'),
            price_cents: (eb) => eb.ref('excluded.price_cents'),
            currency: (eb) => eb.ref('excluded.currency'),
            seen_ms: (eb) => eb.ref('excluded.seen_ms'),
            // The words of both, each once, the first MAX_LISTING_TERMS (each side holds only words of the name).
            terms: sql`(select coalesce(string_agg(w, ' ' order by n), '') from (
              select w, min(n) as n
              from unnest(string_to_array(bff_listings.terms || ' ' || excluded.terms, ' ')) with ordinality as t(w, n)
              where w <> '' group by w order by min(n) limit ${MAX_LISTING_TERMS}) as merged)`,
          })
          .where(sql<boolean>`bff_listings.seen_ms <= excluded.seen_ms`),
      )
      .execute();
    const domains = listings.map((l) => l.domain);
    // Each entry of `domains` of an answer listing one of them takes its listing's offer, when seen no earlier.
    await sql`
      update bff_search_answers as a set answer = (
        select (a.answer::jsonb || jsonb_build_object('domains', coalesce(jsonb_agg(
          case when l.domain is null then t.d
          else t.d || jsonb_build_object('available', l.available, 'price_cents', l.price_cents, 'currency', l.currency)
          end order by t.n), '[]'::jsonb)))::text
        from jsonb_array_elements(a.answer::jsonb -> 'domains') with ordinality as t(d, n)
        left join bff_listings as l on l.key_id = a.key_id and l.environment = a.environment
          and l.domain = lower(t.d ->> 'domain') and l.seen_ms >= a.stored_ms)
      where a.key_id = ${this.#scope.key_id} and a.environment = ${this.#scope.environment}
        and a.domains && ${domains}::text[]
        and exists (
          select 1 from jsonb_array_elements(a.answer::jsonb -> 'domains') as e(d)
          join bff_listings as l on l.key_id = a.key_id and l.environment = a.environment
            and l.domain = lower(e.d ->> 'domain') and l.seen_ms >= a.stored_ms
          where (e.d -> 'price_cents') is distinct from to_jsonb(l.price_cents)
            or (e.d -> 'available') is distinct from to_jsonb(l.available)
            or (e.d ->> 'currency') is distinct from l.currency)`.execute(db);
  }

  /**
   * Drops every stored answer listing `domain` and the domain's listing, and records the eviction so every other
   * process drops its in-memory copies.
   */
  async evict(domain: string, nowMs: number): Promise<void> {
    const db = await this.#db();
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('bff_search_answers')
        .where((eb) => eb.and(this.#scope))
        .where(sql<boolean>`domains @> array[${domain}]::text[]`)
        .execute();
      await trx
        .deleteFrom('bff_listings')
        .where((eb) => eb.and(this.#scope))
        .where('domain', '=', domain)
        .execute();
      await trx
        .insertInto('bff_search_evictions')
        .values({ ...this.#scope, domain, at_ms: nowMs })
        .execute();
    });
  }

  /** The cursor of "now": evictions already recorded are not replayed. */
  async currentCursor(): Promise<ChangeCursor> {
    const db = await this.#db();
    const row = await db
      .selectFrom('bff_search_evictions')
      .select((eb) => eb.fn.max('id').as('id'))
      .where((eb) => eb.and(this.#scope))
      .executeTakeFirst();
    return { evictionId: Number(row?.id ?? 0), listingMs: 0, answerMs: 0 };
  }

  /** The `limit` most recently fetched answers (a process starting fills its memory with them). */
  async recentAnswers(limit: number): Promise<Array<StoredAnswer & { key: string }>> {
    const db = await this.#db();
    const rows = await db
      .selectFrom('bff_search_answers')
      .select(['key', 'answer', 'stored_ms'])
      .where((eb) => eb.and(this.#scope))
      .orderBy('stored_ms', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      key: r.key,
      answer: JSON.parse(r.answer) as DomainSearchResponse,
      storedMs: r.stored_ms,
    }));
  }

  /** Evictions, listings and answers recorded since `cursor` (by any process). */
  async changesSince(cursor: ChangeCursor): Promise<Changes> {
    const db = await this.#db();
    const evictions = await db
      .selectFrom('bff_search_evictions')
      .select(['id', 'domain'])
      .where((eb) => eb.and(this.#scope))
      .where('id', '>', String(cursor.evictionId))
      .orderBy('id')
      .execute();
    const since = cursor.listingMs === 0 ? 0 : cursor.listingMs - LISTING_OVERLAP_MS;
    const rows = await db
      .selectFrom('bff_listings')
      .select(['domain', 'available', 'price_cents', 'currency', 'terms', 'seen_ms'])
      .where((eb) => eb.and(this.#scope))
      .where('seen_ms', '>', since)
      .execute();
    let listingMs = cursor.listingMs;
    const listings = rows.map((r) => {
      listingMs = Math.max(listingMs, r.seen_ms);
      return {
        domain: r.domain,
        available: r.available,
        price_cents: toCents(r.price_cents),
        currency: r.currency,
        terms: r.terms,
        seenMs: r.seen_ms,
      };
    });
    const answerRows =
      cursor.answerMs === 0
        ? []
        : await db
            .selectFrom('bff_search_answers')
            .select(['key', 'answer', 'stored_ms'])
            .where((eb) => eb.and(this.#scope))
            .where('stored_ms', '>', cursor.answerMs - LISTING_OVERLAP_MS)
            .execute();
    let answerMs = cursor.answerMs;
    const answers = answerRows.map((r) => {
      answerMs = Math.max(answerMs, r.stored_ms);
      return { key: r.key, answer: JSON.parse(r.answer) as DomainSearchResponse, storedMs: r.stored_ms };
    });
    const last = evictions.at(-1);
    return {
      evicted: evictions.map((e) => e.domain),
      listings,
      answers,
      cursor: { evictionId: last === undefined ? cursor.evictionId : Number(last.id), listingMs, answerMs },
    };
  }

  /**
   * Deletes this credential's answers fetched before `beforeMs` and its eviction records older than
   * `evictionsBeforeMs` (another credential's shop keeps its rows by its own settings).
   */
  async prune(beforeMs: number, evictionsBeforeMs: number): Promise<void> {
    const db = await this.#db();
    await db
      .deleteFrom('bff_search_answers')
      .where((eb) => eb.and(this.#scope))
      .where('stored_ms', '<', beforeMs)
      .execute();
    await db
      .deleteFrom('bff_search_evictions')
      .where((eb) => eb.and(this.#scope))
      .where('at_ms', '<', evictionsBeforeMs)
      .execute();
  }
}
