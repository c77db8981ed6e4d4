/**
 * Domain search of the Public API (Public API spec 4.2 `POST /api/domain/search`, MCP tool and batch op `search_domain`):
 * availability of a domain or a label, with the same label under every other TLD the service knows (its
 * alternate-TLD siblings). Marketplace prices are masked unless the caller holds an access token with scope
 * `pricing:read` (Public API spec 5.2): `price_cents: null, price_masked: true`.
 */
import { apiError } from '../http/api-error.ts';
import type { PublicDomainResult, PublicDomainSearchResponse } from '@domainkit/protocol';
import { loadKnownNames, standingOf, type KnownNames } from './registry-state.ts';
import type { PublicExecutor } from '../db/public-tables.ts';
import {
  TLD_NAMES,
  TLDS,
  findTld,
  operationPeriodYears,
  operationPriceCents,
  type TldInfo,
} from '../inventory/tlds.ts';

/** Who is asking: whether marketplace prices may be shown. */
export interface Viewer {
  /** True with a valid access token of scope `pricing:read`. */
  readonly pricesVisible: boolean;
}

/** An anonymous caller. */
export const ANONYMOUS: Viewer = { pricesVisible: false };

/**
 * Splits a normalised query (`coffee` or `coffee.io`) into its label and TLD.
 * @throws {ProtocolError} `validation_error` when the TLD is not one the service knows.
 */
export function parseQuery(q: string): { label: string; tld: TldInfo | undefined } {
  const dot = q.indexOf('.');
  if (dot === -1) return { label: q, tld: undefined };
  const label = q.slice(0, dot);
  const tldName = q.slice(dot + 1);
  const tld = findTld(tldName);
  if (tld === undefined) throw apiError('validation_error', unknownTldMessage(tldName));
  return { label, tld };
}

/** The message for a TLD outside the bundled list. */
export function unknownTldMessage(tld: string): string {
  return `.${tld} is not a TLD this service knows. Known TLDs: ${TLD_NAMES.join(', ')}.`;
}

/** One domain's result for a viewer. */
export function domainResult(label: string, tld: TldInfo, known: KnownNames, viewer: Viewer): PublicDomainResult {
  const standing = standingOf(label, tld, known);
  const domain = `${label}.${tld.tld}`;
  switch (standing.kind) {
    case 'for_sale':
      return {
        domain,
        tld: tld.tld,
        status: 'for_sale',
        available: true,
        registration: null,
        listing: {
          price_cents: viewer.pricesVisible ? standing.listing.price_cents : null,
          currency: 'USD',
          price_masked: !viewer.pricesVisible,
        },
      };
    case 'available':
      return {
        domain,
        tld: tld.tld,
        status: 'available',
        available: true,
        registration: {
          price_cents: operationPriceCents(tld, 'register'),
          currency: 'USD',
          period_years: operationPeriodYears(tld, 'register') ?? 1,
        },
        listing: null,
      };
    default:
      return { domain, tld: tld.tld, status: 'registered', available: false, registration: null, listing: null };
  }
}

/**
 * Answers a domain search.
 * @param q - a normalised query (see `domainSearchRequestSchema`): a label or a second-level domain.
 * @returns the exact domain (null for a bare label) and its siblings under every other known TLD, most popular first
 *   (for an `xn--` label, only the TLDs that take internationalised names: `idn` in their metadata).
 * @throws {ProtocolError} `validation_error` for a TLD the service does not know.
 */
export async function searchDomain(db: PublicExecutor, q: string, viewer: Viewer): Promise<PublicDomainSearchResponse> {
  const { label, tld } = parseQuery(q);
  // An internationalised label (`xn--`, RFC 5890) has siblings only under the TLDs whose registry takes IDNs.
  const tlds = label.startsWith('xn--') ? TLDS.filter((t) => t.idn) : TLDS;
  const names = tlds.map((t) => `${label}.${t.tld}`);
  const known = await loadKnownNames(db, names);
  return {
    query: q,
    label,
    domain: tld === undefined ? null : domainResult(label, tld, known, viewer),
    siblings: tlds.filter((t) => t !== tld).map((t) => domainResult(label, t, known, viewer)),
    prices_masked: !viewer.pricesVisible,
  };
}
