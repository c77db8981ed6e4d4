/** Defines `<dk-buy-button>` (the only side effect of this module). */
import { DkBuyButton } from './buy-button.component.ts';

export { DkBuyButton };
export type { DkBuyMode } from './buy-button.component.ts';
export default DkBuyButton;

if (!customElements.get('dk-buy-button')) customElements.define('dk-buy-button', DkBuyButton);

declare global {
  interface HTMLElementTagNameMap {
    'dk-buy-button': DkBuyButton;
  }
}
