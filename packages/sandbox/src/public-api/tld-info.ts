/**
 * TLD pricing and metadata answers (Public API spec 4.2 `GET /api/pricing/tld`, `GET /api/tlds/{tld}/metadata`, batch op and
 * MCP tool `tld_registration_price`) over the bundled TLD list.
 */
import { apiError } from '../http/api-error.ts';
import { TLD_OPERATIONS, type PublicTldMetadata, type PublicTldPrice, type TldOperation } from '@domainkit/protocol';
import { unknownTldMessage } from './search.ts';
import { findTld, operationPeriodYears, operationPriceCents, type TldInfo } from '../inventory/tlds.ts';

function requireTld(tld: string): TldInfo {
  const name = tld.replace(/^\./, '').toLowerCase();
  const info = findTld(name);
  if (info === undefined) throw apiError('not_found', unknownTldMessage(name));
  return info;
}

/**
 * The price of one operation under a TLD.
 * @throws {ProtocolError} `not_found` for a TLD outside the list.
 */
export function tldPrice(tld: string, op: TldOperation): PublicTldPrice {
  const info = requireTld(tld);
  return {
    tld: info.tld,
    op,
    price_cents: operationPriceCents(info, op),
    currency: 'USD',
    period_years: operationPeriodYears(info, op),
  };
}

/**
 * A TLD's registration rules.
 * @throws {ProtocolError} `not_found` for a TLD outside the list.
 */
export function tldMetadata(tld: string): PublicTldMetadata {
  const info = requireTld(tld);
  return {
    tld: info.tld,
    type: info.type,
    registry: info.registry,
    term: { ...info.term },
    organization: { ...info.organization },
    nameservers: { ...info.nameservers },
    https_required: info.https_required,
    idn: info.idn,
    operations: [...TLD_OPERATIONS],
  };
}
