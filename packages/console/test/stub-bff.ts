/**
 * What the framework-binding tests share: a BFF stubbed at `fetch` that answers the console session (or refuses it)
 * and one paid order, and the text an element shows.
 */
import { vi } from 'vitest';

/** The one order the stubbed BFF lists: paid, refundable, US$2,500.00. */
export const order = {
  public_id: 'ord_paid',
  domain: 'coffeehouse.com',
  status: 'EXTERNALLY_PAID',
  refundable: true,
  sale_price_cents: 250000,
  currency: 'USD',
  created_at: '2026-11-18T09:30:00Z',
  timeline: [{ status: 'EXTERNALLY_PAID', at: '2026-11-18T09:30:00Z' }],
};

/**
 * Stubs `fetch` (undo with `vi.unstubAllGlobals()`) with a BFF answering the console session and the orders list,
 * or refusing every call with 401 when not `signedIn`; returns the URLs asked, in order.
 */
export function stubBff(signedIn: boolean): string[] {
  const asked: string[] = [];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    if (!signedIn) return json(401, { error: { code: 'unauthorized', message: 'Sign in first.' } });
    if (url.endsWith('/console/session')) return json(200, { token: 'cst_test', expires_in: 300 });
    if (url.includes('/console/orders'))
      return json(200, { orders: [order], next_cursor: null, as_of: '2026-11-20T10:00:00Z', max_age: 30 });
    return json(404, { error: { code: 'not_found', message: 'No such route.' } });
  });
  return asked;
}

/** The text of an element's shadow root, white space collapsed. */
export const shown = (element: Element): string => element.shadowRoot?.textContent?.replace(/\s+/g, ' ') ?? '';
