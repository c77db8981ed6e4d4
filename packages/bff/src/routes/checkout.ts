/**
 * `POST /checkout` with the JSON body `{"domain"}` → 201 `{"checkout_url", "expires_at"}` (non-MoR, spec 2.3, 4.1):
 * creates a checkout session upstream with the partner's configured return and cancel URLs. The browser chooses
 * only the domain; prices and URLs come from the server side.
 */
import { MarketplaceResponseError } from '@domainkit/client';
import { widgetCheckoutRequestSchema, type WidgetCheckoutResponse } from '@domainkit/protocol';
import type { RequestHandler } from 'express';
import { parseInput } from '../validate.ts';
import { noQuerySchema, type BffContext } from './context.ts';

const HELP = { domain: { label: '`domain`', hint: 'the domain name to buy', example: 'coffeehouse.com' } };

/** The checkout route handler (after the JSON body checks). */
export function checkoutRoute(ctx: BffContext): RequestHandler {
  return async function domainkitBffCheckout(req, res) {
    parseInput(noQuerySchema, req.query, 'query');
    const { domain } = parseInput(widgetCheckoutRequestSchema, req.body, 'body', HELP);
    const session = await ctx.client.createCheckoutSession({
      domain,
      ...(ctx.returnUrl !== undefined && { return_url: ctx.returnUrl }),
      ...(ctx.cancelUrl !== undefined && { cancel_url: ctx.cancelUrl }),
    });
    // The widget navigates to this URL: accept only http(s), never `javascript:` or `data:`.
    if (!/^https?:$/.test(new URL(session.checkout_url).protocol)) {
      throw new MarketplaceResponseError({
        status: 201,
        endpoint: 'POST /api/partner/v1/checkout-session',
        message: 'checkout_url is not an http(s) URL; refusing to send the visitor there.',
      });
    }
    const body: WidgetCheckoutResponse = { checkout_url: session.checkout_url, expires_at: session.expires_at };
    res.status(201).json(body);
  };
}
