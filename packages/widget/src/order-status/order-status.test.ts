import { expect } from '@esm-bundle/chai';
import { type FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { part, until } from '../test-support/fixtures.ts';
import type { DkOrderStatus } from './order-status.component.ts';
import './order-status.ts';

/** The text a person reads, without the bidi isolates (FSI … PDI) around values. */
const read = (element: Element): string => (element.textContent ?? '').replace(/[\u2066-\u2069]/g, '').trim();

describe('<dk-order-status>: an internationalised name', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });
  let element: DkOrderStatus | undefined;
  afterEach(() => {
    element?.remove();
    history.replaceState(null, '', location.pathname);
  });

  /** Shows the order the BFF answers `track` for (the page's fragment names it). */
  async function showing(track: object): Promise<DkOrderStatus> {
    history.replaceState(null, '', '#order=ord_1&token=tok_1');
    element = document.createElement('dk-order-status') as DkOrderStatus;
    element.setAttribute('locale', 'en-US');
    document.body.append(element);
    (await stub.call(0)).respond(200, {
      order_id: 'ord_1',
      status: 'SETTLED',
      domain: 'xn--mnchen-3ya.de',
      sale_price_cents: 120000,
      currency: 'USD',
      updated_at: '2030-01-01T12:00:00Z',
      version: '1',
      final: true,
      ...track,
    });
    await until(() => element!.dataset.state === 'SETTLED', 'the order is shown');
    await element.updateComplete;
    return element;
  }

  it('names it in Unicode when the BFF gives its display_name, with its ASCII form under it', async () => {
    const el = await showing({ display_name: 'münchen.de' });
    expect(read(part(el, '[part="status"]'))).to.contain('You paid $1,200 for münchen.de.');
    expect(read(part(el, '[part="status"]'))).to.not.contain('xn--');
    expect(read(part(el, '[part="ascii-name"]'))).to.equal('xn--mnchen-3ya.de');
  });

  it('names it as the BFF does without one (an older BFF), with no second line', async () => {
    const el = await showing({});
    expect(read(part(el, '[part="status"]'))).to.contain('for xn--mnchen-3ya.de.');
    expect(el.shadowRoot!.querySelector('[part="ascii-name"]')).to.equal(null);
  });
});
