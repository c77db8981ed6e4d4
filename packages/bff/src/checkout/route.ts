/**
 * `POST /checkout` with the JSON body `{"domain", "return_url"?, "cancel_url"?, "locale"?}` → 201 `{"checkout_url",
 * "expires_at", "price_cents", "currency"}` (the session's price; non-MoR, Partner API spec 2.3, 4.1): creates a checkout session upstream. The return and cancel URLs are
 * the partner's configured ones, or ones the widget names (its `return-path` / `cancel-path` attributes): an
 * absolute URL on one of the partner's return origins, or a path such as `/thanks`, resolved against the page's
 * origin (`Origin`) when that is one of them, else against the configured URL's. Never another site (the hosted
 * checkout must not become an open redirect): 400 `return_url_not_allowed`. Prices come from the server side.
 */
import { MarketplaceResponseError } from '@domainkit/client';
import { widgetCheckoutRequestSchema, type WidgetCheckoutResponse } from '@domainkit/protocol';
import { BffHttpError } from '../errors.ts';
import { type BffRequest, JSON_BODY_LIMIT_BYTES, json, readJson, type RouteHandler } from '../http/index.ts';
import type { LearnedPrice } from '../upstream/domain-changes.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import { noQuerySchema, parseInput } from '../validate.ts';
import { upstreamSaysGone } from '../upstream/domain-changes.ts';

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
  /** Told the price the checkout session holds (corrects cached searches). */
  readonly priceLearned: (price: LearnedPrice) => void;
}

const HELP = {
  domain: { label: '`domain`', hint: 'the domain name to buy', example: 'coffeehouse.com' },
  return_url: {
    label: '`return_url`',
    hint: 'a path on this shop (or an absolute URL on it) to return to after paying',
    example: '/thanks',
    optional: true,
  },
  cancel_url: {
    label: '`cancel_url`',
    hint: 'a path on this shop (or an absolute URL on it) to return to after cancelling',
    example: '/cart',
    optional: true,
  },
  locale: { label: '`locale`', hint: "the page's language tag", example: 'fr-FR', optional: true },
};

/**
 * The absolute URL the widget's `field` names, checked against the shop's return origins: an absolute URL as it is,
 * a path resolved against `pageOrigin` (the request's `Origin`) when that is a return origin, else against the
 * origin of `configured` (option `returnUrl` / `cancelUrl`).
 * @throws {BffHttpError} 400 `return_url_not_allowed` saying which origins are accepted.
 */
export function returnTarget(
  ctx: Pick<CheckoutRouteDeps, 'checkoutReturnOrigins'>,
  field: 'return_url' | 'cancel_url',
  value: string | undefined,
  pageOrigin: string | undefined,
  configured: string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  const allowed = [...ctx.checkoutReturnOrigins];
  const none = `\`${field}\` is not accepted: this shop has no return origins configured (option checkoutReturnOrigins).`;
  let url: URL;
  if (value.startsWith('/')) {
    const base =
      pageOrigin !== undefined && ctx.checkoutReturnOrigins.has(pageOrigin)
        ? pageOrigin
        : configured === undefined
          ? undefined
          : new URL(configured).origin;
    if (base === undefined) {
      throw new BffHttpError(
        'return_url_not_allowed',
        allowed.length === 0
          ? none
          : `\`${field}\` is a path, but this page's origin (${pageOrigin ?? 'no Origin header'}) is not one of this shop's return origins (${allowed.join(', ')}) and no ${field === 'return_url' ? 'returnUrl' : 'cancelUrl'} is configured to resolve it against.`,
      );
    }
    url = new URL(value, base);
    // A path stays on its base (the schema refuses "//host" and backslashes; this holds whatever the parser does).
    if (url.origin !== base) throw new BffHttpError('return_url_not_allowed', `\`${field}\` must stay on ${base}.`);
  } else {
    url = new URL(value);
  }
  if (!ctx.checkoutReturnOrigins.has(url.origin)) {
    throw new BffHttpError(
      'return_url_not_allowed',
      allowed.length === 0
        ? none
        : `\`${field}\` must be on one of this shop's origins (${allowed.join(', ')}); received a URL on ${url.origin}.`,
    );
  }
  return url.href;
}

/** The checkout route (`POST /checkout`; the cross-site and visitor-limit checks run before it). */
export function checkoutRoute(ctx: CheckoutRouteDeps): RouteHandler {
  return async function domainkitBffCheckout(req: BffRequest): Promise<Response> {
    // The body checks first (415, 413, 400 for unreadable JSON), then the query, then the fields.
    const sent = await readJson(req, JSON_BODY_LIMIT_BYTES);
    parseInput(noQuerySchema, req.query, 'query');
    const input = parseInput(widgetCheckoutRequestSchema, sent, 'body', HELP);
    const pageOrigin = req.header('origin');
    const returnUrl = returnTarget(ctx, 'return_url', input.return_url, pageOrigin, ctx.returnUrl) ?? ctx.returnUrl;
    const cancelUrl = returnTarget(ctx, 'cancel_url', input.cancel_url, pageOrigin, ctx.cancelUrl) ?? ctx.cancelUrl;
    let session: Awaited<ReturnType<CheckoutRouteDeps['client']['createCheckoutSession']>>;
    try {
      session = await ctx.client.createCheckoutSession({
        domain: input.domain,
        ...(returnUrl !== undefined && { return_url: returnUrl }),
        ...(cancelUrl !== undefined && { cancel_url: cancelUrl }),
        // The page's language: the hosted checkout speaks it (else the buyer's browser decides).
        ...(input.locale !== undefined && { locale: input.locale }),
      });
    } catch (error) {
      // Sold, reserved or unlisted: cached searches must stop offering it.
      if (upstreamSaysGone(error)) ctx.domainChanged(input.domain);
      throw error;
    }
    // The session's price is the marketplace's current one: every cached answer listing the domain shows it.
    ctx.priceLearned({
      domain: session.domain,
      available: true,
      price_cents: session.price_cents,
      currency: session.currency,
    });
    // The widget navigates to this URL: accept only http(s), never `javascript:` or `data:`.
    if (!/^https?:$/.test(new URL(session.checkout_url).protocol)) {
      throw new MarketplaceResponseError({
        status: 201,
        endpoint: 'POST /api/partner/v1/checkout-session',
        message: 'checkout_url is not an http(s) URL; refusing to send the visitor there.',
      });
    }
    const body: WidgetCheckoutResponse = {
      checkout_url: session.checkout_url,
      expires_at: session.expires_at,
      price_cents: session.price_cents,
      currency: session.currency,
    };
    return json(body, 201);
  };
}
