/**
 * Server-rendered HTML of the hosted lander: the checkout form, the success page and error pages. No script and
 * no inline style (the page's CSP forbids both); every interpolated value is HTML-escaped.
 *
 * Stable selectors for browser tests: `data-testid="lander-domain"` (the domain), `name="card_number"` (card input),
 * `name="email"` (the buyer's e-mail), `button[type=submit]` ("Pay" and the amount), `data-testid="lander-shop"`
 * (the partner's shop), `data-testid="lander-success"`, `data-testid="lander-declined"`,
 * `data-testid="lander-error"`, `data-testid="lander-return"` (link back to the partner's `return_url`),
 * `data-testid="lander-auto-return"` (the receipt's automatic return, announced).
 */
import type { CheckoutSessionRow, SaleRow } from '../db/tables.ts';
import { LANDER_STRINGS, type LanderStrings } from './lander-strings.ts';
import { TEST_CARDS, formatCardNumber } from './test-cards.ts';

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * Formats minor units as a currency amount for the page, e.g. 250000 USD → `$2,500.00` (`en-US`, the default locale).
 * A right-to-left pattern (`ar`: "‏1,770.00 US$", a right-to-left mark first) has its currency isolated (U+2068 …
 * U+2069): else, read in a right-to-left line, its "$" joins the line's direction and shows "$US".
 */
export function formatMoney(cents: number, currency: string, locale = 'en-US'): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(cents / 100);
  const rtl = /^[\u200f\u061c]/.test(parts[0]?.value ?? '');
  return parts.map(({ type, value }) => (rtl && type === 'currency' ? `\u2068${value}\u2069` : value)).join('');
}

/** `text` escaped inside `<bdi>`: a price, domain or card number keeps its own direction inside any sentence. */
const bdi = (text: string): string => `<bdi>${escapeHtml(text)}</bdi>`;

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

/** Where the lander is mounted (so links and the stylesheet work under any mount path), and its language. */
export interface ViewContext {
  /** The lander's base path, e.g. `/checkout`. */
  readonly base: string;
  /** The page's words (from the buyer's `Accept-Language`); default English. */
  readonly t?: LanderStrings;
  /** The partner's shop as buyers know it (its name in the back office, else its return address's host). */
  readonly shop?: string | undefined;
}

/** How many seconds the receipt waits before it returns the buyer to the shop by itself. */
export const AUTO_RETURN_SECONDS = 10;

/** The strings of `ctx` (English when none were chosen). */
const wordsOf = (ctx: ViewContext): LanderStrings => ctx.t ?? LANDER_STRINGS.en;

/**
 * A whole page in the context's language, headed by `brand`, else the partner's shop, else the marketplace's
 * checkout; `body` is trusted HTML (escape what goes in); `script`: the receipt's script file is loaded.
 */
export function page(ctx: ViewContext, title: string, body: string, brand?: string, script = false): string {
  const t = wordsOf(ctx);
  const heading =
    brand !== undefined
      ? escapeHtml(brand)
      : ctx.shop
        ? `<bdi data-testid="lander-shop">${escapeHtml(ctx.shop)}</bdi>`
        : escapeHtml(t.brand);
  return `<!doctype html>
<html lang="${t.lang}"${t.dir === 'rtl' ? ' dir="rtl"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(ctx.base)}/lander.css">
${script ? `<script src="${escapeHtml(ctx.base)}/receipt.js" defer></script>\n` : ''}</head>
<body>
<main>
<div class="brand"><span>${heading}</span><span class="badge">${escapeHtml(t.badge)}</span></div>
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
  readonly email?: string;
}

/** The checkout form for an open session, optionally with a declined notice or form errors. */
export function checkoutPage(
  ctx: ViewContext,
  input: {
    session: CheckoutSessionRow;
    token: string;
    declined?: boolean;
    errors?: readonly string[];
    /** The fields the errors are about (marked `aria-invalid`). */
    invalid?: readonly string[];
    values?: CardFormValues;
  },
): string {
  const { session, token } = input;
  const t = wordsOf(ctx);
  const v = input.values ?? {};
  const invalid = (field: string) => (input.invalid?.includes(field) ? ' aria-invalid="true"' : '');
  const price = formatMoney(session.price_cents, session.currency, t.locale);
  const notices = [
    input.declined
      ? `<p class="alert bad" role="alert" data-testid="lander-declined">${sentence(t.declined, session.domain)}</p>`
      : '',
    input.errors && input.errors.length > 0
      ? `<div class="alert bad" role="alert" data-testid="lander-form-error"><ul>${input.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul></div>`
      : '',
  ].join('');
  const cancel = session.cancel_url
    ? `<p class="hint"><a href="${escapeHtml(withQuery(session.cancel_url, { checkout_session_id: session.id, status: 'canceled' }))}" data-testid="lander-cancel">${ctx.shop ? sentence(t.cancelTo, ctx.shop) : escapeHtml(t.cancelLink)}</a></p>`
    : '';
  // No placeholders: an example in a field reads as a value already typed. The test cards are named under the form.
  return page(
    ctx,
    t.buyTitle(session.domain),
    `<p class="eyebrow">${escapeHtml(t.youAreBuying)}</p>
<h1 data-testid="lander-domain" dir="ltr">${escapeHtml(session.domain)}</h1>
<p class="price"><bdi data-testid="lander-price">${escapeHtml(price)}</bdi></p>
${notices}<form method="post" action="${escapeHtml(ctx.base)}/pay" autocomplete="off" novalidate>
<input type="hidden" name="pt" value="${escapeHtml(token)}">
<label for="email">${escapeHtml(t.email)}
<input id="email" name="email"${invalid('email')} type="email" inputmode="email" autocomplete="email" maxlength="254" required aria-describedby="email-hint" value="${escapeHtml(v.email ?? '')}">
<span class="field-hint" id="email-hint">${escapeHtml(t.emailHint)}</span>
</label>
<label for="card_number">${escapeHtml(t.cardNumber)}
<input id="card_number" name="card_number"${invalid('card_number')} inputmode="numeric" autocomplete="cc-number" maxlength="23" required aria-describedby="test-cards" value="${escapeHtml(v.card_number ?? '')}">
</label>
<div class="row">
<label for="card_expiry">${escapeHtml(t.expiry)}
<input id="card_expiry" name="card_expiry"${invalid('card_expiry')} autocomplete="cc-exp" maxlength="7" required value="${escapeHtml(v.card_expiry ?? '12/34')}">
</label>
<label for="card_cvc">${escapeHtml(t.cvc)}
<input id="card_cvc" name="card_cvc"${invalid('card_cvc')} inputmode="numeric" autocomplete="cc-csc" maxlength="4" required value="123">
</label>
</div>
<label for="card_name">${escapeHtml(t.nameOnCard)}
<input id="card_name" name="card_name"${invalid('card_name')} autocomplete="cc-name" maxlength="100" required value="${escapeHtml(v.card_name ?? 'Test Buyer')}">
</label>
<button type="submit">${sentence(t.payAmount, price)}</button>
</form>
<p class="hint" id="test-cards">${escapeHtml(t.testCards[0])}<code dir="ltr">${formatCardNumber(TEST_CARDS.succeeds)}</code>${escapeHtml(t.testCards[1])}<code dir="ltr">${formatCardNumber(TEST_CARDS.declined)}</code>${escapeHtml(t.testCards[2])}</p>
${cancel}`,
  );
}

/**
 * The receipt (`{mount}/receipt?pt=`, where Pay redirects): the sale, where its receipt goes, and the way back to
 * the shop with the signed result. With a return address, the receipt's script returns the buyer there after
 * {@link AUTO_RETURN_SECONDS} seconds: it says so in a status message (announced) and offers to stay (WCAG 2.2.1);
 * without script the link alone is there.
 */
export function receiptPage(
  ctx: ViewContext,
  input: { session: CheckoutSessionRow; sale?: SaleRow | undefined; returnHref?: string | undefined },
): string {
  const { session, sale } = input;
  const t = wordsOf(ctx);
  const href = input.returnHref ?? session.return_url;
  const shop = ctx.shop;
  const back = href
    ? `<p><a href="${escapeHtml(href)}" data-testid="lander-return">${shop ? sentence(t.returnTo, shop) : escapeHtml(t.returnLink)}</a></p>`
    : '';
  // The countdown's words wait in templates; the script moves them into the status region, so they are announced.
  const auto =
    href && shop
      ? `<p class="auto-return" role="status" data-testid="lander-auto-return" data-href="${escapeHtml(href)}" data-seconds="${AUTO_RETURN_SECONDS}"></p>
<template id="auto-return-started">${sentence((name) => t.autoReturn(name, AUTO_RETURN_SECONDS), shop)}</template>
<template id="auto-return-stopped">${sentence(t.stayed, shop)}</template>
<p><button type="button" class="secondary" id="auto-return-stay" hidden>${escapeHtml(t.stay)}</button></p>
`
      : '';
  const emailed = sale?.buyer_email ? `<p>${sentence(t.receiptTo, sale.buyer_email)}</p>\n` : '';
  const receipt = sale ? `<p class="hint">${escapeHtml(t.receipt)} ${bdi(sale.id)}</p>\n` : '';
  const price = formatMoney(session.price_cents, session.currency, t.locale);
  return page(
    ctx,
    t.paidTitle(session.domain),
    `<p class="alert good" role="status" data-testid="lander-success">${escapeHtml(t.paymentReceived)}</p>
<h1 data-testid="lander-domain" dir="ltr">${escapeHtml(session.domain)}</h1>
<p class="price">${escapeHtml(t.paid[0])}${bdi(price)}${escapeHtml(t.paid[1])}</p>
${emailed}${auto}${back}${receipt}`,
    undefined,
    auto !== '',
  );
}

/** `template(value)` escaped, with `value` (a domain) isolated in `<bdi>`. */
function sentence(template: (value: string) => string, value: string): string {
  const marker = '\u0000';
  return escapeHtml(template(marker)).replace(marker, bdi(value));
}

/** An error page: a title and a sentence saying what happened and what to do. */
export function messagePage(
  ctx: ViewContext,
  input: { title: string; message: string; domain?: string; returnUrl?: string | null },
): string {
  const domain = input.domain ? `<p data-testid="lander-domain" dir="ltr">${escapeHtml(input.domain)}</p>` : '';
  const t = wordsOf(ctx);
  const back = input.returnUrl
    ? `<p><a href="${escapeHtml(input.returnUrl)}" data-testid="lander-return">${ctx.shop ? sentence(t.returnTo, ctx.shop) : escapeHtml(t.returnLink)}</a></p>`
    : '';
  return page(
    ctx,
    input.title,
    `<h1 data-testid="lander-error">${escapeHtml(input.title)}</h1>\n${domain}<p>${escapeHtml(input.message)}</p>\n${back}`,
  );
}
