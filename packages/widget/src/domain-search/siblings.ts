/**
 * The "Also available" list of `<dk-domain-search siblings>`: the query's word under other TLDs, from the BFF's
 * `GET {api}/siblings?q=`, loaded on first use (and prefetched when the browser is idle) so pages without the
 * `siblings` attribute never download it. In the script-tag build this module is its own file
 * (`domainkit-siblings.min.js`, beside `domainkit.min.js`); like the order flow, it gets Lit from its host.
 */
import type { TemplateResult } from 'lit';
import { fetchSiblings } from '../api.ts';
import { formatPrice } from '../format.ts';
import type { LitKit } from '../purchase/purchase-controller.ts';
import type { DkSiblingStringKey, DkStrings } from '../strings.ts';
import type { WidgetDomain, Sibling } from '../types.ts';

/** The English defaults of the siblings list's strings (see `DkStrings`). */
export const siblingStrings: Pick<DkStrings, DkSiblingStringKey> = {
  siblingsTitle: 'Also available',
  siblingRegistration: 'New registration',
  siblingListing: 'Marketplace listing',
};

/**
 * The siblings of `query` that are not among `results` (`GET {api}/siblings?q=`).
 *
 * @throws DkApiError (a BFF with siblings turned off answers 404); DOMException `AbortError` when `signal` aborts.
 */
export async function loadSiblings(
  api: string,
  query: string,
  results: readonly WidgetDomain[],
  signal: AbortSignal,
): Promise<Sibling[]> {
  const found = await fetchSiblings(api, query, { signal });
  const shown = new Set(results.map((result) => result.domain));
  return found.filter((sibling) => !shown.has(sibling.domain));
}

/** Renders the "Also available" section: a title naming a list of names, with how each is bought and its price. */
export function renderSiblings(
  { html, nothing }: LitKit,
  siblings: readonly Sibling[],
  strings: Partial<DkStrings>,
  locale: string | undefined,
): TemplateResult {
  const s = { ...siblingStrings, ...strings };
  return html`
    <div part="siblings" class="box">
      <p part="siblings-title" id="siblings" class="mute">${s.siblingsTitle}</p>
      <ul aria-labelledby="siblings">
        ${siblings.map(
          ({ domain, kind, price_cents: cents, currency }) => html`
            <li part="sibling" class="row" data-domain=${domain} data-kind=${kind}>
              <bdi part="sibling-name" class="name">${domain}</bdi>
              <span part="sibling-status" class="badge">${kind === 'listing' ? s.siblingListing : s.siblingRegistration}</span>
              ${cents !== null && currency !== null ? html`<bdi part="sibling-price" class="price">${formatPrice(cents, currency, locale)}</bdi>` : nothing}
            </li>
          `,
        )}
      </ul>
    </div>
  `;
}
