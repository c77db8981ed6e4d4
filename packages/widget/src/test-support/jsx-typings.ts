/**
 * Compile-time tests of the React and Vue typings (checked by `pnpm typecheck`; nothing runs): what an app
 * may write type-checks, and mistakes are rejected.
 */
import type { JSX } from 'react';
import type { GlobalComponents } from 'vue';
import type {} from '../jsx/react.ts';
import type {} from '../jsx/vue.ts';

type SearchTag = JSX.IntrinsicElements['dk-domain-search'];
type ButtonTag = JSX.IntrinsicElements['dk-buy-button'];

export const search: SearchTag = {
  api: '/dk',
  mode: 'order',
  size: 'large',
  theme: 'dark',
  'min-length': 3,
  className: 'hero-search',
  'ondk-select': (event) => event.detail.result.price_cents,
  'ondk-quote': (event) => event.detail.expiresAt,
  'ondk-order-created': (event) => event.detail.orderId,
};
export const button: ButtonTag = {
  domain: 'coffeehouse.com',
  target: '_blank',
  'return-path': '/thanks',
  'cancel-path': '/cart',
  'ondk-checkout-start': (event) => event.detail.checkoutUrl,
};

// @ts-expect-error: a return path is a string
export const badReturn: ButtonTag = { 'return-path': 42 };
// @ts-expect-error: mode is 'checkout' or 'order'
export const badMode: SearchTag = { mode: 'mor' };
// @ts-expect-error: a dk-quote detail has no checkoutUrl
export const badEvent: ButtonTag = { 'ondk-quote': (event) => event.detail.checkoutUrl };
// @ts-expect-error: <dk-search> is no element of ours
export const unknownTag: JSX.IntrinsicElements['dk-search'] = {};

type VueSearch = InstanceType<GlobalComponents['dk-domain-search']>;
export const vueProps: VueSearch['$props'] = { api: '/dk', mode: 'checkout', debounce: 100 };
// @ts-expect-error: size is small, medium or large
export const vueBad: VueSearch['$props'] = { size: 'huge' };
