/**
 * Where a domain stands, as the Public API tells it (Public API spec 4.2 domain search and WHOIS): listed on the marketplace,
 * owned by a sandbox user, or neither. For names that are neither, registration is synthetic and deterministic:
 * a SHA-256 of the name decides whether it is taken (more often for popular TLDs and dictionary words), so the
 * same question always gets the same answer.
 */
import { createHash } from 'node:crypto';
import type { DomainRow } from '../db/tables.ts';
import { WORD_SET } from '../inventory/words.ts';
import { mulberry32, type Random } from '../inventory/prng.ts';
import type { PublicExecutor, SandboxUserDomainRow } from '../db/public-tables.ts';
import type { TldInfo } from '../inventory/tlds.ts';
import { LIVE_SITE_DOMAINS } from '../scenarios/scenarios.ts';

/** The Public API reads the SANDBOX inventory (it has no credential to select another, Partner API spec 1 "Environments"). */
export const PUBLIC_ENVIRONMENT = 'SANDBOX' as const;

/** A deterministic pseudo-random stream for one name (and a purpose), from its SHA-256. */
export function streamFor(name: string, purpose: string): Random {
  const digest = createHash('sha256').update(`${purpose}:${name}`).digest();
  return mulberry32(digest.readUInt32BE(0));
}

function looksLikeWords(label: string): 0 | 1 | 2 {
  if (WORD_SET.has(label)) return 1;
  for (let i = 3; i <= label.length - 3; i++)
    if (WORD_SET.has(label.slice(0, i)) && WORD_SET.has(label.slice(i))) return 2;
  return 0;
}

/**
 * Whether a name that is neither listed nor owned in the sandbox is registered by someone (synthetic).
 * Short labels and dictionary words are likelier taken, and more so under crowded TLDs such as `.com`.
 */
export function syntheticallyRegistered(label: string, tld: TldInfo): boolean {
  const words = looksLikeWords(label);
  const base = words === 1 ? 0.97 : label.length <= 4 ? 0.95 : words === 2 ? 0.55 : label.length <= 8 ? 0.35 : 0.12;
  return streamFor(`${label}.${tld.tld}`, 'registered')() < base * tld.crowding;
}

/** What the sandbox holds about a set of names. */
export interface KnownNames {
  /** Marketplace inventory rows (listed or sold), by name. */
  readonly listings: ReadonlyMap<string, DomainRow>;
  /** Sandbox-user registrations, by name. */
  readonly owned: ReadonlyMap<string, SandboxUserDomainRow>;
}

/** Loads the marketplace rows and the sandbox-user registrations of `names` (two queries). */
export async function loadKnownNames(db: PublicExecutor, names: readonly string[]): Promise<KnownNames> {
  if (names.length === 0) return { listings: new Map(), owned: new Map() };
  const [listings, owned] = await Promise.all([
    db
      .selectFrom('domains')
      .selectAll()
      .where('environment', '=', PUBLIC_ENVIRONMENT)
      .where('name', 'in', names)
      .execute(),
    db.selectFrom('sandbox_user_domains').selectAll().where('name', 'in', names).execute(),
  ]);
  return { listings: new Map(listings.map((r) => [r.name, r])), owned: new Map(owned.map((r) => [r.name, r])) };
}

/** A name's standing. */
export type Standing =
  | { readonly kind: 'for_sale'; readonly listing: DomainRow }
  | { readonly kind: 'owned'; readonly registration: SandboxUserDomainRow }
  | { readonly kind: 'sold'; readonly listing: DomainRow }
  | { readonly kind: 'registered' }
  | { readonly kind: 'available' };

/** Classifies a name: owned by a sandbox user, listed (or sold) on the marketplace, else synthetic. */
export function standingOf(label: string, tld: TldInfo, known: KnownNames): Standing {
  const name = `${label}.${tld.tld}`;
  const registration = known.owned.get(name);
  if (registration !== undefined) return { kind: 'owned', registration };
  const listing = known.listings.get(name);
  if (listing !== undefined)
    return listing.status === 'listed' ? { kind: 'for_sale', listing } : { kind: 'sold', listing };
  // A scenario name that runs a live site (brokerage answers `live_site`) is registered, whatever the hash says.
  if (LIVE_SITE_DOMAINS.has(name)) return { kind: 'registered' };
  return syntheticallyRegistered(label, tld) ? { kind: 'registered' } : { kind: 'available' };
}
