/**
 * Server-rendered HTML of the hosted lander: the checkout form, the success page and error pages. No script and
 * no inline style (the page's CSP forbids both); every interpolated value is HTML-escaped.
 *
 * Stable selectors for browser tests: `data-testid="lander-domain"` (the domain), `name="card_number"` (card input),
 * `button[type=submit]` ("Pay"), `data-testid="lander-success"`, `data-testid="lander-declined"`,
 * `data-testid="lander-error"`, `data-testid="lander-return"` (link back to the partner's `return_url`).
 */
import type { CheckoutSessionRow, SaleRow } from '../db/tables.ts';
import { TEST_CARDS, formatCardNumber } from './test-cards.ts';

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Formats minor units as a currency amount for the page, e.g. 250000 USD → `$2,500.00`. */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}

/** `url` with `params` added to its query (an unparseable URL is returned as it is). */
export function withQuery(url: string, params: Record<string, string> | URLSearchParams): string {
  try {
    const target = new URL(url);
    for (const [name, value] of new URLSearchParams(params)) target.searchParams.set(name, value);
    return target.href;
  } catch {
    return url;
  }
}

/** Where the lander is mounted (so links and the stylesheet work under any mount path). */
export interface ViewContext {
  /** The lander's base path, e.g. `/checkout`. */
  readonly base: string;
}

/** A whole page: `brand` heads it (default "Marketplace checkout"); `body` is trusted HTML (escape what goes in). */
export function page(ctx: ViewContext, title: string, body: string, brand = 'Marketplace checkout'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(ctx.base)}/lander.css">
</head>
<body>
<main>
<div class="brand"><span>${escapeHtml(brand)}</span><span class="badge">Sandbox: test cards only</span></div>
${body}
</main>
</body>
</html>
`;
}

/** What the visitor typed, echoed back after an error (never the CVC). */
export interface CardFormValues {
  readonly card_number?: string;
  readonly card_expiry?: string;
  readonly card_name?: string;
}

/** The checkout form for an open session, optionally with a declined notice or form errors. */
export function checkoutPage(
  ctx: ViewContext,
  input: {
    session: CheckoutSessionRow;
    token: string;
    declined?: boolean;
    errors?: readonly string[];
    values?: CardFormValues;
  },
): string {
  const { session, token } = input;
  const v = input.values ?? {};
  const price = formatMoney(session.price_cents, session.currency);
  const notices = [
    input.declined
      ? `<p class="alert bad" role="alert" data-testid="lander-declined">Your card was declined. No payment was taken and ${escapeHtml(session.domain)} is still available: try another card.</p>`
      : '',
    input.errors && input.errors.length > 0
      ? `<div class="alert bad" role="alert" data-testid="lander-form-error"><ul>${input.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>`
      : '',
  ].join('');
  const cancel = session.cancel_url
    ? `<p class="hint"><a href="${escapeHtml(withQuery(session.cancel_url, { checkout_session_id: session.id, status: 'canceled' }))}" data-testid="lander-cancel">Cancel and return to the site you came from</a></p>`
    : '';
  return page(
    ctx,
    `Buy ${session.domain}`,
    `<p class="eyebrow">You are buying</p>
<h1 data-testid="lander-domain">${escapeHtml(session.domain)}</h1>
<p class="price" data-testid="lander-price">${escapeHtml(price)}</p>
${notices}<form method="post" action="${escapeHtml(ctx.base)}/pay" autocomplete="off">
<input type="hidden" name="pt" value="${escapeHtml(token)}">
<label for="card_number">Card number
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" maxlength="23" required value="${escapeHtml(v.card_number ?? '')}">
</label>
<div class="row">
<label for="card_expiry">Expiry (MM/YY)
<input id="card_expiry" name="card_expiry" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required value="${escapeHtml(v.card_expiry ?? '12/34')}">
</label>
<label for="card_cvc">CVC
<input id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4" required value="123">
</label>
</div>
<label for="card_name">Name on card
<input id="card_name" name="card_name" autocomplete="cc-name" maxlength="100" required value="${escapeHtml(v.card_name ?? 'Test Buyer')}">
</label>
<button type="submit">Pay</button>
</form>
<p class="hint">Test cards: <code>${formatCardNumber(TEST_CARDS.succeeds)}</code> succeeds, <code>${formatCardNumber(TEST_CARDS.declined)}</code> is declined. Any future expiry, any CVC.</p>
${cancel}`,
  );
}

/** The page after a successful payment (also shown when a paid session's link is opened again). */
export function successPage(
  ctx: ViewContext,
  input: { session: CheckoutSessionRow; sale?: SaleRow; returnHref?: string | undefined },
): string {
  const { session } = input;
  const href = input.returnHref ?? session.return_url;
  const back = href
    ? `<p><a href="${escapeHtml(href)}" data-testid="lander-return">Return to the site you came from</a></p>`
    : '';
  const receipt = input.sale ? `<p class="hint">Receipt ${escapeHtml(input.sale.id)}</p>` : '';
  return page(
    ctx,
    `Payment received: ${session.domain}`,
    `<p class="alert good" role="status" data-testid="lander-success">Payment received</p>
<h1 data-testid="lander-domain">${escapeHtml(session.domain)}</h1>
<p class="price">Paid ${escapeHtml(formatMoney(session.price_cents, session.currency))}. The domain is yours: transfer instructions follow by email.</p>
${receipt}${back}`,
  );
}

/** An error page: a title and a sentence saying what happened and what to do. */
export function messagePage(
  ctx: ViewContext,
  input: { title: string; message: string; domain?: string; returnUrl?: string | null },
): string {
  const domain = input.domain ? `<p data-testid="lander-domain">${escapeHtml(input.domain)}</p>` : '';
  const back = input.returnUrl
    ? `<p><a href="${escapeHtml(input.returnUrl)}" data-testid="lander-return">Return to the site you came from</a></p>`
    : '';
  return page(
    ctx,
    input.title,
    `<h1 data-testid="lander-error">${escapeHtml(input.title)}</h1>\n${domain}<p>${escapeHtml(input.message)}</p>\n${back}`,
  );
}
