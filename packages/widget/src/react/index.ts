'use client';

/**
 * `@domainkit/widget/react`: `<dk-domain-search>`, `<dk-buy-button>` and `<dk-checkout-return>` as React components, generated with
 * `@lit/react`. Properties are passed as properties (objects such as `strings` or `clock` included) and every
 * `dk-*` event is a typed camel-case prop: `onDkSelect`, `onDkResults`, `onDkError`…
 *
 * ```tsx
 * import { DomainSearch, BuyButton } from '@domainkit/widget/react';
 *
 * <DomainSearch api="/dk" onDkSelect={(event) => console.log(event.detail.domain)} />
 * <BuyButton api="/dk" domain="coffeehouse.com" onDkCheckoutStart={(event) => event.detail.checkoutUrl} />
 * ```
 *
 * Importing this module defines the three elements. React 19 (or 18) is a peer dependency. The raw tags keep their
 * JSX typings too (`ondk-select`…, see `../jsx/react.ts`).
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { DkBuyButton } from '../buy-button/buy-button.ts';
import { DkCheckoutReturn } from '../checkout-return/checkout-return.ts';
import { DkDomainSearch } from '../domain-search/domain-search.ts';
import type { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import type { DkErrorEvent } from '../events/dk-error.ts';
import type { DkOrderCreatedEvent } from '../events/dk-order-created.ts';
import type { DkQuoteEvent } from '../events/dk-quote.ts';
import type { DkResultsEvent } from '../events/dk-results.ts';
import type { DkSearchEvent } from '../events/dk-search.ts';
import type { DkSelectEvent } from '../events/dk-select.ts';

/** The `dk-*` events every element fires in a purchase, as React props. */
const purchaseEvents = {
  onDkCheckoutStart: 'dk-checkout-start' as EventName<DkCheckoutStartEvent>,
  onDkQuote: 'dk-quote' as EventName<DkQuoteEvent>,
  onDkOrderCreated: 'dk-order-created' as EventName<DkOrderCreatedEvent>,
  onDkError: 'dk-error' as EventName<DkErrorEvent>,
};

/** `<dk-domain-search>` as a React component: its properties, and `onDkSearch`, `onDkResults`, `onDkSelect` plus the purchase events. */
export const DomainSearch = createComponent({
  tagName: 'dk-domain-search',
  elementClass: DkDomainSearch,
  react: React,
  events: {
    onDkSearch: 'dk-search' as EventName<DkSearchEvent>,
    onDkResults: 'dk-results' as EventName<DkResultsEvent>,
    onDkSelect: 'dk-select' as EventName<DkSelectEvent>,
    ...purchaseEvents,
  },
  displayName: 'DomainSearch',
});

/** `<dk-buy-button>` as a React component: its properties and the purchase events (`onDkCheckoutStart`…). */
export const BuyButton = createComponent({
  tagName: 'dk-buy-button',
  elementClass: DkBuyButton,
  react: React,
  events: purchaseEvents,
  displayName: 'BuyButton',
});

/**
 * `<dk-checkout-return>` as a React component: on the page the hosted checkout returns to, confirms the sale once the
 * BFF verified it, or says the checkout was cancelled (`<CheckoutReturn api="/dk" />`).
 */
export const CheckoutReturn = createComponent({
  tagName: 'dk-checkout-return',
  elementClass: DkCheckoutReturn,
  react: React,
  displayName: 'CheckoutReturn',
});

/** Props of {@link DomainSearch}. */
export type DomainSearchProps = React.ComponentProps<typeof DomainSearch>;
/** Props of {@link BuyButton}. */
export type BuyButtonProps = React.ComponentProps<typeof BuyButton>;
/** Props of {@link CheckoutReturn}. */
export type CheckoutReturnProps = React.ComponentProps<typeof CheckoutReturn>;

/** The raw tags' JSX typings (this re-export also brings their `JSX.IntrinsicElements` entries into the app). */
export type { DkBuyButtonTag, DkDomainSearchTag } from '../jsx/react.ts';
