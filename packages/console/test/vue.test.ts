/**
 * `@domainkit/console/vue` (the npm build in `dist/`) as a Vue 3 app uses it: a template with `<dk-console-orders>`
 * mounts the console's element with no "Failed to resolve component" warning, whether the template is compiled by the
 * build (a single-file component: `compilerOptions`) or in the browser (Vue's full build), once the
 * `DomainkitConsole` plugin is installed. The element gets its attributes and its `strings` object as properties (it
 * asks the BFF at `api` with its filter and shows the replacement heading), and its events reach `@dk-*` listeners:
 * a refused session's `dk-console-error` (status 401) and a `dk-refund`.
 */
import type { DkRefundDetail } from '@domainkit/console';
import { compilerOptions, DomainkitConsole } from '@domainkit/console/vue';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileTemplate } from 'vue/compiler-sfc';
// Vue's full build, which can also compile templates at run time.
import * as Vue from 'vue/dist/vue.esm-bundler.js';
import { shown, stubBff } from './stub-bff.ts';

const template = `
  <dk-console-orders :api="api" status="EXTERNALLY_PAID" :strings="strings"
    @dk-refund="refunded = $event.detail.orderId" @dk-console-error="refused = $event.detail.status" />
  <p class="refunded">{{ refunded }}</p>
  <p class="refused">{{ refused }}</p>`;

/** A template compiled as `@vitejs/plugin-vue` compiles a single-file component's, with the given compiler options. */
function precompiled(options: { isCustomElement?: (tag: string) => boolean }): Vue.RenderFunction {
  const { code, errors } = compileTemplate({
    source: template,
    filename: 'App.vue',
    id: 'app',
    compilerOptions: { ...options, mode: 'function' },
  });
  expect(errors).toEqual([]);
  return new Function('Vue', code)(Vue) as Vue.RenderFunction;
}

/** Mounts a component; returns its root element, the orders element and every warning Vue printed. */
function mount(component: Vue.Component, plugin?: Vue.Plugin) {
  const warnings: string[] = [];
  const app = Vue.createApp(component, {});
  app.config.warnHandler = (message) => warnings.push(message);
  if (plugin) app.use(plugin);
  const root = document.body.appendChild(document.createElement('div'));
  app.mount(root);
  const orders = root.querySelector('dk-console-orders') as HTMLElementTagNameMap['dk-console-orders'];
  return { app, root, orders, warnings };
}

const data = (api: string) => () => ({
  api,
  strings: { tabOrders: 'Sales of the shop' },
  refunded: '',
  refused: '',
});

/**
 * A `dk-refund` as the orders view fires it once the marketplace recorded a refund (built here rather than imported
 * from `@domainkit/console`, whose import would define the elements itself).
 */
const refund = (detail: DkRefundDetail): Event =>
  new CustomEvent('dk-refund', { detail, bubbles: true, composed: true });

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

describe('@domainkit/console/vue', () => {
  it('a build-compiled template with the preset and the plugin: the element, its props, its events', async () => {
    const asked = stubBff(true);
    const { app, root, orders, warnings } = mount(
      { render: precompiled(compilerOptions), data: data('/bff') },
      DomainkitConsole,
    );
    expect(warnings).toEqual([]);
    expect(orders).toBeInstanceOf(customElements.get('dk-console-orders')!);
    await vi.waitFor(() => expect(orders.getAttribute('data-state')).toBe('complete'));
    // `api` and the status filter reached the element: it asked that BFF for those orders.
    expect(asked[0]).toBe('/bff/console/session');
    expect(asked.some((url) => url.startsWith('/bff/console/orders') && url.includes('status=EXTERNALLY_PAID'))).toBe(
      true,
    );
    // `strings` was set as a property (an object), not an attribute: the view shows the replacement heading.
    expect(orders.strings).toEqual({ tabOrders: 'Sales of the shop' });
    expect(shown(orders)).toContain('Sales of the shop');
    expect(shown(orders)).toContain('coffeehouse.com');
    // The element's dk-refund reaches the @dk-refund listener with its typed detail.
    orders.dispatchEvent(refund({ orderId: 'ord_paid', refundId: 'ref_1', amountCents: 250000, currency: 'USD' }));
    await Vue.nextTick();
    expect(root.querySelector('.refunded')!.textContent).toBe('ord_paid');
    app.unmount();
  });

  it('a refused session: the element says so and @dk-console-error hears status 401', async () => {
    stubBff(false);
    const { app, root, orders, warnings } = mount(
      { render: precompiled(compilerOptions), data: data('/refused') },
      DomainkitConsole,
    );
    expect(warnings).toEqual([]);
    await vi.waitFor(() => expect(root.querySelector('.refused')!.textContent).toBe('401'));
    expect(orders.getAttribute('data-state')).toBe('signed-out');
    app.unmount();
  });

  it('the same template compiled without the preset warns (what the preset prevents)', () => {
    stubBff(true);
    const { app, warnings } = mount({ render: precompiled({}), data: data('/plain') }, DomainkitConsole);
    expect(warnings.filter((w) => w.startsWith('Failed to resolve component: dk-console-orders'))).toHaveLength(1);
    app.unmount();
  });

  it('a template compiled in the browser with the plugin: no warning, the element, @dk-refund', async () => {
    stubBff(true);
    const { app, root, orders, warnings } = mount({ template, data: data('/runtime') }, DomainkitConsole);
    expect(warnings).toEqual([]);
    expect(app.config.compilerOptions.isCustomElement?.('dk-console')).toBe(true);
    expect(app.config.compilerOptions.isCustomElement?.('my-widget')).toBe(false);
    expect(orders).toBeInstanceOf(customElements.get('dk-console-orders')!);
    await vi.waitFor(() => expect(shown(orders)).toContain('coffeehouse.com'));
    orders.dispatchEvent(refund({ orderId: 'ord_9', refundId: 'ref_9', amountCents: 1, currency: 'USD' }));
    await Vue.nextTick();
    expect(root.querySelector('.refunded')!.textContent).toBe('ord_9');
    app.unmount();
  });
});
