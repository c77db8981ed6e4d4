/**
 * The attributes and events of each element as framework typings need them (React 19, Vue). Types only.
 */
import type { DkBuyButton } from '../buy-button/buy-button.component.ts';
import type { DkDomainSearch } from '../domain-search/domain-search.component.ts';
import type { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import type { DkErrorEvent } from '../events/dk-error.ts';
import type { DkOrderCreatedEvent } from '../events/dk-order-created.ts';
import type { DkQuoteEvent } from '../events/dk-quote.ts';
import type { DkResultsEvent } from '../events/dk-results.ts';
import type { DkSearchEvent } from '../events/dk-search.ts';
import type { DkSelectEvent } from '../events/dk-select.ts';

/** What both elements take. */
type Common = 'api' | 'mode' | 'target' | 'locale' | 'size' | 'theme' | 'strings' | 'clock' | 'navigate';

/**
 * Attributes of both elements with no property: where the hosted checkout sends the buyer after paying
 * (`return-path`) and after cancelling (`cancel-path`), a path on the site such as `/thanks` or a URL on it.
 */
export interface DkReturnAttributes {
  'return-path'?: string;
  'cancel-path'?: string;
}

/** Properties (also settable as attributes where they are strings or numbers) of `<dk-domain-search>`. */
export type DkDomainSearchProps = Partial<
  Pick<DkDomainSearch, Common | 'label' | 'placeholder' | 'debounce' | 'minLength'>
> &
  DkReturnAttributes & {
    'min-length'?: number | string;
  };

/** Properties of `<dk-buy-button>`. */
export type DkBuyButtonProps = Partial<Pick<DkBuyButton, Common | 'domain' | 'label'>> & DkReturnAttributes;

/** Events every element fires in a purchase. */
export interface DkPurchaseEvents {
  'dk-checkout-start': DkCheckoutStartEvent;
  'dk-quote': DkQuoteEvent;
  'dk-order-created': DkOrderCreatedEvent;
  'dk-error': DkErrorEvent;
}

/** Events of `<dk-domain-search>`. */
export interface DkDomainSearchEvents extends DkPurchaseEvents {
  'dk-search': DkSearchEvent;
  'dk-results': DkResultsEvent;
  'dk-select': DkSelectEvent;
}

/** Events of `<dk-buy-button>`. */
export type DkBuyButtonEvents = DkPurchaseEvents;
