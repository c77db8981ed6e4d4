/**
 * The Vue preset of `@domainkit/widget/vue` (the npm build in `dist/`): a Vue 3 app whose template uses
 * `<dk-domain-search>` and `<dk-buy-button>` mounts them as the custom elements with no "Failed to resolve
 * component" warning, whether the template is compiled by the build (a single-file component: `compilerOptions`)
 * or in the browser (Vue's full build: the `DomainkitVue` plugin), and `@dk-select` receives the element's event.
 */
import { DkSelectEvent } from '@domainkit/widget';
import { compilerOptions, DomainkitVue } from '@domainkit/widget/vue';
import { afterEach, describe, expect, it } from 'vitest';
import { compileTemplate } from 'vue/compiler-sfc';
// Vue's full build, which can also compile templates at run time.
import * as Vue from 'vue/dist/vue.esm-bundler.js';

afterEach(() => document.body.replaceChildren());

const template = `
  <dk-domain-search api="/dk" label="Find a name" @dk-select="chosen = $event.detail.domain"></dk-domain-search>
  <dk-buy-button api="/dk" domain="coffeehouse.com">Buy</dk-buy-button>
  <p>{{ chosen }}</p>`;

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

/** Mounts a component; returns its root element and every warning Vue printed. */
function mount(component: Vue.Component, plugin?: Vue.Plugin) {
  const warnings: string[] = [];
  const app = Vue.createApp(component);
  app.config.warnHandler = (message) => warnings.push(message);
  if (plugin) app.use(plugin);
  const root = document.body.appendChild(document.createElement('div'));
  app.mount(root);
  return { app, root, warnings };
}

/** Fires `dk-select` on the search the way the element does when the visitor chooses a result. */
function choose(root: HTMLElement, domain: string): void {
  root
    .querySelector('dk-domain-search')!
    .dispatchEvent(
      new DkSelectEvent({ domain, result: { domain, available: false, price_cents: null, currency: null } }),
    );
}

describe('@domainkit/widget/vue', () => {
  const data = () => ({ chosen: '' });

  it('a build-compiled template with the compilerOptions preset: both elements, no warning, @dk-select', async () => {
    const { app, root, warnings } = mount({ render: precompiled(compilerOptions), data });
    expect(warnings).toEqual([]);
    expect(root.querySelector('dk-domain-search')).toBeInstanceOf(customElements.get('dk-domain-search')!);
    expect(root.querySelector('dk-buy-button')).toBeInstanceOf(customElements.get('dk-buy-button')!);
    choose(root, 'coffeehouse.com');
    await Vue.nextTick();
    expect(root.querySelector('p')!.textContent).toBe('coffeehouse.com');
    app.unmount();
  });

  it('the same template compiled without the preset warns for each tag (what the preset prevents)', () => {
    const { app, warnings } = mount({ render: precompiled({}), data });
    expect(warnings.filter((w) => w.startsWith('Failed to resolve component: dk-'))).toHaveLength(2);
    app.unmount();
  });

  it('a template compiled in the browser with the DomainkitVue plugin: no warning, @dk-select', async () => {
    const { app, root, warnings } = mount({ template, data }, DomainkitVue);
    expect(warnings).toEqual([]);
    expect(app.config.compilerOptions.isCustomElement?.('dk-buy-button')).toBe(true);
    expect(app.config.compilerOptions.isCustomElement?.('my-widget')).toBe(false);
    choose(root, 'coffeebeans.io');
    await Vue.nextTick();
    expect(root.querySelector('p')!.textContent).toBe('coffeebeans.io');
    app.unmount();
  });
});
