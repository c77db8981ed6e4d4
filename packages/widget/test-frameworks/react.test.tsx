// @vitest-environment happy-dom
/**
 * The React components of `@domainkit/widget/react` (the npm build in `dist/`, as an app imports it): a
 * `<DomainSearch onDkSelect={…}>` rendered by React 19 searches through the BFF, and choosing a result calls the
 * handler with a typed `DkSelectEvent`.
 */
import type { DkDomainSearch, DkSelectEvent } from '@domainkit/widget';
import { DomainSearch } from '@domainkit/widget/react';
import { act, createRef } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.replaceChildren();
});

/** Polls until `check` holds (the element renders asynchronously). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('@domainkit/widget/react', () => {
  it('renders <DomainSearch onDkSelect> and hands the handler a typed dk-select event', async () => {
    const fetch = vi.fn(async (url: string | URL) => {
      expect(new URL(String(url), 'http://shop.test/').pathname).toBe('/dk/search');
      return Response.json({
        query: 'coffee',
        results: [{ domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' }],
      });
    });
    vi.stubGlobal('fetch', fetch);
    const selected: DkSelectEvent[] = [];
    const ref = createRef<DkDomainSearch>();
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    await act(async () => {
      root.render(
        <DomainSearch
          ref={ref}
          api="/dk"
          debounce={0}
          onDkSelect={(event) => {
            expectTypeOf(event).toEqualTypeOf<DkSelectEvent>();
            event.preventDefault(); // the app handles the choice itself: no checkout
            selected.push(event);
          }}
        />,
      );
    });
    const search = ref.current!;
    expect(search.tagName).toBe('DK-DOMAIN-SEARCH');
    await search.updateComplete;
    expect(search.debounce, 'set as a property').toBe(0);
    const input = search.shadowRoot!.querySelector<HTMLInputElement>('[part="input"]')!;
    input.value = 'coffee';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await until(() => search.shadowRoot!.querySelector('[part="option"]') !== null, 'a result row shows');
    search.shadowRoot!.querySelector<HTMLElement>('[part="option"]')!.click();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(selected).toHaveLength(1);
    expect(selected[0]!.detail.domain).toBe('coffeehouse.com');
    expect(selected[0]!.detail.result.price_cents).toBe(250000);
    await act(async () => root.unmount());
  });
});
