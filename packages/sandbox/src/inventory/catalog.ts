/**
 * Reading the inventory: one domain by name, keyword search, and the wire shapes of discovery (Partner API spec 4.1
 * "Discovery"; shapes decided in docs/spec-decisions.md).
 */
import { domainToUnicode } from 'node:url';
import { SEARCH_MAX_RESULTS } from '@domainkit/protocol';
import type { Environment } from '../scopes.ts';
import type { DomainRow, SandboxDb } from '../db/tables.ts';
import { WORD_SET } from './words.ts';

/** `Domain` on the wire: `price_cents` is the buy-now price; `available` is false once sold. */
export interface DomainWire {
  domain: string;
  tld: string;
  available: boolean;
  price_cents: number;
  currency: string;
}

/** `DomainDetail` on the wire (`GET /domains/{name}`). */
export interface DomainDetailWire extends DomainWire {
  words: string[];
  listed_at: string;
  status: 'listed' | 'sold';
}

/** The search-result shape of a row. */
export function toDomainWire(row: DomainRow): DomainWire {
  return {
    domain: row.name,
    tld: row.tld,
    available: row.status === 'listed',
    price_cents: row.price_cents,
    currency: row.currency,
  };
}

/** The detail shape of a row. */
export function toDomainDetailWire(row: DomainRow): DomainDetailWire {
  return { ...toDomainWire(row), words: row.words, listed_at: row.listed_at.toISOString(), status: row.status };
}

/** Looks one domain up in an environment's inventory (listed or sold); `undefined` when it was never listed. */
export async function findDomain(
  db: SandboxDb,
  environment: Environment,
  name: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('environment', '=', environment)
    .where('name', '=', name)
    .executeTakeFirst();
}

/** A search query, analysed. */
export interface AnalysedQuery {
  /** The query's letters and digits joined, as a label would spell them (`coffee house` → `coffeehouse`). */
  readonly label: string;
  /** The TLD when the query is a domain name (`coffee.io` → `io`). */
  readonly tld: string | undefined;
  /** Dictionary words found in the query (`coffeehouse` → `coffee`, `house`). */
  readonly words: readonly string[];
  /** Every fragment a matching label must contain at least one of. */
  readonly terms: readonly string[];
}

/** Splits a run of letters into dictionary words (`coffeehouse` → [`coffee`, `house`]), or `undefined`. */
function segment(token: string): string[] | undefined {
  const best: Array<string[] | undefined> = [[]];
  for (let end = 1; end <= token.length; end++) {
    for (let start = Math.max(0, end - 8); start < end; start++) {
      const prefix = best[start];
      const piece = token.slice(start, end);
      if (
        prefix !== undefined &&
        WORD_SET.has(piece) &&
        (best[end] === undefined || best[end]!.length > prefix.length + 1)
      ) {
        best[end] = [...prefix, piece];
      }
    }
  }
  return best[token.length];
}

/**
 * Analyses a search query: lowercased, a trailing `.tld` recognised, an `xn--` label read in Unicode (the BFF sends
 * internationalised names in that form, IDNA UTS #46), accents dropped, split on anything that is not a letter or
 * digit, runs of letters segmented into known words.
 */
export function analyseQuery(q: string): AnalysedQuery {
  let text = q.trim().toLowerCase();
  let tld: string | undefined;
  const asDomain = /^([a-z0-9-]+)\.([a-z]{2,24})$/.exec(text);
  if (asDomain) {
    text = asDomain[1]!;
    tld = asDomain[2]!;
  }
  // An internationalised name (RFC 5890) is one label in either form: its `xn--` form is the name, its letters
  // without their accents (`münchen` → `munchen`) are the words a keyword search can match.
  const idn = /^xn--[a-z0-9-]+$/.test(text) ? text : undefined;
  text = text
    .replace(/(?<![a-z0-9-])xn--[a-z0-9-]+/g, (label) => domainToUnicode(label) || label)
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
  const tokens = text
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 10);
  const words = new Set<string>();
  for (const token of tokens) {
    if (WORD_SET.has(token)) words.add(token);
    else for (const w of segment(token) ?? []) words.add(w);
  }
  const all = [...new Set([...tokens, ...words])];
  const long = all.filter((t) => t.length >= 2);
  return { label: idn ?? tokens.join(''), tld, words: [...words], terms: long.length > 0 ? long : all };
}

/**
 * Keyword search over an environment's inventory (Partner API spec 4.1: at most 5 results, query required).
 *
 * A domain matches when its label is the query's or contains at least one query term. Ranking, first difference wins: the exact
 * domain name; the exact label; more query words among the domain's words; more terms inside the label; the
 * query's TLD; shorter label; lower price; name. Sold domains stay in the results (with `available: false`), so a
 * visitor sees what happened to a name. Deterministic: the same query on the same data gives the same list.
 */
export async function searchDomains(
  db: SandboxDb,
  environment: Environment,
  q: string,
  limit = SEARCH_MAX_RESULTS,
): Promise<DomainRow[]> {
  const query = analyseQuery(q);
  if (query.terms.length === 0) return [];
  // Terms are [a-z0-9] only, so they hold no LIKE wildcard to escape.
  const candidates = await db
    .selectFrom('domains')
    .selectAll()
    .where('environment', '=', environment)
    // The exact label too: an `xn--` label spells none of the words read from it (`munchen`).
    .where((eb) => eb.or([eb('label', '=', query.label), ...query.terms.map((t) => eb('label', 'like', `%${t}%`))]))
    .execute();
  const exactName = query.tld === undefined ? undefined : `${query.label}.${query.tld}`;
  const ranked = candidates.map((row) => ({
    row,
    key: [
      row.name === exactName ? 0 : 1,
      row.label === query.label ? 0 : 1,
      -query.words.filter((w) => row.words.includes(w)).length,
      -query.terms.filter((t) => row.label.includes(t)).length,
      query.tld !== undefined && row.tld === query.tld ? 0 : 1,
      row.label.length,
      row.price_cents,
    ],
  }));
  ranked.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const d = a.key[i]! - b.key[i]!;
      if (d !== 0) return d;
    }
    return a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0;
  });
  return ranked.slice(0, limit).map((r) => r.row);
}
