import { expect } from '@esm-bundle/chai';
import type { DkCheckoutStartEvent } from '../events/dk-checkout-start.ts';
import type { DkErrorEvent } from '../events/dk-error.ts';
import { defaultStrings } from '../default-strings.ts';
import { FetchStub, useFetchStub } from '../test-support/fetch-stub.ts';
import { cleanup, fixture, nextEvent, part, settle, until } from '../test-support/fixtures.ts';
import './buy-button.ts';
import type { DkBuyButton } from './buy-button.component.ts';

const SESSION = { checkout_url: 'https://market.example/checkout?pt=tok123', expires_at: '2030-01-08T00:00:00Z' };

/** A fresh buy button whose navigation is recorded instead of performed. */
async function buyButton(
  attributes: Record<string, string>,
): Promise<{ el: DkBuyButton; button: HTMLButtonElement; visited: string[] }> {
  const el = await fixture('dk-buy-button', attributes);
  const visited: string[] = [];
  el.navigate = (url) => visited.push(url);
  return { el, button: part<HTMLButtonElement>(el, '[part="buy-button"]'), visited };
}

describe('<dk-buy-button>', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it("sends the page's language (the nearest lang) with the session; leaves out one that is not a language tag", async () => {
    const cases: Array<[string, object]> = [
      ['ar-EG', { domain: 'coffeehouse.com', locale: 'ar-EG' }],
      ['en_US', { domain: 'coffeehouse.com' }],
    ];
    for (const [i, [lang, sent]] of cases.entries()) {
      const { button } = await buyButton({ domain: 'coffeehouse.com', api: '/dk', lang });
      button.click();
      const post = await stub.call(i);
      expect(post.json, lang).to.deep.equal(sent);
      post.respond(201, SESSION);
    }
  });

  it('creates a checkout session for its domain, stays busy meanwhile, then navigates to checkout_url', async () => {
    const { el, button, visited } = await buyButton({ domain: 'coffeehouse.com', api: '/dk' });
    expect(button.getAttribute('aria-disabled')).to.equal('false');
    expect(
      part<HTMLSlotElement>(el, 'slot')
        .assignedNodes({ flatten: true })
        .map((n) => n.textContent)
        .join(''),
    ).to.equal('Buy');

    const started = nextEvent(el, 'dk-checkout-start');
    button.click();
    const post = await stub.call(0);
    expect([post.method, post.url.pathname, post.headers.get('content-type')]).to.deep.equal([
      'POST',
      '/dk/checkout',
      'application/json',
    ]);
    expect(post.json).to.deep.equal({ domain: 'coffeehouse.com' });
    await el.updateComplete;
    expect(el.busy).to.equal(true);
    expect(el.hasAttribute('busy')).to.equal(true);
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    expect(button.getAttribute('aria-busy')).to.equal('true');

    button.click(); // a second click while pending must not create a second session
    post.respond(201, SESSION);
    const event: DkCheckoutStartEvent = await started;
    expect(event.detail).to.deep.equal({ domain: 'coffeehouse.com', checkoutUrl: SESSION.checkout_url });
    expect([event.bubbles, event.composed, event.cancelable]).to.deep.equal([true, true, true]);
    await until(() => visited.length > 0, 'navigate was called');
    expect(visited).to.deep.equal([SESSION.checkout_url]);
    expect(stub.calls).to.have.length(1);
  });

  it('asks the checkout to send the buyer back to its return-path and cancel-path', async () => {
    const { button } = await buyButton({
      domain: 'coffeehouse.com',
      'return-path': '/thanks?from=buy',
      'cancel-path': 'https://shop.example/cart',
    });
    button.click();
    const post = await stub.call(0);
    expect(post.json).to.deep.equal({
      domain: 'coffeehouse.com',
      return_url: '/thanks?from=buy',
      cancel_url: 'https://shop.example/cart',
    });
    post.respond(201, SESSION);
  });

  it('shows a return path the BFF refuses as a failure, without navigating', async () => {
    const { el, button, visited } = await buyButton({ domain: 'coffeehouse.com', 'return-path': '/elsewhere' });
    const failed = nextEvent(el, 'dk-error');
    button.click();
    (await stub.call(0)).respond(400, {
      error: { code: 'return_url_not_allowed', message: "`return_url` must be on one of this shop's origins" },
    });
    expect((await failed).detail.code).to.equal('return_url_not_allowed');
    await settle(el);
    expect(part(el, '[part="error"]').textContent).to.not.contain('return_url');
    expect(visited).to.deep.equal([]);
  });

  it('does not navigate when dk-checkout-start is cancelled, and becomes usable again', async () => {
    const { el, button, visited } = await buyButton({ domain: 'coffeehouse.com' });
    el.addEventListener('dk-checkout-start', (event) => event.preventDefault());
    button.click();
    const post = await stub.call(0);
    expect(post.url.pathname, 'api defaults to /dk').to.equal('/dk/checkout');
    post.respond(201, SESSION);
    await until(() => !el.busy, 'the button is no longer busy');
    await settle(el);
    expect(visited).to.deep.equal([]);
    expect(button.getAttribute('aria-disabled')).to.equal('false');
  });

  it("shows the error code's string (not the BFF's English message), fires dk-error, and lets the visitor try again", async () => {
    const { el, button, visited } = await buyButton({ domain: 'coffeehouse.com', api: '/dk' });
    const failed = nextEvent(el, 'dk-error');
    button.click();
    (await stub.call(0)).respond(502, {
      error: { code: 'upstream_error', message: 'The marketplace is unavailable right now; try again shortly.' },
    });
    const event: DkErrorEvent = await failed;
    expect(event.detail).to.deep.equal({ code: 'upstream_error', message: defaultStrings.unknownError });
    await el.updateComplete;
    const error = part(el, '[part="error"]');
    expect(error.textContent).to.equal(defaultStrings.unknownError);
    expect(button.getAttribute('aria-describedby')).to.equal(error.id);
    expect(el.busy).to.equal(false);
    expect(visited).to.deep.equal([]);

    button.click();
    (await stub.call(1)).respond(201, SESSION);
    await until(() => visited.length > 0, 'navigate was called');
    expect(visited).to.deep.equal([SESSION.checkout_url]);
    expect(el.shadowRoot!.querySelector('[part="error"]')).to.equal(null);
  });

  it('refuses to navigate to a checkout_url that is not http(s)', async () => {
    const { el, button, visited } = await buyButton({ domain: 'coffeehouse.com' });
    const failed = nextEvent(el, 'dk-error');
    button.click();
    (await stub.call(0)).respond(201, { checkout_url: 'javascript:alert(document.cookie)' });
    expect((await failed).detail.code).to.equal('invalid_response');
    await el.updateComplete;
    expect(part(el, '[part="error"]').textContent).to.equal(
      'The domain service sent an unexpected answer. Please retry.',
    );
    expect(visited).to.deep.equal([]);
  });

  it('is disabled and sends nothing without a domain', async () => {
    const { el, button } = await buyButton({});
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    button.click();
    await settle(el);
    expect(stub.calls).to.have.length(0);
  });

  it('takes its label from the slot and its accessible name from label', async () => {
    const el = await fixture('dk-buy-button', { domain: 'coffeehouse.com', label: 'Buy coffeehouse.com now' });
    el.textContent = 'Get it';
    const button = part<HTMLButtonElement>(el, '[part="buy-button"]');
    expect(button.getAttribute('aria-label')).to.equal('Buy coffeehouse.com now');
    expect(
      part<HTMLSlotElement>(el, 'slot')
        .assignedNodes()
        .map((n) => n.textContent)
        .join(''),
    ).to.equal('Get it');
  });
});

describe('<dk-buy-button> target', () => {
  afterEach(() => cleanup());

  it('opens checkout_url in the `target` browsing context with noopener, and is usable again', async () => {
    const stub = new FetchStub();
    try {
      const el = await fixture('dk-buy-button', { domain: 'coffeehouse.com', target: '_blank' });
      const opened: unknown[][] = [];
      const original = window.open;
      window.open = (...args: unknown[]) => {
        opened.push(args);
        return null;
      };
      try {
        part<HTMLButtonElement>(el, '[part="buy-button"]').click();
        (await stub.call(0)).respond(201, SESSION);
        await until(() => opened.length > 0, 'window.open was called');
        expect(opened).to.deep.equal([[SESSION.checkout_url, '_blank', 'noopener']]);
        await until(() => !el.busy, 'the button is usable again');
      } finally {
        window.open = original;
      }
    } finally {
      stub.restore();
    }
  });
});
