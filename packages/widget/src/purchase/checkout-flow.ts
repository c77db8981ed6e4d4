/**
 * The hosted-checkout flow (non-MoR, spec 2.3), loaded on demand by {@link PurchaseController}: `POST
 * {api}/checkout`, the cancelable `dk-checkout-start`, then the host navigates to `checkout_url`. In the
 * script-tag build it is `domainkit-checkout.min.js`, beside `domainkit.min.js`.
 */
import { createCheckoutSession } from '../api.ts';
import { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import type { PurchaseController } from './purchase-controller.ts';

/**
 * Creates the checkout session of `p.domain` and, unless `dk-checkout-start` is cancelled, sends the visitor
 * there. In the same tab the purchase stays `pending` while the page unloads, so a second click cannot start a
 * second session.
 *
 * @throws DkApiError when the session could not be created (the caller shows it).
 */
export async function buy(p: PurchaseController, signal: AbortSignal): Promise<void> {
  const host = p.host;
  const domain = p.domain;
  const { checkout_url: checkoutUrl } = await createCheckoutSession(host.api, domain, { signal });
  if (signal.aborted) return;
  const proceed = host.dispatchEvent(new DkCheckoutStartEvent({ domain, checkoutUrl }));
  if (proceed) {
    p.navigated = true;
    if (host.navigate) host.navigate(checkoutUrl);
    else if (host.target === '_self') location.assign(checkoutUrl);
    else open(checkoutUrl, host.target, 'noopener');
  }
  if (!proceed || host.target !== '_self') p.set('idle');
}
