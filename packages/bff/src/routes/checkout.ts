/**
 * `POST /checkout` with the JSON body `{"domain", "return_url"?, "cancel_url"?}` → 201 `{"checkout_url",
 * "expires_at"}` (non-MoR, Partner API spec 2.3, 4.1): creates a checkout session upstream. The return and cancel URLs are
 * the partner's configured ones, or URLs the widget names on one of the partner's configured origins (never
 * another site: the hosted checkout must not become an open redirect). Prices come from the server side.
 */
import { MarketplaceResponseError } from '@domainkit/client';
import { widgetCheckoutRequestSchema, type WidgetCheckoutResponse } from '@domainkit/protocol';
import type { RequestHandler } from 'express';
import { BffHttpError } from '../errors.ts';
import type { MarketplaceApi } from '../marketplace-api.ts';
import { parseInput } from '../validate.ts';
import { noQuerySchema, upstreamSaysGone } from './context.ts';

/** What the checkout route uses. */
export interface CheckoutRouteDeps {
  readonly client: Pick<MarketplaceApi, 'createCheckoutSession'>;
  /** The partner's configured return URL (option `returnUrl`). */
  readonly returnUrl: string | undefined;
  /** The partner's configured cancel URL (option `cancelUrl`). */
  readonly cancelUrl: string | undefined;
  /** Origins a widget may name in `return_url` / `cancel_url`. */
  readonly checkoutReturnOrigins: ReadonlySet<string>;
  /** Told a domain the marketplace says is sold, reserved or unlisted (drops cached searches). */
  readonly domainChanged: (domain: string) => void;
}

const HELP = {
  domain: { label: '`domain`', hint: 'the domain name to buy', example: 'coffeehouse.com' },
  return_url: {
    label: '`return_url`',
    hint: 'an absolute URL on this shop to return to after paying',
    example: 'https://shop.example/thanks',
    optional: true,
  },
  cancel_url: {
    label: '`cancel_url`',
    hint: 'an absolute URL on this shop to return to after cancelling',
    example: 'https://shop.example/cart',
    optional: true,
  },
};

function onAllowedOrigin(
  ctx: CheckoutRouteDeps,
  field: 'return_url' | 'cancel_url',
  url: string | undefined,
): string | undefined {
  if (url === undefined) return undefined;
  const origin = new URL(url).origin;
  if (!ctx.checkoutReturnOrigins.has(origin)) {
    const allowed = [...ctx.checkoutReturnOrigins];
    throw new BffHttpError(
      'validation_error',
      allowed.length === 0
        ? `\`${field}\` is not accepted: this shop has no return origins configured.`
        : `\`${field}\` must be on one of this shop's origins (${allowed.join(', ')}); received a URL on ${origin}.`,
    );
  }
  return url;
}

/** The checkout route handler (after the JSON body checks). */
export function checkoutRoute(ctx: CheckoutRouteDeps): RequestHandler {
  return async function domainkitBffCheckout(req, res) {
    parseInput(noQuerySchema, req.query, 'query');
    const input = parseInput(widgetCheckoutRequestSchema, req.body, 'body', HELP);
    const returnUrl = onAllowedOrigin(ctx, 'return_url', input.return_url) ?? ctx.returnUrl;
    const cancelUrl = onAllowedOrigin(ctx, 'cancel_url', input.cancel_url) ?? ctx.cancelUrl;
    let session: Awaited<ReturnType<CheckoutRouteDeps['client']['createCheckoutSession']>>;
    try {
      session = await ctx.client.createCheckoutSession({
        domain: input.domain,
        ...(returnUrl !== undefined && { return_url: returnUrl }),
        ...(cancelUrl !== undefined && { cancel_url: cancelUrl }),
      });
    } catch (error) {
      // Sold, reserved or unlisted: cached searches must stop offering it.
      if (upstreamSaysGone(error)) ctx.domainChanged(input.domain);
      throw error;
    }
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
