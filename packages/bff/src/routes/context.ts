/**
 * What the route handlers share: the Partner API client, the search cache and the checkout URLs.
 */
import type { Domain, DomainSearchResponse, WidgetDomain } from '@domainkit/protocol';
import { MarketplaceError } from '@domainkit/client';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { BffHttpError } from '../errors.ts';
import type { MarketplaceApi } from '../options.ts';
import type { SearchCache } from '../search-cache.ts';

/** Shared by the routes of one `createBff` router. */
export interface BffContext {
  readonly client: MarketplaceApi;
  readonly searchCache: SearchCache<DomainSearchResponse>;
  readonly returnUrl: string | undefined;
  readonly cancelUrl: string | undefined;
  /** Origins a widget may name in `return_url` / `cancel_url` of `POST /checkout`. */
  readonly checkoutReturnOrigins: ReadonlySet<string>;
  /** How a search waits for the upstream budget (ms) before answering 503 busy. */
  readonly searchMaxWaitMs: number;
  /** Drops every cached search (and siblings) answer listing this domain: its availability may have changed. */
  readonly domainChanged: (domain: string) => void;
}

/**
 * Whether an upstream error says a domain is no longer for sale: 409 `conflict` (sold or reserved) or 404
 * `not_found` (unlisted) from a call naming it (spec 4.1).
 */
export function upstreamSaysGone(error: unknown): boolean {
  return error instanceof MarketplaceError && (error.status === 409 || error.status === 404);
}

/** A domain as the widget shows it: only what it needs, never upstream extras. */
export function toWidgetDomain(
  domain: Pick<Domain, 'domain' | 'available' | 'price_cents' | 'currency'>,
): WidgetDomain {
  return {
    domain: domain.domain,
    available: domain.available,
    price_cents: domain.price_cents,
    currency: domain.currency,
  };
}

/** A query that must be empty (routes that take no query parameters). */
export const noQuerySchema = z.strictObject({});

/** 405 for a known path used with another method; names the right one in `Allow` and the message. */
export function methodNotAllowed(allow: string): RequestHandler {
  return function domainkitBffMethodNotAllowed(req, res, next) {
    res.setHeader('Allow', allow);
    next(new BffHttpError('method_not_allowed', `${req.method} is not supported here: use ${allow}.`));
  };
}
