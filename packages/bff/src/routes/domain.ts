/**
 * `GET /domains/:name` → 200 `{"domain", "available", "price_cents", "currency"}`; 404 `not_found` when unlisted
 * (upstream `GET /domains/{name}`, spec 4.1). An unavailable or unlisted answer drops the cached searches listing it.
 */
import { domainNameSchema, type WidgetDomain } from '@domainkit/protocol';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import { parseInput } from '../validate.ts';
import { noQuerySchema, toWidgetDomain, upstreamSaysGone, type BffContext } from './context.ts';

const paramsSchema = z.strictObject({ name: domainNameSchema });
const HELP = { name: { label: 'The domain in the path', hint: 'a domain name', example: 'coffeehouse.com' } };

/** The domain route handler. */
export function domainRoute(ctx: BffContext): RequestHandler {
  return async function domainkitBffDomain(req, res) {
    parseInput(noQuerySchema, req.query, 'query');
    const { name } = parseInput(paramsSchema, { name: req.params.name }, 'path', HELP);
    let detail;
    try {
      detail = await ctx.client.getDomain(name, { context: { maxWaitMs: ctx.searchMaxWaitMs } });
    } catch (error) {
      if (upstreamSaysGone(error)) ctx.domainChanged(name);
      throw error;
    }
    if (!detail.available) ctx.domainChanged(name);
    const body: WidgetDomain = toWidgetDomain(detail);
    res.json(body);
  };
}
