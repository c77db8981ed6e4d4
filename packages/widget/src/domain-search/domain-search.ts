/** Defines `<dk-domain-search>` (the only side effect of this module). */
import { DkDomainSearch } from './domain-search.component.ts';

export { DkDomainSearch };
export type { DkMode } from './domain-search.component.ts';
export type { SearchStatus } from './search-controller.ts';
export default DkDomainSearch;

if (!customElements.get('dk-domain-search')) customElements.define('dk-domain-search', DkDomainSearch);

declare global {
  interface HTMLElementTagNameMap {
    'dk-domain-search': DkDomainSearch;
  }
}
