/**
 * WHOIS/RDAP lookups of the Public API (Public API spec 4.2 `POST /api/tools/whois`, MCP tool and batch op `whois_lookup`):
 * registrar, registrant, dates and nameservers in RDAP terms (RFC 9083), synthetic and deterministic (the same
 * domain always gets the same record). Sandbox-user registrations answer their real state (lock, nameservers,
 * expiry); marketplace listings are held by the marketplace's escrow registrar. Registrant details are redacted,
 * as registries do for natural persons.
 */
import type { Clock } from '../clock.ts';
import { apiError } from '../http/api-error.ts';
import { pick, randomInt } from '../inventory/prng.ts';
import type { PublicWhoisRecord } from '@domainkit/protocol';
import { loadKnownNames, standingOf, streamFor } from './registry-state.ts';
import { unknownTldMessage } from './search.ts';
import type { PublicExecutor } from '../db/public-tables.ts';
import { findTld } from '../inventory/tlds.ts';

/** Fictional registrars (IANA ids in a range no real registrar uses). */
const REGISTRARS = [
  {
    name: 'Harborline Registrar, LLC',
    iana_id: 9101,
    url: 'https://registrar.harborline.example',
    ns: 'harborline-dns.example',
  },
  {
    name: 'Northgate Names, Inc.',
    iana_id: 9102,
    url: 'https://northgate-names.example',
    ns: 'ns.northgate-names.example',
  },
  { name: 'Bluefern Domains Ltd', iana_id: 9103, url: 'https://bluefern.example', ns: 'dns.bluefern.example' },
  {
    name: 'Kestrel Registry Services GmbH',
    iana_id: 9104,
    url: 'https://kestrel-registry.example',
    ns: 'kestrel-dns.example',
  },
  {
    name: 'Lanternfish Internet Corp.',
    iana_id: 9105,
    url: 'https://lanternfish.example',
    ns: 'lanternfish-dns.example',
  },
] as const;

/** The registrar of marketplace listings (names held in escrow for sale). */
export const MARKETPLACE_REGISTRAR = {
  name: 'Marketplace Escrow Registrar (sandbox)',
  iana_id: 9190,
  url: 'https://marketplace.example',
  ns: 'parking.marketplace.example',
} as const;
/** The registrar of sandbox users' domains. */
export const SANDBOX_REGISTRAR = {
  name: 'Domainkit Sandbox Registrar',
  iana_id: 9199,
  url: 'https://sandbox-registrar.example',
  ns: 'ns.sandbox-registrar.example',
} as const;

const COUNTRIES = ['US', 'US', 'US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'JP', 'IN', 'BR', 'ES', 'SE'] as const;
const REDACTED = 'REDACTED FOR PRIVACY';
const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;

function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString();
}

/** The first anniversary of `createdMs` after `nowMs`, plus `extraYears`. */
function nextExpiry(createdMs: number, nowMs: number, extraYears: number): number {
  const created = new Date(createdMs);
  const now = new Date(nowMs);
  let year = now.getUTCFullYear();
  let candidate = Date.UTC(
    year,
    created.getUTCMonth(),
    created.getUTCDate(),
    created.getUTCHours(),
    created.getUTCMinutes(),
    created.getUTCSeconds(),
  );
  if (candidate <= nowMs)
    candidate = Date.UTC(
      ++year,
      created.getUTCMonth(),
      created.getUTCDate(),
      created.getUTCHours(),
      created.getUTCMinutes(),
      created.getUTCSeconds(),
    );
  return candidate + extraYears * YEAR_MS;
}

/**
 * Looks a domain up.
 * @param domain - a normalised domain name (see `whoisRequestSchema`).
 * @returns the record; an unregistered domain answers `registered: false` with empty fields (not an error).
 * @throws {ProtocolError} `validation_error` when the name is not a second-level domain under a known TLD.
 */
export async function whoisLookup(db: PublicExecutor, domain: string, clock: Clock): Promise<PublicWhoisRecord> {
  const parts = domain.split('.');
  const tldName = parts.at(-1)!;
  const tld = findTld(tldName);
  if (tld === undefined) throw apiError('validation_error', unknownTldMessage(tldName));
  if (parts.length !== 2)
    throw apiError(
      'validation_error',
      `Look up a second-level domain such as "coffee.${tld.tld}" (received ${domain}).`,
    );
  const label = parts[0]!;
  const known = await loadKnownNames(db, [domain]);
  const standing = standingOf(label, tld, known);
  const random = streamFor(domain, 'whois');
  // Dates derive from the current day, not the current millisecond, so repeated lookups answer the same record.
  const now = Math.floor(clock() / DAY_MS) * DAY_MS;

  if (standing.kind === 'available') {
    return {
      domain,
      registered: false,
      status: [],
      registrar: null,
      registrant: null,
      dates: { registered: null, updated: null, expires: null },
      nameservers: [],
      dnssec: false,
      source: 'sandbox',
    };
  }

  if (standing.kind === 'owned') {
    const r = standing.registration;
    return {
      domain,
      registered: true,
      status: r.locked ? ['active', 'client transfer prohibited'] : ['active'],
      registrar: { name: SANDBOX_REGISTRAR.name, iana_id: SANDBOX_REGISTRAR.iana_id, url: SANDBOX_REGISTRAR.url },
      registrant: { name: REDACTED, organization: null, country: pick(random, COUNTRIES) },
      dates: {
        registered: r.registered_at.toISOString(),
        updated: r.updated_at.toISOString(),
        expires: r.expires_at.toISOString(),
      },
      nameservers: [...r.nameservers],
      dnssec: false,
      source: 'sandbox',
    };
  }

  const marketplace = standing.kind === 'for_sale' || standing.kind === 'sold';
  const registrar = marketplace && standing.kind === 'for_sale' ? MARKETPLACE_REGISTRAR : pick(random, REGISTRARS);
  const latestCreation = marketplace ? standing.listing.listed_at.getTime() - 30 * DAY_MS : now - 60 * DAY_MS;
  const earliestCreation = Date.UTC(1997, 0, 1);
  const created = earliestCreation + Math.floor(random() * Math.max(1, latestCreation - earliestCreation));
  const updated = created + Math.floor(random() * Math.max(1, now - created - DAY_MS));
  const expires = nextExpiry(created, now, randomInt(random, 0, 3));
  const nsCount = randomInt(random, 2, 4);
  return {
    domain,
    registered: true,
    status: random() < 0.8 ? ['active', 'client transfer prohibited'] : ['active'],
    registrar: { name: registrar.name, iana_id: registrar.iana_id, url: registrar.url },
    registrant: {
      name: REDACTED,
      organization:
        standing.kind === 'for_sale'
          ? 'Marketplace escrow (sandbox)'
          : random() < 0.4
            ? `${label[0]!.toUpperCase()}${label.slice(1)} Holdings`
            : null,
      country: pick(random, COUNTRIES),
    },
    dates: { registered: iso(created), updated: iso(updated), expires: iso(expires) },
    nameservers: Array.from({ length: nsCount }, (_, i) => `ns${i + 1}.${registrar.ns}`),
    dnssec: random() < 0.3,
    source: 'sandbox',
  };
}
