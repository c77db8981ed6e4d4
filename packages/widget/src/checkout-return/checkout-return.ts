/** Defines `<dk-checkout-return>` (the only side effect of this module). */
import { DkCheckoutReturn } from './checkout-return.component.ts';

export { DkCheckoutReturn };
export default DkCheckoutReturn;

if (!customElements.get('dk-checkout-return')) customElements.define('dk-checkout-return', DkCheckoutReturn);

declare global {
  interface HTMLElementTagNameMap {
    'dk-checkout-return': DkCheckoutReturn;
  }
}
