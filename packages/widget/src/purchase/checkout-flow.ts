/**
 * The hosted-checkout flow (non-MoR, Partner API spec 2.3), loaded on demand by {@link PurchaseController}: `POST
 * {api}/checkout`, the cancelable `dk-checkout-start`, then the host navigates to `checkout_url`. In the
 * script-tag build it is `domainkit-checkout.min.js`, beside `domainkit.min.js`.
 */
import type { TemplateResult } from 'lit';
import { createCheckoutSession, verifyCheckoutReturn } from '../api.ts';
import { formatPrice, isolate } from '../format.ts';
import type { DkReturnStringKey, DkStrings } from '../strings.ts';
import { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import { purchaseStrings } from './purchase-strings.ts';
import { readRefusal } from './refusal.ts';
import type { LitKit, PurchaseController } from './purchase-controller.ts';

/**
 * Creates the checkout session of `p.domain` and, unless `dk-checkout-start` is cancelled, sends the visitor
 * there. In the same tab the purchase stays `pending` while the page unloads, so a second click cannot start a
 * second session.
 *
 * @throws DkApiError when the session could not be created (the caller shows it): `domain_reserved` for a domain
 *   another buyer's price lock holds (see `refusal.ts`).
 */
export async function buy(p: PurchaseController, signal: AbortSignal): Promise<void> {
  const host = p.host;
  const domain = p.domain;
  p.words = purchaseStrings;
  const session = await createCheckoutSession(host.api, domain, { signal, back: back(host) }).catch(
    async (error: unknown) => {
      throw await readRefusal(host.api, domain, error, signal);
    },
  );
  if (signal.aborted) return;
  const { checkout_url: checkoutUrl, price_cents: priceCents, currency } = session;
  // The session's price, when the BFF gave it: a search row listing the domain shows it.
  const priced = priceCents == null ? {} : { priceCents, currency };
  const proceed = host.dispatchEvent(new DkCheckoutStartEvent({ domain, checkoutUrl, ...priced }));
  if (proceed) {
    if (host.navigate) host.navigate(checkoutUrl);
    else if (host.target === '_self') location.assign(checkoutUrl);
    else open(checkoutUrl, host.target, 'noopener');
  }
  if (!proceed || host.target !== '_self') p.set('idle');
}

/**
 * Where the hosted checkout sends the buyer back, from the host's `return-path` (after paying) and `cancel-path`
 * (after cancelling) attributes: a path on the page's site such as `/thanks`, or an absolute URL on it. Unset: the
 * BFF's configured `returnUrl` / `cancelUrl`. And the page's language (`locale`: the host's `locale`, else the
 * nearest `lang`), which the hosted checkout speaks; left out when it is not a language tag (BCP 47).
 */
function back(host: object): { return_url?: string; cancel_url?: string; locale?: string } {
  const el = host as Partial<Element> & { locale?: string };
  const read = (name: string): string | undefined => el.getAttribute?.(name)?.trim() || undefined;
  const returnUrl = read('return-path');
  const cancelUrl = read('cancel-path');
  const locale = el.locale || el.closest?.('[lang]')?.getAttribute('lang') || '';
  return {
    ...(returnUrl && { return_url: returnUrl }),
    ...(cancelUrl && { cancel_url: cancelUrl }),
    ...(/^[a-z]{2,8}(-[a-z\d]{1,8})*$/i.test(locale) && locale.length <= 35 && { locale }),
  };
}

/** The English defaults of `<dk-checkout-return>`'s strings (see `DkStrings`). */
export const returnStrings: Pick<DkStrings, DkReturnStringKey> = {
  checkoutChecking: 'Confirming your purchase…',
  checkoutConfirmed: (domain, price) =>
    `Thank you! ${domain} is yours: ${price} paid. Transfer instructions follow by email.`,
  checkoutUnconfirmed:
    'We could not confirm a purchase from this link. If you paid, your receipt email has the details.',
  checkoutCanceled: 'Checkout cancelled: nothing was charged.',
};

/**
 * What {@link confirmReturn} uses of `<dk-checkout-return>`, declared here so that the purchase flow never imports
 * the element's folder (the element loads this flow).
 */
export interface CheckoutReturnHost extends HTMLElement {
  readonly api: string;
  readonly locale: string;
  readonly strings: Partial<DkStrings>;
  view: ((kit: LitKit) => TemplateResult) | undefined;
  requestUpdate(): void;
  readonly updateComplete: Promise<boolean>;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/**
 * `<dk-checkout-return>`: reads the page's query and shows what it means, a sale only once the BFF verified it.
 * Moves focus to the message when it confirms a sale (the buyer's eyes go there).
 */
export async function confirmReturn(el: CheckoutReturnHost): Promise<void> {
  const query = new URLSearchParams(location.search);
  // The words are read at each render: strings set after the check (a language set that loads later) still apply.
  type Words = typeof returnStrings;
  const show = (state: string, message: (s: Words) => string): void => {
    el.dataset.state = state;
    el.view = ({ html }) =>
      html`<p part="message" class="box" role="status" tabindex="-1">${message({ ...returnStrings, ...el.strings })}</p>`;
    el.requestUpdate();
  };
  if (query.get('status') === 'canceled') return show('canceled', (s) => s.checkoutCanceled);
  if (!query.has('sig')) return;
  show('checking', (s) => s.checkoutChecking);
  try {
    const sale = await verifyCheckoutReturn(el.api, location.search);
    const locale = el.locale || el.closest('[lang]')?.getAttribute('lang') || undefined;
    const domain = isolate(sale.display_name || sale.domain);
    const price = isolate(formatPrice(sale.price_cents, sale.currency, locale));
    show('confirmed', (s) => s.checkoutConfirmed(domain, price));
    await el.updateComplete;
    el.renderRoot.querySelector<HTMLElement>('[part="message"]')?.focus();
  } catch {
    show('unconfirmed', (s) => s.checkoutUnconfirmed);
  }
}
