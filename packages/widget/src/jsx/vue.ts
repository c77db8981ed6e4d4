/**
 * Template typings for Vue 3 (Volar / vue-tsc): `<dk-domain-search>` and `<dk-buy-button>` as global
 * components with their properties and `dk-*` events (`@dk-select="…"`), after the custom-element typing
 * recipe of Vue's documentation. Opt in once from any file of the app:
 *
 * ```ts
 * import type {} from '@domainkit/widget/vue';
 * ```
 * Tell Vue's compiler the tags are custom elements: `compilerOptions.isCustomElement: (tag) => tag.startsWith('dk-')`.
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

declare module 'vue' {
  interface GlobalComponents {
    'dk-domain-search': DefineCustomElement<DkDomainSearch, DkDomainSearchProps, DkDomainSearchEvents>;
    'dk-buy-button': DefineCustomElement<DkBuyButton, DkBuyButtonProps, DkBuyButtonEvents>;
  }
}
