/**
 * Template typings for Vue 3 (Volar / vue-tsc): `<dk-domain-search>` and `<dk-buy-button>` as global
 * components with their properties and `dk-*` events (`@dk-select="…"`), after the custom-element typing
 * recipe of Vue's documentation. Opt in once from any file of the app:
 *
 * ```ts
 * import type {} from '@domainkit/widget/vue';
 * ```
 * Tell Vue's compiler the tags are custom elements with the preset of `@domainkit/widget/vue` (`compilerOptions`).
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { DkBuyButton } from '../buy-button/buy-button.component.ts';
import type { DkDomainSearch } from '../domain-search/domain-search.component.ts';
import type {
  DkBuyButtonEvents,
  DkBuyButtonProps,
  DkDomainSearchEvents,
  DkDomainSearchProps,
} from './element-types.ts';

/** A custom element as a Vue component type: its props, and its events as emits. */
type DefineCustomElement<E extends HTMLElement, Props, Events> = new () => E & {
  $props: HTMLAttributes & Props & PublicProps;
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

/** `<dk-domain-search>` as Vue's template type-checker sees it. */
export type DkDomainSearchComponent = DefineCustomElement<DkDomainSearch, DkDomainSearchProps, DkDomainSearchEvents>;
/** `<dk-buy-button>` as Vue's template type-checker sees it. */
export type DkBuyButtonComponent = DefineCustomElement<DkBuyButton, DkBuyButtonProps, DkBuyButtonEvents>;

declare module 'vue' {
  interface GlobalComponents {
    'dk-domain-search': DkDomainSearchComponent;
    'dk-buy-button': DkBuyButtonComponent;
  }
}
