/**
 * `@domainkit/console/react` (the npm build in `dist/`) as a React 19 app uses it: `<ConsoleOrders>` renders the
 * console's element, which gets `api` and its status filter (it asks that BFF for those orders) and its `strings`
 * object as a property (it shows the replacement heading); the element's events reach the typed camel-case props: a
 * `dk-refund` reaches `onDkRefund`, a refused session's `dk-console-error` (status 401) reaches `onDkConsoleError`.
 */
import type { DkConsoleErrorEvent, DkRefundDetail, DkRefundEvent } from '@domainkit/console';
import { ConsoleOrders } from '@domainkit/console/react';
import { act, createElement, createRef } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { shown, stubBff } from './stub-bff.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;

afterEach(async () => {
  await act(async () => root?.unmount());
  root = undefined;
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

/** Renders `<ConsoleOrders>` with the given props; returns the element. */
async function render(props: Parameters<typeof ConsoleOrders>[0]): Promise<HTMLElementTagNameMap['dk-console-orders']> {
  const ref = createRef<HTMLElementTagNameMap['dk-console-orders']>();
  root = createRoot(document.body.appendChild(document.createElement('div')));
  await act(async () => root!.render(createElement(ConsoleOrders, { ...props, ref })));
  return ref.current!;
}

describe('@domainkit/console/react', () => {
  it('<ConsoleOrders>: the element, its props as properties, onDkRefund with a typed event', async () => {
    const asked = stubBff(true);
    const refunds: DkRefundDetail[] = [];
    const orders = await render({
      api: '/bff',
      status: 'EXTERNALLY_PAID',
      strings: { tabOrders: 'Sales of the shop' },
      onDkRefund: (event) => {
        expectTypeOf(event).toEqualTypeOf<DkRefundEvent>();
        refunds.push(event.detail);
      },
    });
    expect(orders).toBeInstanceOf(customElements.get('dk-console-orders')!);
    await vi.waitFor(() => expect(orders.getAttribute('data-state')).toBe('complete'));
    // `api` and the status filter reached the element: it asked that BFF for those orders.
    expect(asked[0]).toBe('/bff/console/session');
    expect(
      asked.filter((url) => !url.startsWith('/bff/')),
      'nothing asked of the default address',
    ).toEqual([]);
    expect(asked.some((url) => url.startsWith('/bff/console/orders') && url.includes('status=EXTERNALLY_PAID'))).toBe(
      true,
    );
    // `strings` was set as a property (an object), not an attribute: the view shows the replacement heading.
    expect(orders.strings).toEqual({ tabOrders: 'Sales of the shop' });
    expect(orders.hasAttribute('strings')).toBe(false);
    expect(shown(orders)).toContain('Sales of the shop');
    expect(shown(orders)).toContain('coffeehouse.com');
    // The element's dk-refund (as the view fires it once the marketplace recorded a refund) reaches onDkRefund.
    const detail = { orderId: 'ord_paid', refundId: 'ref_1', amountCents: 250000, currency: 'USD' };
    orders.dispatchEvent(new CustomEvent('dk-refund', { detail, bubbles: true, composed: true }));
    expect(refunds).toEqual([detail]);
  });

  it('a refused session: the element says so and onDkConsoleError hears status 401', async () => {
    const asked = stubBff(false);
    const statuses: number[] = [];
    const orders = await render({
      api: '/refused',
      onDkConsoleError: (event) => {
        expectTypeOf(event).toEqualTypeOf<DkConsoleErrorEvent>();
        statuses.push(event.detail.status);
      },
    });
    await vi.waitFor(() => expect(statuses).toContain(401));
    expect(orders.getAttribute('data-state')).toBe('signed-out');
    expect(
      asked.filter((url) => !url.startsWith('/refused/')),
      'the refusal came from the address given',
    ).toEqual([]);
  });
});
