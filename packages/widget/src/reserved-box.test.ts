import { expect } from '@esm-bundle/chai';
import { emulateMedia } from '@web/test-runner-commands';
import { DkBuyButton } from './buy-button/buy-button.component.ts';
import { DkDomainSearch } from './domain-search/domain-search.component.ts';

/**
 * `domainkit.css` reserves each element's box before its script defines it, so the page does not move when the
 * element upgrades: the content after the element stays where it was, and so does the element. Each case renders
 * the stylesheet's rules for a fresh tag name, measures, then defines that tag and measures again.
 */
describe('the box reserved before the upgrade', () => {
  let css = '';
  let n = 0;
  const cleanups: (() => void)[] = [];
  before(async () => {
    css = await (await fetch(new URL('./domainkit.css', import.meta.url))).text();
  });
  afterEach(async () => {
    for (const undo of cleanups.splice(0)) undo();
    await emulateMedia({ colorScheme: 'light' });
  });

  /** Where the element and the paragraph after it are, before and after the element upgrades. */
  async function positions(kind: 'search' | 'buy', attributes: Record<string, string>, pageCss = '') {
    n++;
    const tag = kind === 'search' ? `dk-reserve-search-${n}` : `dk-reserve-buy-${n}`;
    const style = document.head.appendChild(document.createElement('style'));
    style.textContent = `${css.replaceAll('dk-domain-search', `dk-reserve-search-${n}`).replaceAll('dk-buy-button', `dk-reserve-buy-${n}`)}\n${pageCss.replaceAll('TAG', tag)}`;
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = `<p>Before</p><${tag}>Buy coffeehouse.com</${tag}><p>After</p>`;
    cleanups.push(() => {
      style.remove();
      container.remove();
    });
    const element = container.querySelector(tag)!;
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    const after = element.nextElementSibling!;
    const read = () => ({ element: element.getBoundingClientRect().top, after: after.getBoundingClientRect().top });
    const before = read();
    customElements.define(tag, kind === 'search' ? class extends DkDomainSearch {} : class extends DkBuyButton {});
    // Between the upgrade and the first render (a task later for the search box): what a frame may paint meanwhile.
    const defined = read();
    await (element as DkDomainSearch).updateComplete;
    return { before, defined, upgraded: read() };
  }

  const cases: [string, 'search' | 'buy', Record<string, string>][] = [
    ['<dk-domain-search>', 'search', {}],
    ['<dk-domain-search size="small">', 'search', { size: 'small' }],
    ['<dk-domain-search size="large">', 'search', { size: 'large' }],
    ['<dk-domain-search theme="dark">', 'search', { theme: 'dark' }],
    ['<dk-buy-button>', 'buy', { domain: 'coffeehouse.com' }],
    ['<dk-buy-button size="large" theme="dark">', 'buy', { domain: 'coffeehouse.com', size: 'large', theme: 'dark' }],
  ];
  for (const [name, kind, attributes] of cases) {
    it(`${name}: nothing moves when it upgrades`, async () => {
      const { before, upgraded } = await positions(kind, attributes);
      expect(upgraded.element).to.be.closeTo(before.element, 0.5);
      expect(upgraded.after).to.be.closeTo(before.after, 0.5);
    });
  }

  it('<dk-domain-search>: nothing moves before its first render either (a task after the upgrade)', async () => {
    for (const attributes of [{}, { size: 'large' }, { theme: 'dark' }] as Record<string, string>[]) {
      const { before, defined } = await positions('search', attributes);
      expect(defined.after, JSON.stringify(attributes)).to.be.closeTo(before.after, 0.5);
    }
  });

  it('in a dark colour scheme too (the backdrop padding)', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    for (const kind of ['search', 'buy'] as const) {
      const { before, upgraded } = await positions(kind, { domain: 'coffeehouse.com' });
      expect(upgraded.after, kind).to.be.closeTo(before.after, 0.5);
    }
  });

  it('with the tokens set to a unitless 0 (no backdrop padding, no gap)', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const page = 'TAG { --dk-padding: 0; --dk-spacing: 0; }';
    for (const kind of ['search', 'buy'] as const) {
      const { before, upgraded } = await positions(kind, { domain: 'coffeehouse.com' }, page);
      expect(upgraded.after, kind).to.be.closeTo(before.after, 0.5);
    }
  });

  it('with a page font of its own and a tall line height', async () => {
    const page = 'TAG { font-family: Georgia, serif; } body { line-height: 2.2; }';
    const { before, upgraded } = await positions('search', {}, page);
    expect(upgraded.after).to.be.closeTo(before.after, 0.5);
  });

  it('a page that restyles the search box sets --dk-reserve-block-size to the label and box height', async () => {
    const page =
      'TAG::part(input) { padding-block: 0.9em; font-size: 1.1rem; } TAG { --dk-reserve-block-size: calc(4.605rem + 2px); }';
    const { before, upgraded } = await positions('search', {}, page);
    expect(upgraded.after).to.be.closeTo(before.after, 0.5);
  });
});
