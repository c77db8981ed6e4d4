import type { TemplateResult } from 'lit';
import { DkElement } from '../element.ts';
import { loadCheckoutFlow, type LitKit } from '../purchase/purchase-controller.ts';
import { shared } from '../styles.ts';

/**
 * The partner page's answer to a buyer back from the hosted checkout. On a page the checkout returns to, it
 * reads the page's query: after a payment the marketplace's signed result, which it asks the BFF to verify
 * (`GET {api}/checkout/return?…`), then says thank you with the domain and the amount; after a cancelled checkout
 * it says nothing was charged. A result the BFF cannot verify (a URL edited or made up) is never confirmed.
 * Without a checkout result in the query it shows nothing.
 *
 * Its state is the host's `data-state` (absent until there is a result): `checking`, `confirmed`, `unconfirmed` or `canceled`.
 *
 * @summary Confirms a hosted-checkout sale on the partner's return page, once the partner's BFF verified it.
 *
 * @csspart message - The confirmation (role `status`), or why nothing is confirmed.
 */
export class DkCheckoutReturn extends DkElement {
  static override styles = shared;

  /** What to render, set by the checkout flow once it knows (internal). */
  declare view: ((kit: LitKit) => TemplateResult) | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    // A failed load leaves nothing shown: the page is as it was.
    void loadCheckoutFlow().then((flow) => flow.confirmReturn(this), Object);
  }

  override render(): TemplateResult | undefined {
    return this.view?.(this.purchase.lit);
  }
}
