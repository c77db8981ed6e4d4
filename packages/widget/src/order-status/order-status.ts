/** Defines `<dk-order-status>` (the only side effect of this module). */
import { DkOrderStatus } from './order-status.component.ts';

export { DkOrderStatus };
export type { DkOrderStatusStrings } from './order-status.component.ts';
export default DkOrderStatus;

if (!customElements.get('dk-order-status')) customElements.define('dk-order-status', DkOrderStatus);

declare global {
  interface HTMLElementTagNameMap {
    'dk-order-status': DkOrderStatus;
  }
}
