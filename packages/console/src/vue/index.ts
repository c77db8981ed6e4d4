/**
 * `@domainkit/console/vue`: what a Vue 3 app needs for the console elements (`<dk-console>`, each view and
 * `<dk-console-chart>`): Vue's compiler told that `dk-*` tags are custom elements (no "Failed to resolve component"
 * warning), a plugin that defines the elements, and `vue-tsc` typings of each element's properties and events
 * (`@dk-refund="…"` receives a `DkRefundEvent`).
 *
 * Importing this module defines nothing and reads no `window`, `document` or `customElements`, so a server render
 * (Nuxt, Vite SSR) may import it; the elements are defined when the plugin is installed, in a browser.
 *
 * ```ts
 * // vite.config.ts: templates compiled by the build (single-file components)
 * import vue from '@vitejs/plugin-vue';
 * import { compilerOptions } from '@domainkit/console/vue';
 * export default { plugins: [vue({ template: { compilerOptions } })] };
 *
 * // main.ts: defines the elements (and covers templates compiled in the browser)
 * import { DomainkitConsole } from '@domainkit/console/vue';
 * createApp(App).use(DomainkitConsole).mount('#app');
 * ```
 */
import type { App, EmitFn, HTMLAttributes, Plugin, PublicProps } from 'vue';
import type { DkConsoleView } from '../base.ts';
import type { DkConsoleChart } from '../chart.ts';
import type { DkConsole } from '../console.ts';
import { defineConsoleElements } from '../elements.ts';
import type { DkConsoleErrorEvent, DkLinkCreatedEvent, DkRefundEvent } from '../events.ts';
import type { DkConsoleBrokerage } from '../views/brokerage.ts';
import type { DkConsoleCommissions } from '../views/commissions.ts';
import type { DkConsoleEvents } from '../views/events.ts';
import type { DkConsoleLinks } from '../views/links.ts';
import type { DkConsoleOrders } from '../views/orders.ts';
import type { DkConsoleOverview } from '../views/overview.ts';
import type { DkConsoleSettlements } from '../views/settlements.ts';

/** Whether a template tag is one of the console's custom elements (`dk-` prefix), for `isCustomElement`. */
export function isCustomElement(tag: string): boolean {
  return tag.startsWith('dk-');
}

/** Vue compiler options that treat every `dk-*` tag as a custom element: `vue({ template: { compilerOptions } })`. */
export const compilerOptions = { isCustomElement } as const;

/**
 * Vue plugin: defines every console element (in a browser; nothing where `customElements` does not exist) and marks
 * `dk-*` tags as custom elements for templates Vue compiles at run time, keeping any `isCustomElement` the app
 * already set for other tags. Templates compiled by the build need {@link compilerOptions} there instead.
 */
export const DomainkitConsole: Plugin = {
  install(app: App) {
    const previous = app.config.compilerOptions.isCustomElement;
    app.config.compilerOptions.isCustomElement = (tag: string) => isCustomElement(tag) || previous?.(tag) === true;
    defineConsoleElements();
  },
};

/** What every view takes (attributes, or properties for `strings`): see the package README. */
type ViewProps = 'api' | 'theme' | 'locale' | 'from' | 'to' | 'strings';

/** Properties of `<dk-console-overview>`, `-commissions`, `-brokerage`, `-links` and `-events`. */
export type DkConsoleViewProps = Partial<Pick<DkConsoleView, ViewProps>>;
/** Properties of `<dk-console>`: a view's, and the open tab. */
export type DkConsoleProps = Partial<Pick<DkConsole, ViewProps | 'tab'>>;
/** Properties of `<dk-console-orders>`: a view's, and its status and domain filters. */
export type DkConsoleOrdersProps = DkConsoleViewProps & Partial<Pick<DkConsoleOrders, 'status' | 'domain'>>;
/** Properties of `<dk-console-settlements>`: a view's, and its transaction filters. */
export type DkConsoleSettlementsProps = DkConsoleViewProps &
  Partial<Pick<DkConsoleSettlements, 'status' | 'paymentModel'>> & { 'payment-model'?: string };
/** Properties of `<dk-console-chart>`. */
export type DkConsoleChartProps = Partial<
  Pick<DkConsoleChart, 'label' | 'valueLabel' | 'kind' | 'points' | 'format' | 'strings' | 'theme' | 'locale'>
> & { 'value-label'?: string };

/** Events of every view: a failed call (`status` 401: the console session was refused). */
export interface DkConsoleViewEvents {
  /** A call failed and the view shows why (`detail.status` 401: the console session was refused). */
  'dk-console-error': DkConsoleErrorEvent;
}
/** Events of `<dk-console-orders>`: a view's, and a refund the marketplace recorded. */
export interface DkConsoleOrdersEvents extends DkConsoleViewEvents {
  /** The marketplace recorded a refund asked from the view (`detail.orderId`, `amountCents`, `currency`). */
  'dk-refund': DkRefundEvent;
}
/** Events of `<dk-console-links>`: a view's, and a referral link created. */
export interface DkConsoleLinksEvents extends DkConsoleViewEvents {
  /** A referral link was created from the view (`detail.linkId`, `url`, `kind`). */
  'dk-link-created': DkLinkCreatedEvent;
}
/** Events of `<dk-console>`: every view's (they bubble out of its tabs). */
export interface DkConsoleEventMap extends DkConsoleOrdersEvents, DkConsoleLinksEvents {}

/** A custom element as Vue's template type-checker sees a component: its props, and its events as emits. */
export type DkVueElement<E extends HTMLElement, Props, Events> = new () => E & {
  $props: HTMLAttributes & Props & PublicProps;
  $emit: EmitFn<{ [K in keyof Events]: (event: Events[K]) => void }>;
};

/** `<dk-console>` as Vue's template type-checker sees it. */
export type DkConsoleComponent = DkVueElement<DkConsole, DkConsoleProps, DkConsoleEventMap>;
/** `<dk-console-overview>` as Vue's template type-checker sees it. */
export type DkConsoleOverviewComponent = DkVueElement<DkConsoleOverview, DkConsoleViewProps, DkConsoleViewEvents>;
/** `<dk-console-orders>` as Vue's template type-checker sees it. */
export type DkConsoleOrdersComponent = DkVueElement<DkConsoleOrders, DkConsoleOrdersProps, DkConsoleOrdersEvents>;
/** `<dk-console-settlements>` as Vue's template type-checker sees it. */
export type DkConsoleSettlementsComponent = DkVueElement<
  DkConsoleSettlements,
  DkConsoleSettlementsProps,
  DkConsoleViewEvents
>;
/** `<dk-console-commissions>` as Vue's template type-checker sees it. */
export type DkConsoleCommissionsComponent = DkVueElement<DkConsoleCommissions, DkConsoleViewProps, DkConsoleViewEvents>;
/** `<dk-console-brokerage>` as Vue's template type-checker sees it. */
export type DkConsoleBrokerageComponent = DkVueElement<DkConsoleBrokerage, DkConsoleViewProps, DkConsoleViewEvents>;
/** `<dk-console-links>` as Vue's template type-checker sees it. */
export type DkConsoleLinksComponent = DkVueElement<DkConsoleLinks, DkConsoleViewProps, DkConsoleLinksEvents>;
/** `<dk-console-events>` as Vue's template type-checker sees it. */
export type DkConsoleEventsComponent = DkVueElement<DkConsoleEvents, DkConsoleViewProps, DkConsoleViewEvents>;
/** `<dk-console-chart>` as Vue's template type-checker sees it (it fires no event). */
export type DkConsoleChartComponent = DkVueElement<DkConsoleChart, DkConsoleChartProps, Record<never, never>>;

declare module 'vue' {
  interface GlobalComponents {
    'dk-console': DkConsoleComponent;
    'dk-console-overview': DkConsoleOverviewComponent;
    'dk-console-orders': DkConsoleOrdersComponent;
    'dk-console-settlements': DkConsoleSettlementsComponent;
    'dk-console-commissions': DkConsoleCommissionsComponent;
    'dk-console-brokerage': DkConsoleBrokerageComponent;
    'dk-console-links': DkConsoleLinksComponent;
    'dk-console-events': DkConsoleEventsComponent;
    'dk-console-chart': DkConsoleChartComponent;
  }
}
