/**
 * The order panel of MoR order mode, rendered by both elements from their {@link PurchaseController}: the
 * locked price with its countdown, the partner's `payment` slot, then the order's status; plus what to do
 * when the quote expired, the price changed or a call failed.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { mmss } from '../clock.ts';
import { formatPrice } from '../format.ts';
import { errorMessage, type DkStrings } from '../strings.ts';
import type { PurchaseController } from './purchase-controller.ts';

/** A spinner for busy buttons (decorative). */
export const spinner = html`<span part="spinner" class="spin" aria-hidden="true"></span>`;

/**
 * Renders the order panel, or nothing when there is no quote. `id` prefixes the panel's element ids.
 * The panel has `tabindex="-1"` so the element can move focus to it when a quote arrives.
 */
export function renderOrderPanel(
  p: PurchaseController,
  s: DkStrings,
  locale: string | undefined,
): TemplateResult | typeof nothing {
  const { status: phase, quote, order, error, newPrice } = p;
  if (!quote) return nothing;
  const price = (cents: number): string => formatPrice(cents, quote.currency, locale);
  const paying = phase === 'quoted' || phase === 'ordering';
  const pending = phase === 'pending'; // a fresh quote is on its way (after an expiry or a changed price)
  // What to say, and the panel's main action if any.
  const [message, label, run]: [string, string?, (() => unknown)?] =
    phase === 'ordered'
      ? [
          s.orderPlaced(order!.order_id, order!.domain, s.orderStatus(order!.status)),
          s.refreshStatus,
          () => p.refresh(),
        ]
      : phase === 'mismatch' || (pending && newPrice)
        ? [s.priceChanged(price(newPrice)), s.confirmPrice(price(newPrice)), () => p.confirmPrice()]
        : phase === 'expired' || pending
          ? [s.quoteExpired, s.newQuote, () => p.requestQuote()]
          : [phase === 'ordering' ? s.placingOrder : ''];
  return html`
    <div part="order" class="box" role="group" aria-labelledby="order-title" tabindex="-1">
      <p id="order-title" part="order-title" class="name">${s.quoteTitle(quote.domain, price(quote.price_cents))}</p>
      <p part="countdown" class="mute" ?hidden=${!paying}>${s.lockedFor(mmss(p.remaining()))}</p>
      <p part=${phase === 'ordered' ? 'order-status' : 'order-message'} role="status">${message}</p>
      ${error ? html`<p part="order-error" class="alert" role="alert">${errorMessage(error, s)}</p>` : nothing}
      <div part="payment" ?hidden=${!paying}><slot name="payment"></slot></div>
      <div class="row">
        ${
          label
            ? html`<button part="order-button" type="button" aria-disabled=${pending} @click=${() => pending || run!()}>
              ${pending ? spinner : nothing}${label}
            </button>`
            : nothing
        }
        <button part="cancel-button" class="quiet" type="button" ?hidden=${phase === 'ordering'} @click=${() => p.cancel()}>
          ${phase === 'ordered' ? s.done : s.cancel}
        </button>
      </div>
    </div>
  `;
}
