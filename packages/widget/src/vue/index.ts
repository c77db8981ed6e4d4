/**
 * `@domainkit/widget/vue`: what a Vue 3 app needs for `<dk-domain-search>` and `<dk-buy-button>`, so Vue neither
 * warns "Failed to resolve component" nor tries to resolve them as Vue components, and `vue-tsc` knows their
 * properties and `dk-*` events (`@dk-select="…"`, typed; see `../jsx/vue.ts`).
 *
 * Templates compiled by your build (single-file components with Vite): pass the preset to the compiler.
 *
 * ```ts
 * // vite.config.ts
 * import vue from '@vitejs/plugin-vue';
 * import { compilerOptions } from '@domainkit/widget/vue';
 * export default { plugins: [vue({ template: { compilerOptions } })] };
 * ```
 *
 * Templates compiled in the browser (Vue's full build): install the plugin, which also defines the elements.
 *
 * ```ts
 * import { DomainkitVue } from '@domainkit/widget/vue';
 * createApp(App).use(DomainkitVue).mount('#app');
 * ```
 */
import type { App, Plugin } from 'vue';
import '../buy-button/buy-button.ts';
import '../domain-search/domain-search.ts';

/** Whether a template tag is one of the widget's custom elements (`dk-` prefix), for `compilerOptions.isCustomElement`. */
export function isCustomElement(tag: string): boolean {
  return tag.startsWith('dk-');
}

/** Vue compiler options that treat every `dk-*` tag as a custom element: `vue({ template: { compilerOptions } })`. */
export const compilerOptions = { isCustomElement } as const;

/**
 * Vue plugin: marks `dk-*` tags as custom elements for templates Vue compiles at run time (keeping any
 * `isCustomElement` the app already set for other tags). Precompiled templates need {@link compilerOptions} in the
 * build instead.
 */
export const DomainkitVue: Plugin = {
  install(app: App) {
    const previous = app.config.compilerOptions.isCustomElement;
    app.config.compilerOptions.isCustomElement = (tag: string) => isCustomElement(tag) || previous?.(tag) === true;
  },
};

/** The elements as Vue components for type-checking (this re-export also registers them in `GlobalComponents`). */
export type { DkBuyButtonComponent, DkDomainSearchComponent } from '../jsx/vue.ts';
