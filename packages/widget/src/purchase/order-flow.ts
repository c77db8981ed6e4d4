/**
 * The MoR order flow (order mode), loaded on first use by {@link PurchaseController}: the quote with its price
 * lock and countdown, the order, its status polling, and the order panel both elements render (the locked
 * price, the partner's `payment` slot, the order's status, and what to do when the quote expired, the price
 * changed or a call failed).
 *
 * In the script-tag build this module is its own file (`domainkit-order.min.js`, beside `domainkit.min.js`),
 * so it imports nothing with identity or state from the rest of the widget or from Lit: only the pure
 * formatting helpers, the events and the calls of `api.ts`. Lit's `html` and `nothing` (the entry's own) and
 * everything else it reaches through the controller.
 */
import type { TemplateResult } from 'lit';
import { createOrder, createQuote, getOrder, isAbortError, isOrderAnswer, toApiError, trackOrder } from '../api.ts';
import { mmss } from '../clock.ts';
import { DkOrderCreatedEvent, type DkOrderCreatedDetail } from '../events/dk-order-created.ts';
import { DkQuoteEvent } from '../events/dk-quote.ts';
import { formatPrice } from '../format.ts';
import { DkErrorEvent } from '../events/dk-error.ts';
import { errorMessage, type DkStrings } from '../strings.ts';
import type { OrderDetails, WidgetMoney, WidgetOrderResponse, WidgetOrderStatus } from '../types.ts';

import { orderStrings } from './order-strings.ts';
import { purchaseStrings } from './purchase-strings.ts';
import { readRefusal } from './refusal.ts';
import type { Nothing, PurchaseController, PurchasePhase } from './purchase-controller.ts';

/** How often and how many times the order status is refreshed after the order was placed. */
const POLL_MS = 5000;
const POLLS = 3;
/**
 * While the order is `PROCESSING` (paid, its record still retried by the BFF, which gives up and refunds 30 s after the
 * payment by default), the status is followed longer: up to 12 times (a minute), until it is recorded or refunded.
 */
const PROCESSING_POLLS = 12;
/**
 * Seconds the BFF may hold each `GET /orders/:id/status` of a followed order (a long poll: it answers as soon as a
 * webhook moves the order); under the BFF's default 15 s request deadline and the widget's own request deadline.
 */
export const FOLLOW_WAIT_SECONDS = 12;
/** Whether a followed status of `version` may be shown over the one of `after` (never an older one). */
export const isNewer = (after: string | undefined, version: string): boolean =>
  after === undefined || Number(version) >= Number(after);
/** Failed follow requests in a row after which the widget falls back to a few plain polls. */
const FOLLOW_FAILURES = 3;
/** The `version` of the order status each element shows (the next long poll waits for a change from it). */
const followed = new WeakMap<PurchaseController, string>();

/** Order mode's Buy: the first quote of `p.domain`; the element renders the order panel from now on. Never rejects. */
export function buy(p: PurchaseController): Promise<void> {
  p.flow = orderFlow;
  p.words = { ...orderStrings, ...purchaseStrings };
  return requestQuote(p);
}

/**
 * What became of the money of the visitor's last failed order attempt, said after the panel's message while the
 * purchase goes on (a changed price to confirm, an expired lock); forgotten once an order is shown or a new
 * purchase starts.
 */
const lastMoney = new WeakMap<PurchaseController, WidgetMoney>();

/** Failures of a quote request (not of an order): said as they are, with no money (nothing was paid in them). */
const quoteFailures = new WeakSet<object>();

/**
 * Order mode: locks the price of `p.domain` (again, after an expiry or to confirm a changed price). A refused
 * re-quote leaves the visitor where they were (a busy shop is not an expired lock). Never rejects.
 */
export async function requestQuote(p: PurchaseController): Promise<void> {
  const fresh = !p.quote;
  const before = p.status;
  if (fresh) lastMoney.delete(p);
  const signal = p.start('pending');
  try {
    // The key and quote of an attempt still open (its answer lost, or a reload): the BFF answers with its order if
    // it has one.
    const answer = await createQuote(p.host.api, p.domain, { signal, purchase: openPurchase(p.domain) });
    if (isOrderAnswer(answer)) {
      // This visitor's order for the domain is in flight or placed: show its status, never a new price to pay.
      p.quote = {
        quote_id: '',
        domain: answer.domain,
        display_name: answer.display_name,
        price_cents: answer.sale_price_cents,
        currency: answer.currency,
        expires_at: answer.created_at,
      };
      p.newPrice = 0;
      showOrder(p, answer);
      if (fresh) void moveFocus(p, () => p.host.renderRoot.querySelector<HTMLElement>('[part~="order"]'));
      return;
    }
    const quote = answer;
    p.quote = quote;
    if (quote.display_name) p.names = { ...p.names, [quote.domain]: quote.display_name };
    listen(p);
    p.newPrice = 0;
    p.set('quoted');
    p.host.dispatchEvent(
      new DkQuoteEvent({
        quoteId: quote.quote_id,
        domain: quote.domain,
        priceCents: quote.price_cents,
        currency: quote.currency,
        expiresAt: quote.expires_at,
      }),
    );
    tick(p);
    // Focus follows the panel: into it when a quote appears (the payment form comes next).
    if (fresh) void moveFocus(p, () => p.host.renderRoot.querySelector<HTMLElement>('[part~="order"]'));
  } catch (caught) {
    // A domain another buyer's lock holds is said as such, never "sold".
    const error = await readRefusal(p.host.api, p.domain, caught, signal);
    const failed = p.fail(error, !p.quote ? 'idle' : before === 'mismatch' ? 'mismatch' : 'expired');
    if (failed) quoteFailures.add(failed);
    // A failed re-quote: focus on the alert saying what happened and what to do (the retry is the next control).
    if (failed && !fresh) void moveFocus(p, () => p.host.renderRoot.querySelector<HTMLElement>('[part="order-error"]'));
  }
}

const listening = new WeakSet<EventTarget>();

/**
 * The documented alternative to `placeOrder()`: the partner's form (in the `payment` slot) dispatches a
 * bubbling `dk-place-order` CustomEvent with `detail: { buyer, payment }`. Listened to from the first quote on
 * (no payment form is shown before).
 */
function listen(p: PurchaseController): void {
  if (listening.has(p.host)) return;
  listening.add(p.host);
  p.host.addEventListener('dk-place-order', (event) => {
    event.stopPropagation();
    const detail = (event as CustomEvent<OrderDetails | undefined>).detail;
    if (detail) void p.placeOrder(detail);
  });
}

/**
 * Once the host rendered, moves focus to `target()` if focus was inside the host (now, or when `wasInside` was
 * taken), or if it was lost to `<body>` meanwhile (a partner's Pay button disabled while paying drops it there).
 */
async function moveFocus(p: PurchaseController, target: () => HTMLElement | null, wasInside = false): Promise<void> {
  const inside = wasInside || p.host.matches(':focus-within');
  await p.host.updateComplete;
  const active = document.activeElement;
  if (inside || !active || active === document.body) target()?.focus();
}

/** Abandons the purchase from the panel (Cancel, Done), focus back to where it was before the panel. */
function close(p: PurchaseController): void {
  void moveFocus(p, () => p.host.home());
  p.cancel();
}

/**
 * The purchase key of the visitor's current attempt to buy `domain`: one random key per attempt, kept in
 * `sessionStorage` (per tab, surviving a reload) with the quote it pays, and sent as `Idempotency-Key`, so a retry
 * after a lost answer or a reload is answered with the order's status instead of a second payment. The BFF binds
 * the key to that quote (the key alone is not a bearer token), so a re-quote sends both. A new attempt starts (a
 * new key) once the previous one ended for good. Without storage (blocked), both live as long as the page.
 */
const memoryKeys = new Map<string, string>();
const memoryQuotes = new Map<string, string>();
const keyName = (domain: string) => `dk-purchase-key:${domain.toLowerCase()}`;
const quoteName = (domain: string) => `dk-purchase-quote:${domain.toLowerCase()}`;

/** Reads a kept value: `sessionStorage` first, else this page's memory. */
function kept(name: string, memory: Map<string, string>, domain: string): string | undefined {
  try {
    const value = globalThis.sessionStorage?.getItem(name);
    if (value) return value;
  } catch {
    // Storage blocked: only the value in memory.
  }
  return memory.get(domain);
}

/** Keeps a value in this page's memory and, when allowed, in `sessionStorage`. */
function keep(name: string, memory: Map<string, string>, domain: string, value: string): void {
  memory.set(domain, value);
  try {
    globalThis.sessionStorage?.setItem(name, value);
  } catch {
    // Storage blocked: the value in memory serves this page.
  }
}

/** The key of the attempt to pay `quoteId` for `domain` (the open attempt's, or a new one), kept with the quote. */
function purchaseKey(domain: string, quoteId: string): string {
  const key = kept(keyName(domain), memoryKeys, domain) ?? randomKey();
  keep(keyName(domain), memoryKeys, domain, key);
  keep(quoteName(domain), memoryQuotes, domain, quoteId);
  return key;
}

/** The key and quote of the visitor's open attempt to buy `domain`, if both are kept (never makes one). */
function openPurchase(domain: string): { key: string; quoteId: string } | undefined {
  const key = kept(keyName(domain), memoryKeys, domain);
  const quoteId = kept(quoteName(domain), memoryQuotes, domain);
  return key && quoteId ? { key, quoteId } : undefined;
}

/**
 * A new random purchase key: a UUID, or, on a page that is not a secure context (plain `http:` other than
 * localhost, where `crypto.randomUUID` does not exist), 32 hex digits from `crypto.getRandomValues`.
 */
function randomKey(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Ends the attempt: the next purchase of `domain` gets a new key. */
function endAttempt(domain: string): void {
  memoryKeys.delete(domain);
  memoryQuotes.delete(domain);
  try {
    globalThis.sessionStorage?.removeItem(keyName(domain));
    globalThis.sessionStorage?.removeItem(quoteName(domain));
  } catch {
    // Storage blocked: nothing kept.
  }
}

/** Failures whose outcome is unknown (the payment may have gone through): the retry must carry the same key. */
const OUTCOME_UNKNOWN = new Set(['network_error', 'upstream_timeout', 'invalid_response', 'payment_error', 'busy']);

/** Order mode: places the order for the current quote (see `PurchaseController.placeOrder`). */
export async function placeOrder(p: PurchaseController, details: OrderDetails): Promise<DkOrderCreatedDetail | null> {
  const quote = p.quote;
  if (p.status !== 'quoted' || !quote) return null;
  p.details = details;
  // Focus is usually on the partner's Pay button (in the host's `payment` slot) now; it moves to the result.
  const inside = p.host.matches(':focus-within');
  const signal = p.start('ordering');
  const key = purchaseKey(quote.domain, quote.quote_id);
  try {
    const order = await createOrder(p.host.api, quote.quote_id, details, { signal, purchaseKey: key });
    const detail = showOrder(p, order);
    void moveFocus(p, () => p.host.renderRoot.querySelector<HTMLElement>('[part="order-heading"]'), inside);
    return detail;
  } catch (error) {
    if (isAbortError(error)) return null;
    const { code, priceCents, fields, status } = toApiError(error);
    const orderId = typeof fields.order_id === 'string' ? fields.order_id : '';
    const orderStatus = typeof fields.status === 'string' ? fields.status : undefined;
    if (!OUTCOME_UNKNOWN.has(code) && !(status >= 500) && !isAbortError(error)) endAttempt(quote.domain);
    if ((code === 'order_in_progress' || code === 'conflict') && orderId) {
      // An order for this quote is already in flight: show its status rather than offering a new quote.
      p.order = {
        order_id: orderId,
        order_token: '',
        status: orderStatus ?? 'PROCESSING',
        domain: quote.domain,
        sale_price_cents: quote.price_cents,
        currency: quote.currency,
        created_at: new Date(p.host.clock.now()).toISOString(),
      };
      if (isMoney(fields.money)) (p.order as { money?: WidgetMoney }).money = fields.money;
      p.orderToken = '';
      p.details = undefined;
      p.set('ordered');
      void moveFocus(p, () => p.host.renderRoot.querySelector<HTMLElement>('[part="order-heading"]'), inside);
      return null;
    }
    if (code === 'price_mismatch') p.newPrice = priceCents ?? quote.price_cents;
    failOrder(p, error, phaseAfter(code));
    tick(p);
    // Focus moves to what happened (the partner's Pay, disabled while paying, would leave it on <body>).
    void moveFocus(
      p,
      () => {
        const root = p.host.renderRoot;
        return root.querySelector<HTMLElement>('[part="order-error"]') ?? root.querySelector('[part="order-message"]');
      },
      inside,
    );
    return null;
  }
}

/** Where a failed order leaves the visitor: a new price to confirm, a fresh quote, nothing to retry, or the same quote. */
function phaseAfter(code: string): PurchasePhase {
  return code === 'price_mismatch'
    ? 'mismatch'
    : code === 'quote_expired' || code === 'not_found'
      ? 'expired'
      : code === 'conflict' || code === 'upstream_error'
        ? 'failed'
        : 'quoted';
}

const MONEY: readonly string[] = ['not_charged', 'refunded', 'refund_pending', 'unknown'];
const isMoney = (value: unknown): value is WidgetMoney => MONEY.includes(value as string);

/**
 * What became of the money of a failed order: the BFF's `money` (every failed `POST /orders` carries it), else
 * `unknown` after any failure that may have followed a charge, `not_charged` for a refusal before any payment step.
 */
function moneyOf(error: { code: string; status: number; fields: Readonly<Record<string, unknown>> }): WidgetMoney {
  const { money } = error.fields;
  if (isMoney(money)) return money;
  return OUTCOME_UNKNOWN.has(error.code) || error.status >= 500 || error.status === 409 || error.status === 422
    ? 'unknown'
    : 'not_charged';
}

/** The sentence saying what became of the money (one of the `money*` strings). */
function moneySentence(s: DkStrings, money: WidgetMoney): string {
  return money === 'not_charged'
    ? s.moneyNotCharged
    : money === 'refunded'
      ? s.moneyRefunded
      : money === 'refund_pending'
        ? s.moneyRefundPending
        : s.moneyUnknown;
}

/**
 * What a refused call says: a met limit (`rate_limited`, `busy`) with its `retry_after` says when to try again
 * (`rateLimitedFor`); anything else is the code's string (`errorMessage`).
 */
function refusal(error: NonNullable<PurchaseController['error']>, s: DkStrings): string {
  const wait = error.retryAfter;
  return (error.code === 'rate_limited' || error.code === 'busy') && wait
    ? s.rateLimitedFor(Math.max(1, Math.ceil(wait)))
    : errorMessage(error, s);
}

/** `value` isolated for bidi (FSI … PDI), for a domain, price or id placed inside a sentence. */
const iso = (value: string): string => `\u2068${value}\u2069`;

/**
 * `domain` as the visitor reads it: the BFF's `display_name` of it (an internationalised name in Unicode) from the
 * answer at hand, or the one the rows the visitor bought from gave; else `domain`, its ASCII form.
 */
const nameOf = (p: PurchaseController, domain: string, display?: string): string =>
  display || p.names?.[domain] || domain;

/**
 * The ASCII form of a name shown in Unicode, as a quiet line under it (registrars show both: a buyer may need the
 * form DNS settings and other registrars use); nothing when the name is shown in ASCII.
 */
function asciiLine({ html, nothing }: PurchaseController['lit'], name: string, domain: string) {
  return name === domain ? nothing : html`<p part="order-ascii" class="mute">${domain}</p>`;
}

/**
 * The visitor's whole message for a failed order: what happened, then what became of the money, said once.
 * `priceText` formats minor units for the element's locale.
 */
function failureMessage(
  p: PurchaseController,
  s: DkStrings,
  error: NonNullable<PurchaseController['error']>,
  priceText: (cents: number) => string,
): string {
  const code = error.code;
  const what =
    code === 'price_mismatch'
      ? s.priceChanged(iso(priceText(p.newPrice)))
      : code === 'quote_expired' || code === 'not_found'
        ? s.quoteExpired
        : code === 'payment_declined'
          ? s.paymentDeclined
          : code === 'payment_error'
            ? s.paymentUnconfirmed
            : code === 'network_error' || code === 'upstream_timeout' || code === 'invalid_response'
              ? s.orderInterrupted
              : code === 'conflict'
                ? s.orderSold(iso(nameOf(p, p.domain)))
                : code === 'upstream_error'
                  ? s.orderRefused
                  : refusal(error, s);
  return `${what} ${moneySentence(s, moneyOf(error))}`;
}

/** Records a failed order, enters `phase` and fires `dk-error` with the message the panel shows. */
function failOrder(p: PurchaseController, caught: unknown, phase: PurchasePhase): void {
  const error = toApiError(caught);
  p.error = error;
  lastMoney.set(p, moneyOf(error));
  p.set(phase);
  const s = { ...orderStrings, ...p.host.texts };
  const quote = p.quote!;
  const message = failureMessage(p, s, error, (cents) => formatPrice(cents, quote.currency, localeOf(p)));
  p.host.dispatchEvent(new DkErrorEvent({ code: error.code, message }));
}

/** The host's price locale, as it renders prices (its `locale`, else the nearest `lang`). */
function localeOf(p: PurchaseController): string | undefined {
  const host = p.host as unknown as HTMLElement & { locale?: string };
  return host.locale || host.closest?.('[lang]')?.getAttribute('lang') || undefined;
}

/**
 * Shows the visitor's order (placed now, or found in flight by a re-quote) and follows it with its token: fires
 * `dk-order-created`, polls its status, and ends the purchase attempt (the next purchase of the domain is a new one).
 */
function showOrder(p: PurchaseController, order: WidgetOrderResponse): DkOrderCreatedDetail {
  lastMoney.delete(p);
  p.order = order;
  p.orderToken = order.order_token;
  p.details = undefined;
  endAttempt(p.quote?.domain ?? order.domain);
  p.set('ordered');
  const detail = {
    orderId: order.order_id,
    status: order.status,
    domain: order.domain,
    salePriceCents: order.sale_price_cents,
    currency: order.currency,
  };
  p.host.dispatchEvent(new DkOrderCreatedEvent(detail));
  followed.delete(p);
  void follow(p);
  return detail;
}

/**
 * After `price_mismatch`: the visitor accepted the new price. Gets a fresh quote and, when it is at the price
 * the visitor accepted, places the order with the same buyer and payment; otherwise shows the newer price and
 * asks again.
 */
export async function confirmPrice(p: PurchaseController): Promise<void> {
  const accepted = p.newPrice;
  const details = p.details;
  await requestQuote(p);
  if (p.status !== 'quoted' || !details) return;
  if (p.quote!.price_cents === accepted) {
    await placeOrder(p, details);
  } else {
    p.newPrice = p.quote!.price_cents;
    p.set('mismatch');
  }
}

/** Asks the BFF for the placed order's current status (`GET /orders/:id` with its order token). */
export async function refresh(p: PurchaseController): Promise<void> {
  const order = p.order;
  // Without a token (an order learned from a conflict answer) there is nothing to follow it with.
  if (p.status !== 'ordered' || !order || !p.orderToken) return;
  try {
    const { status, money } = await getOrder(p.host.api, order.order_id, p.orderToken, {
      signal: p.start('ordered'),
    });
    p.order = { ...order, status, ...(isMoney(money) && { money }) };
    p.set('ordered');
  } catch (error) {
    // The placed order stays shown as it was; the next poll may succeed.
    if (!isAbortError(error)) p.set('ordered');
  }
}

/**
 * Follows the placed order through review, transfer and completion or refund by long poll (`GET /orders/:id/status`),
 * until it is final; each answer is shown and said in the live region. A version older than the one shown is never
 * applied. After {@link FOLLOW_FAILURES} failures in a row (a BFF without the route, the network) it falls back to
 * {@link POLLS} plain refreshes.
 */
async function follow(p: PurchaseController, failures = 0): Promise<void> {
  const order = p.order;
  if (p.status !== 'ordered' || !order || !p.orderToken) return;
  try {
    const after = followed.get(p);
    const track = await trackOrder(
      p.host.api,
      order.order_id,
      p.orderToken,
      { after, waitSeconds: FOLLOW_WAIT_SECONDS },
      { signal: p.start('ordered') },
    );
    if (p.order !== order) return;
    if (isNewer(after, track.version)) {
      followed.set(p, track.version);
      p.order = { ...order, status: track.status, ...(isMoney(track.money) && { money: track.money }) };
      p.set('ordered');
    }
    if (!track.final) void follow(p);
  } catch (error) {
    if (isAbortError(error)) return;
    p.set('ordered');
    if (failures + 1 < FOLLOW_FAILURES) p.wait(() => void follow(p, failures + 1), POLL_MS);
    else poll(p, POLLS);
  }
}

/** The price lock's last minute (ms): its countdown is shown prominently and announced once. */
const LAST_MINUTE_MS = 60_000;

/** Milliseconds left on the current quote's price lock. */
const remaining = (p: PurchaseController): number =>
  p.quote ? Date.parse(p.quote.expires_at) - p.host.clock.now() : 0;

/** While quoted: re-renders every second (the countdown) and expires the quote when its lock ends. */
function tick(p: PurchaseController): void {
  if (p.status !== 'quoted') return;
  p.countdown(Date.parse(p.quote!.expires_at), () => {
    // A failed attempt's error stays: the expiry message still says what became of its money.
    if (p.status === 'quoted') p.set('expired');
  });
}

/**
 * Refreshes the order status {@link POLL_MS} apart: `times` more times, or, while the order is `PROCESSING`, until
 * it is not (at most {@link PROCESSING_POLLS} in all).
 */
function poll(p: PurchaseController, times: number, done = 0): void {
  const processing = p.order?.status === 'PROCESSING' && done < PROCESSING_POLLS;
  if (times > 0 || processing) p.wait(() => void refresh(p).then(() => poll(p, times - 1, done + 1)), POLL_MS);
}

/** Order statuses of a purchase that ended without an order (the BFF's `GET /orders/:id`). */
const ENDED = ['REFUNDED', 'FAILED', 'CANCELLED'];

/**
 * Renders the placed order: thanks (a heading, where focus moves), the domain and the amount paid, what happens
 * now, and the order's reference; or, for a purchase that ended without an order, what became of the money.
 */
function renderPlaced(
  p: PurchaseController,
  s: DkStrings,
  order: WidgetOrderResponse | (WidgetOrderStatus & { order_token?: string }),
  price: string,
): TemplateResult {
  const { html } = p.lit;
  const name = nameOf(p, order.domain, order.display_name);
  const domain = iso(name);
  const ended = ENDED.includes(order.status);
  const money = (order as { money?: WidgetMoney }).money;
  const [heading, summary, next] = ended
    ? [s.orderFailed, moneySentence(s, money ?? (order.status === 'REFUNDED' ? 'refunded' : 'unknown')), '']
    : order.status === 'PROCESSING'
      ? [s.orderThanks, s.orderProcessing(domain, iso(price)), '']
      : [s.orderThanks, s.orderPaid(domain, iso(price)), s.orderNext(order.status, domain)];
  return html`
    <p id="order-title" part="order-heading" role="heading" aria-level="2" tabindex="-1"><strong>${heading}</strong></p>
    <p part="order-status" role="status">${summary}</p>
    ${asciiLine(p.lit, name, order.domain)}
    ${next ? html`<p part="order-next">${next}</p>` : p.lit.nothing}
    <p part="order-reference" class="mute">${s.orderReference(iso(order.order_id))}</p>
  `;
}

/**
 * Renders the order panel, or nothing when there is no quote. The panel has `tabindex="-1"` so the element
 * can move focus to it when a quote arrives. A failed order is said once, with what became of the money: in the
 * panel's message (price changed, lock expired, nothing left to retry) or its alert (the same quote may be paid).
 */
export function renderOrderPanel(
  p: PurchaseController,
  s: DkStrings,
  locale: string | undefined,
): TemplateResult | Nothing {
  const { status: phase, quote, order, error, newPrice } = p;
  const { html, spinner } = p.lit;
  const nothing: Nothing = p.lit.nothing;
  if (!quote) return nothing;
  const price = (cents: number): string => formatPrice(cents, quote.currency, locale);
  const name = nameOf(p, quote.domain, quote.display_name);
  const paying = phase === 'quoted' || phase === 'ordering';
  const pending = phase === 'pending'; // a fresh quote is on its way (after an expiry or a changed price)
  // A failed re-quote is said as it is; a failed order with what became of its money.
  const quoteFailure = error && quoteFailures.has(error) ? refusal(error, s) : '';
  const orderFailure = error && !quoteFailure ? failureMessage(p, s, error, price) : '';
  const money = lastMoney.get(p);
  const withMoney = (text: string): string => (money ? `${text} ${moneySentence(s, money)}` : text);
  // What to say, and the panel's main action if any.
  // A changed price heads the panel too: never the old one above "The price is now …".
  const changed = phase === 'mismatch' || (pending && newPrice > 0);
  // The quiet countdown's last minute: shown prominently, and announced once (the notice's words never tick).
  const left = remaining(p);
  const ending = paying && left <= LAST_MINUTE_MS;
  const [message, label, run]: [string, string?, (() => unknown)?] = changed
    ? [withMoney(s.priceChanged(iso(price(newPrice)))), s.confirmPrice(price(newPrice)), () => confirmPrice(p)]
    : phase === 'expired' || pending
      ? [withMoney(s.quoteExpired), s.newQuote, () => requestQuote(p)]
      : phase === 'failed'
        ? [orderFailure]
        : [phase === 'ordering' ? s.placingOrder : ''];
  const alert = paying && orderFailure ? orderFailure : quoteFailure;
  return html`
    <div part="order" class="box" role="group" aria-labelledby="order-title" tabindex="-1">
      ${
        phase === 'ordered' && order
          ? renderPlaced(p, s, order, formatPrice(order.sale_price_cents, order.currency, locale))
          : html`<p id="order-title" part="order-title" class="name">${s.quoteTitle(name, price(changed ? newPrice : quote.price_cents))}</p>
            ${asciiLine(p.lit, name, quote.domain)}
            <p part=${ending ? 'countdown countdown-ending' : 'countdown'} class=${ending ? 'alert' : 'mute'} ?hidden=${!paying}>${s.lockedFor(mmss(left))}</p>
            <p part="lock-notice" class="vh" role="status">${ending ? s.lockEnding : ''}</p>
            <p part="order-message" role="status" tabindex="-1">${message}</p>`
      }
      ${alert ? html`<p part="order-error" class="alert" role="alert" tabindex="-1">${alert}</p>` : nothing}
      <div part="payment" ?hidden=${!paying}><slot name="payment"></slot></div>
      <div class="row">
        ${
          label
            ? html`<button part="order-button" type="button" aria-disabled=${pending} @click=${() => pending || run!()}>
              ${pending ? spinner : nothing}${label}
            </button>`
            : nothing
        }
        <button part="cancel-button" class="quiet" type="button" ?hidden=${phase === 'ordering'} @click=${() => close(p)}>
          ${phase === 'ordered' || phase === 'failed' ? s.done : s.cancel}
        </button>
      </div>
    </div>
  `;
}

/** What the elements use once a quote was asked for (`PurchaseController.flow`). */
export const orderFlow = { renderOrderPanel, placeOrder, orderStrings };
