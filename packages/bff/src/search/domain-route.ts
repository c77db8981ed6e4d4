/**
 * `GET /domains/:name` → 200 `{"domain", "available", "price_cents", "currency"}`; 404 `not_found` when unlisted
 * (upstream `GET /domains/{name}`, Partner API spec 4.1). An unavailable or unlisted answer drops the cached searches listing it;
 * an available one corrects the price of every cached search answer listing it.
 */
import { domainNameSchema, type WidgetDomain } from '@domainkit/protocol';
import { z } from 'zod';
import type { LearnedPrice } from '../upstream/domain-changes.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import type { RouteHandler } from '../http/request.ts';
import { json } from '../http/respond.ts';
import { toWidgetDomain } from '../http/widget.ts';
import { upstreamSaysGone } from '../upstream/domain-changes.ts';
import { noQuerySchema, parseInput } from '../validate.ts';

const paramsSchema = z.strictObject({ name: domainNameSchema });
const HELP = { name: { label: 'The domain in the path', hint: 'a domain name', example: 'coffeehouse.com' } };

/** What the domain route uses. */
export interface DomainRouteDeps {
  readonly client: Pick<MarketplaceApi, 'getDomain'>;
  /** How long the lookup waits for the upstream budget (ms) before answering 503 `busy`. */
  readonly maxWaitMs: number;
  /** Told a domain that is unavailable or unlisted (drops cached searches). */
  readonly domainChanged: (domain: string) => void;
  /** Told the price of an available domain (corrects cached searches). */
  readonly priceLearned: (price: LearnedPrice) => void;
}

/** The domain route handler. */
export function domainRoute(ctx: DomainRouteDeps): RouteHandler {
  return async function domainkitBffDomain(req) {
    parseInput(noQuerySchema, req.query, 'query');
    const { name } = parseInput(paramsSchema, { name: req.params.name }, 'path', HELP);
    let detail: Awaited<ReturnType<DomainRouteDeps['client']['getDomain']>>;
    try {
      detail = await ctx.client.getDomain(name, { context: { maxWaitMs: ctx.maxWaitMs } });
    } catch (error) {
      if (upstreamSaysGone(error)) ctx.domainChanged(name);
      throw error;
    }
    if (!detail.available) ctx.domainChanged(name);
    else ctx.priceLearned(detail);
    const body: WidgetDomain = toWidgetDomain(detail);
    return json(body);
  };
}
