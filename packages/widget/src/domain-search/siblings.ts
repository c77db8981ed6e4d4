/**
 * What `<dk-domain-search>` says beyond its results, loaded on first use (and prefetched when the browser is idle) so a
 * search for a bare word never downloads it, in the script-tag build its own file (`domainkit-siblings.min.js`,
 * beside `domainkit.min.js`); like the order flow, it gets Lit from its host:
 *
 * - **the verdict** on a whole domain the visitor typed (`live-site.com`), above the results: buy it now (it is among
 *   them, listed first), taken (the Public API's search says it is registered; on demand, "Who holds it?" asks the
 *   BFF's `GET {api}/whois?domain=` for its registrar and registration date), nobody registered it, or simply not
 *   listed here; with the `offer` slot and, when the page defined it, `<dk-broker-button>` for a name not for sale;
 * - **the "Also available" list** (`siblings` attribute): the query's word under other TLDs, from the BFF's
 *   `GET {api}/siblings?q=`, each row with its Buy (a marketplace listing) or where it can be had instead (a name
 *   nobody registered: at any registrar; no price, since this shop cannot sell it).
 */
import type { TemplateResult } from 'lit';
import { fetchSiblings, fetchWhois, toApiError } from '../api.ts';
import { DkSelectEvent } from '../events/dk-select.ts';
import { formatPrice, isolate } from '../format.ts';
import type { LitKit, PurchaseController } from '../purchase/purchase-controller.ts';
import { purchaseStrings } from '../purchase/purchase-strings.ts';
import { errorMessage, type DkSiblingStringKey, type DkStrings } from '../strings.ts';
import type { WidgetDomain, SiblingsAnswer, WhoisAnswer } from '../types.ts';

/** The English defaults of the verdict's and the siblings list's strings (see `DkStrings`). */
export const siblingStrings: Pick<DkStrings, DkSiblingStringKey> = {
  siblingsTitle: 'Also available',
  siblingRegistration: 'Not registered yet: any registrar can register it',
  siblingListing: 'Marketplace listing',
  verdictListed: (domain) => `${domain} is for sale here: buy it now.`,
  verdictForSale: (domain) => `${domain} is for sale.`,
  verdictTaken: (domain) => `${domain} is taken: someone has registered it, and it is not for sale here.`,
  verdictUnregistered: (domain) =>
    `Nobody has registered ${domain} yet. This shop cannot sell it: any domain registrar can register it for you.`,
  verdictUnlisted: (domain) => `${domain} is not listed here.`,
  verdictAlternatives: 'These names can be bought now:',
  verdictSimilar: 'Names like it:',
  whoisButton: 'Who holds it?',
  whoisLoading: 'Looking it up…',
  whoisHeld: (registrar, date) =>
    date ? `Registered with ${registrar} since ${date}.` : `Registered with ${registrar}.`,
  whoisPrivate: 'Its public record does not name the registrar.',
};

/** What the module reads of its host, `<dk-domain-search>` (its protected purchase and price locale included). */
export interface ExtrasHost extends HTMLElement {
  readonly api: string;
  readonly siblings: boolean;
  /** Its strings in use (without this module's defaults, see {@link words}). */
  readonly texts: DkStrings;
  readonly purchase: PurchaseController;
  readonly priceLocale: string | undefined;
  requestUpdate(): void;
}

/** What the module reads of the search: the query, its results, and the siblings answer once it arrived. */
export interface ExtrasSearch {
  /** While a newer query loads, the verdict waits for its answer (never a stale one). */
  readonly status: string;
  readonly query: string;
  readonly results: readonly WidgetDomain[];
  readonly found?: SiblingsAnswer | undefined;
}

/** `query` trimmed, lowercased and without `www.`: a whole domain name as typed. */
const asTyped = (query: string): string =>
  query
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');

/**
 * The whole domain name a query names, in the ASCII form the BFF and the marketplace use (`" WWW.Live-Site.com "` →
 * `live-site.com`; `münchen.de` → `xn--mnchen-3ya.de`, IDNA UTS #46 by the browser's URL parser), or `undefined` for
 * a word, a phrase or a name with more than one dot: only such a name gets a verdict of its own.
 */
export function typedDomain(query: string): string | undefined {
  const name = asTyped(query);
  if (!/^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.[\p{L}]{2,}$/u.test(name)) return undefined;
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return name;
  }
}

/**
 * The BFF's name of `domain` as a person reads it (`display_name`, see `WidgetDomain`), remembered for the purchase's
 * messages; `''` when it gave none.
 */
function shown(host: ExtrasHost, domain: string, display: string | undefined): string {
  if (display && host.purchase.names?.[domain] !== display)
    host.purchase.names = { ...host.purchase.names, [domain]: display };
  return display || '';
}

/**
 * Lists the result whose domain is the one typed first (registrars show the exact name before partial matches);
 * the same array when there is none or it already is first.
 */
export function exactFirst(results: readonly WidgetDomain[], query: string): readonly WidgetDomain[] {
  const exact = typedDomain(query);
  const i = results.findIndex((r) => r.domain === exact);
  return i > 0 ? [results[i]!, ...results.slice(0, i), ...results.slice(i + 1)] : results;
}

/**
 * The siblings of `query` that are not among `results`, and the typed domain's standing (`GET {api}/siblings?q=`).
 *
 * @throws DkApiError (a BFF with siblings turned off answers 404); DOMException `AbortError` when `signal` aborts.
 */
export async function loadSiblings(
  api: string,
  query: string,
  results: readonly WidgetDomain[],
  signal: AbortSignal,
): Promise<SiblingsAnswer> {
  const found = await fetchSiblings(api, query, { signal });
  const shown = new Set(results.map((result) => result.domain));
  return { ...found, siblings: found.siblings.filter((sibling) => !shown.has(sibling.domain)) };
}

/** A WHOIS lookup asked for with "Who holds it?": in flight, answered, or failed (with what to say). */
type Lookup = { readonly state: 'loading' } | { readonly state: 'done'; readonly text: string };

/**
 * The host's strings, with this module's English defaults under them, and those of a refused purchase: a met limit
 * on "Who holds it?" says when to ask again (`rateLimitedFor`; the search's `busy` would promise a retry).
 */
const words = (host: ExtrasHost): DkStrings => ({ ...purchaseStrings, ...siblingStrings, ...host.texts });

/** The lookups of each element, by domain (kept while the page lives; the BFF caches the answers too). */
const lookups = new WeakMap<ExtrasHost, Map<string, Lookup>>();

/** The sentence a WHOIS answer gives the visitor (the date in the page's language). */
function heldBy(answer: WhoisAnswer, s: DkStrings, locale: string | undefined): string {
  if (!answer.registrar) return s.whoisPrivate;
  const when = answer.registered_at ? new Date(answer.registered_at) : undefined;
  const date =
    when && !Number.isNaN(when.getTime())
      ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(when)
      : '';
  return s.whoisHeld(isolate(answer.registrar), date && isolate(date));
}

/** "Who holds it?": asks the BFF once per domain, then says the answer (or why it could not) in the verdict. */
async function lookUp(host: ExtrasHost, domain: string): Promise<void> {
  const mine = lookups.get(host) ?? new Map<string, Lookup>();
  lookups.set(host, mine);
  if (mine.get(domain)?.state === 'loading') return;
  mine.set(domain, { state: 'loading' });
  host.requestUpdate();
  let text: string;
  try {
    text = heldBy(await fetchWhois(host.api, domain), words(host), host.priceLocale);
  } catch (caught) {
    text = errorMessage(toApiError(caught), words(host));
    // A failed lookup may be asked again (the button comes back).
    mine.delete(domain);
    host.requestUpdate();
    failed.set(host, text);
    return;
  }
  failed.delete(host);
  mine.set(domain, { state: 'done', text });
  host.requestUpdate();
  // The button is gone: focus moves to the answer that replaced it (it is announced too).
  await (host as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  host.shadowRoot?.querySelector<HTMLElement>('[part~="whois"]')?.focus();
}

/** The last failed lookup's message, by element (shown beside the button, which stays to try again). */
const failed = new WeakMap<ExtrasHost, string>();

/** Fires `dk-select` for `domain` on `host` and, unless cancelled, buys it (a listed name the results did not show). */
function buy(host: ExtrasHost, domain: string): void {
  const display = host.purchase.names?.[domain];
  const result: WidgetDomain = {
    domain,
    ...(display && { display_name: display }),
    available: true,
    price_cents: null,
    currency: null,
  };
  if (host.dispatchEvent(new DkSelectEvent({ domain, result }))) void host.purchase.buy(domain);
}

/**
 * A Buy button for a name the verdict or the siblings list offers (the purchase's busy state shown on it); `name` is
 * the domain as the visitor reads it.
 */
function buyButton(
  { html, nothing, spinner }: LitKit,
  host: ExtrasHost,
  domain: string,
  name: string,
  part: string,
): TemplateResult {
  const s = words(host);
  const p = host.purchase;
  return html`<button part=${part} type="button" aria-label=${s.buyDomain(name)} aria-disabled=${p.busy} @click=${() => p.busy || buy(host, domain)}>
    ${p.busy && p.domain === domain ? spinner : nothing}${s.buy}
  </button>`;
}

/**
 * The verdict on the whole domain typed, shown above the results (`part="verdict"`, with `data-verdict`: `listed`,
 * `for-sale`, `taken`, `unregistered` or `unlisted`), or nothing when the query is not a whole domain. Its sentence
 * is a polite live region, so it is announced when it appears or changes.
 */
export function renderVerdict(host: ExtrasHost, search: ExtrasSearch): TemplateResult | undefined {
  const domain = typedDomain(search.query);
  if (!domain || search.status === 'loading') return undefined;
  const lit = host.purchase.lit;
  const { html, nothing } = lit;
  const s = words(host);
  const row = search.results.find((r) => r.domain === domain);
  const exact = search.found?.domain?.domain === domain ? search.found.domain : undefined;
  const standing = exact?.status;
  // Among the shop's results and buyable: listed (its row is first, with its Buy). Among them but not buyable (sold,
  // reserved): taken. Otherwise the Public API's word: registered, for sale, nobody's; without it, not listed here.
  const verdict = row
    ? row.available
      ? 'listed'
      : 'taken'
    : standing === 'registered'
      ? 'taken'
      : standing === 'for_sale'
        ? 'for-sale'
        : standing === 'available'
          ? 'unregistered'
          : 'unlisted';
  // The name in Unicode when the BFF says so; else as the visitor typed it (their own words, never the shop's).
  const shownName = shown(host, domain, row?.display_name || exact?.display_name) || asTyped(search.query);
  const name = isolate(shownName);
  const text =
    verdict === 'listed'
      ? s.verdictListed(name)
      : verdict === 'taken'
        ? s.verdictTaken(name)
        : verdict === 'for-sale'
          ? s.verdictForSale(name)
          : verdict === 'unregistered'
            ? s.verdictUnregistered(name)
            : s.verdictUnlisted(name);
  const lookup = lookups.get(host)?.get(domain);
  const problem = lookup ? '' : (failed.get(host) ?? '');
  // Offers for a name that cannot be bought here: the partner's own (`offer` slot), and the brokers' when the page
  // defined `<dk-broker-button>` (it checks the name's eligibility itself and says when it cannot help), for a name
  // someone may hold: nobody holds one any registrar can register.
  const notForSale = verdict !== 'listed' && verdict !== 'for-sale';
  // The line above the results claims only what holds: every row can be bought, or merely that they are alike.
  const buyable = search.results.filter((r) => r.available).length;
  const alternatives = notForSale && buyable > 0;
  const lead = buyable === search.results.length ? s.verdictAlternatives : s.verdictSimilar;
  return html`
    <div part="verdict" class="box" data-verdict=${verdict} data-domain=${domain}>
      <p part="verdict-text" role="status">${text}</p>
      ${verdict === 'for-sale' ? buyButton(lit, host, domain, shownName, 'verdict-buy buy-button') : nothing}
      ${
        verdict === 'taken'
          ? lookup?.state === 'done'
            ? html`<p part="whois" tabindex="-1" role="status">${lookup.text}</p>`
            : html`<p class="row"><button part="whois-button" class="quiet" type="button" aria-disabled=${lookup?.state === 'loading'} @click=${() => void lookUp(host, domain)}>${lookup ? s.whoisLoading : s.whoisButton}</button>${problem ? html`<span part="whois-error" class="alert" role="status">${problem}</span>` : nothing}</p>`
          : nothing
      }
      ${notForSale ? html`<div part="offer"><slot name="offer"></slot>${verdict !== 'unregistered' && customElements.get('dk-broker-button') ? html`<dk-broker-button part="broker" api=${host.api} domain=${domain}></dk-broker-button>` : nothing}</div>` : nothing}
      ${alternatives ? html`<p part="verdict-alternatives" class="mute">${lead}</p>` : nothing}
    </div>
  `;
}

/**
 * Renders the "Also available" section (with the host's `siblings` on, once they arrived): a title naming a list of
 * names, each with its action: a marketplace listing its Buy, a name nobody registered where it can be had instead
 * (no price: this shop cannot sell it). Nothing when there are none.
 */
export function renderSiblings(host: ExtrasHost, search: ExtrasSearch): TemplateResult | undefined {
  const siblings = host.siblings ? (search.found?.siblings ?? []) : [];
  if (!siblings.length) return undefined;
  const lit = host.purchase.lit;
  const { html, nothing } = lit;
  const s = words(host);
  return html`
    <div part="siblings" class="box">
      <p part="siblings-title" id="siblings" class="mute">${s.siblingsTitle}</p>
      <ul aria-labelledby="siblings">
        ${siblings.map(({ domain, display_name: display, kind, price_cents: cents, currency }) => {
          const listing = kind === 'listing';
          const name = shown(host, domain, display) || domain;
          return html`
            <li part="sibling" class="row" data-domain=${domain} data-kind=${kind}>
              <bdi part="sibling-name" class="name" title=${name === domain ? nothing : domain}>${name}</bdi>
              <span part="sibling-status" class="badge">${listing ? s.siblingListing : s.siblingRegistration}</span>
              ${
                // The price and its Buy wrap as one, as in the rows of the results.
                listing
                  ? html`<span class="deal">${cents !== null && currency !== null ? html`<bdi part="sibling-price" class="price">${formatPrice(cents, currency, host.priceLocale)}</bdi>` : nothing}${buyButton(lit, host, domain, name, 'sibling-buy buy-button')}</span>`
                  : nothing
              }
            </li>
          `;
        })}
      </ul>
    </div>
  `;
}
