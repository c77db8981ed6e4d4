import { expect } from '@esm-bundle/chai';
import {
  createCheckoutSession,
  createOrder,
  createQuote,
  DkApiError,
  endpoint,
  getOrder,
  searchDomains,
} from './api.ts';
import { type FetchStub, useFetchStub } from './test-support/fetch-stub.ts';

async function rejection(promise: Promise<unknown>): Promise<DkApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(DkApiError);
    return error as DkApiError;
  }
  throw new Error('expected a rejection');
}

describe('widget ↔ BFF API', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it('joins the BFF base URL and a route whatever the trailing slashes', () => {
    expect(endpoint('/dk', '/search?q=a')).to.equal('/dk/search?q=a');
    expect(endpoint('/dk//', '/checkout')).to.equal('/dk/checkout');
    expect(endpoint('https://shop.example/dk/', '/checkout')).to.equal('https://shop.example/dk/checkout');
  });

  it('URL-encodes the query and reads {query, results}', async () => {
    const pending = searchDomains('/dk', 'café & co');
    const call = await stub.call(0);
    expect(call.url.pathname).to.equal('/dk/search');
    expect(call.url.search).to.equal('?q=caf%C3%A9%20%26%20co');
    expect(call.url.searchParams.get('q')).to.equal('café & co');
    call.respond(200, {
      query: 'café & co',
      results: [{ domain: 'cafe.co', available: false, price_cents: null, currency: null }],
    });
    expect(await pending).to.deep.equal({
      query: 'café & co',
      results: [{ domain: 'cafe.co', available: false, price_cents: null, currency: null }],
    });
  });

  it("raises the BFF's code, message and retry_after from its error body", async () => {
    const pending = searchDomains('/dk', 'coffee');
    (await stub.call(0)).respond(
      503,
      { error: { code: 'busy', message: 'Too many searches; try again in 7 s.', retry_after: 7 } },
      { 'Retry-After': '7' },
    );
    const error = await rejection(pending);
    expect([error.code, error.message, error.status, error.retryAfter]).to.deep.equal([
      'busy',
      'Too many searches; try again in 7 s.',
      503,
      7,
    ]);
  });

  it('names a JSON error status without an error body http_<status>, and a failed same-origin connection network_error', async () => {
    const first = searchDomains('/dk', 'coffee');
    (await stub.call(0)).respond(429, { message: 'slow down' });
    expect((await rejection(first)).code).to.equal('http_429');

    const second = searchDomains('/dk', 'coffee');
    (await stub.call(1)).failNetwork();
    const error = await rejection(second);
    expect([error.code, error.status]).to.deep.equal(['network_error', 0]);
  });

  it('diagnoses a BFF that is not one: bff_misconfigured for a 404 or an answer that is not JSON', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    try {
      const html404 = searchDomains('/not-the-bff', 'coffee');
      (await stub.call(0)).respondText(404, '<html>Not found</html>', { 'Content-Type': 'text/html' });
      expect([(await rejection(html404)).code, (await rejection(html404)).status]).to.deep.equal([
        'bff_misconfigured',
        404,
      ]);
      const spaFallback = searchDomains('/app', 'coffee');
      (await stub.call(1)).respondText(200, '<!doctype html><title>Shop</title>', { 'Content-Type': 'text/html' });
      expect((await rejection(spaFallback)).code).to.equal('bff_misconfigured');
      const proxy = searchDomains('/dk', 'coffee');
      (await stub.call(2)).respondText(502, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' });
      expect((await rejection(proxy)).code).to.equal('bff_unreachable');
      // The BFF's own 404 (JSON error body) stays the BFF's code.
      const own = searchDomains('/dk', 'coffee');
      (await stub.call(3)).respond(404, { error: { code: 'not_found', message: 'No such endpoint.' } });
      expect((await rejection(own)).code).to.equal('not_found');
    } finally {
      console.warn = warn;
    }
    expect(warnings).to.have.length(3);
    expect(warnings[0]).to.match(
      /^\[domainkit\] bff_misconfigured: \/not-the-bff\/search\?q=coffee answered HTTP 404 without JSON/,
    );
  });

  it('diagnoses a cross-origin BFF that cannot be read as bff_unreachable, naming the origin to allow', async () => {
    const warn = console.warn;
    console.warn = () => {};
    try {
      const pending = searchDomains('https://shop-api.example/dk', 'coffee');
      (await stub.call(0)).failNetwork();
      const error = await rejection(pending);
      expect([error.code, error.status]).to.deep.equal(['bff_unreachable', 0]);
      expect(error.message).to.contain(`add "${location.origin}" to its allowedOrigins`);
    } finally {
      console.warn = warn;
    }
  });

  it("carries the BFF's X-Request-Id on an error", async () => {
    const pending = searchDomains('/dk', 'coffee');
    (await stub.call(0)).respond(
      502,
      { error: { code: 'upstream_error', message: 'The marketplace could not be reached.' } },
      { 'X-Request-Id': 'req-abc-123' },
    );
    expect((await rejection(pending)).requestId).to.equal('req-abc-123');
  });

  it('rejects answers of the wrong shape as invalid_response', async () => {
    const bad = [
      { results: 'none' },
      { results: [{ domain: 'a.com' }] },
      { results: [{ domain: 'a.com', available: true, price_cents: 12.5, currency: 'USD' }] },
      { results: [{ domain: 'a.com', available: true, price_cents: -1, currency: 'USD' }] },
      { results: [{ domain: 'a.com', available: true, price_cents: 100, currency: 'dollars' }] },
    ];
    for (const [i, body] of bad.entries()) {
      const pending = searchDomains('/dk', 'coffee');
      (await stub.call(i)).respond(200, body);
      expect((await rejection(pending)).code, JSON.stringify(body)).to.equal('invalid_response');
    }
  });

  it('POSTs {"domain"} as JSON to /checkout and accepts only an absolute http(s) checkout_url', async () => {
    const ok = createCheckoutSession('https://shop.example/dk', 'coffeehouse.com');
    const call = await stub.call(0);
    expect([call.method, call.url.href, call.headers.get('content-type')]).to.deep.equal([
      'POST',
      'https://shop.example/dk/checkout',
      'application/json',
    ]);
    expect(call.json).to.deep.equal({ domain: 'coffeehouse.com' });
    call.respond(201, { checkout_url: 'https://market.example/checkout?pt=abc', expires_at: '2030-01-01T00:00:00Z' });
    expect(await ok).to.deep.equal({
      checkout_url: 'https://market.example/checkout?pt=abc',
      expires_at: '2030-01-01T00:00:00Z',
      price_cents: null, // a BFF that does not give the session's price yet
      currency: null,
    });

    for (const [i, url] of ['javascript:alert(1)', '/checkout?pt=abc', 'data:text/html,hi'].entries()) {
      const pending = createCheckoutSession('/dk', 'coffeehouse.com');
      (await stub.call(i + 1)).respond(201, { checkout_url: url });
      expect((await rejection(pending)).code, url).to.equal('invalid_response');
    }
  });

  it('POSTs {"domain"} to /quotes and checks the quote it gets back', async () => {
    const quote = {
      quote_id: 'q_1',
      domain: 'coffeehouse.com',
      price_cents: 250000,
      currency: 'USD',
      expires_at: '2030-01-01T12:10:00Z',
    };
    const ok = createQuote('/dk', 'coffeehouse.com');
    const call = await stub.call(0);
    expect([call.method, call.url.pathname, call.json]).to.deep.equal([
      'POST',
      '/dk/quotes',
      { domain: 'coffeehouse.com' },
    ]);
    call.respond(201, quote);
    expect(await ok).to.deep.equal(quote);

    const bad = [
      { ...quote, quote_id: '' },
      { ...quote, price_cents: '2500' },
      { ...quote, currency: 'usd' },
      { ...quote, expires_at: 'soon' },
    ];
    for (const [i, body] of bad.entries()) {
      const pending = createQuote('/dk', 'coffeehouse.com');
      (await stub.call(i + 1)).respond(201, body);
      expect((await rejection(pending)).code, JSON.stringify(body)).to.equal('invalid_response');
    }
    const sold = createQuote('/dk', 'coffeehouse.com');
    (await stub.call(5)).respond(409, { error: { code: 'conflict', message: 'This domain was just sold.' } });
    expect([(await rejection(sold)).code, (await rejection(createQuoteFailing())).code]).to.deep.equal([
      'conflict',
      'not_found',
    ]);

    async function createQuoteFailing(): Promise<unknown> {
      const pending = createQuote('/dk', 'nope.com');
      (await stub.call(6)).respond(404, { error: { code: 'not_found', message: 'No such domain.' } });
      return pending;
    }
  });

  it('POSTs the quote id, buyer and payment to /orders (no price) and reads price_mismatch and payment_declined', async () => {
    const details = {
      buyer: { email: 'ada@example.com' },
      payment: { method: 'test_card', card_number: '4242 4242 4242 4242' },
    };
    const order = {
      order_id: 'ord_1',
      order_token: 'tok',
      status: 'EXTERNALLY_PAID',
      domain: 'a.com',
      sale_price_cents: 100,
      currency: 'USD',
      created_at: '2030-01-01T00:00:00Z',
    };
    const ok = createOrder('/dk', 'q_1', details);
    const call = await stub.call(0);
    expect([call.method, call.url.pathname, call.json]).to.deep.equal([
      'POST',
      '/dk/orders',
      { quote_id: 'q_1', ...details },
    ]);
    call.respond(201, order);
    expect(await ok).to.deep.equal(order);

    const mismatch = createOrder('/dk', 'q_1', details);
    (await stub.call(1)).respond(422, {
      error: { code: 'price_mismatch', message: 'The price changed.', price_cents: 270000 },
    });
    const error = await rejection(mismatch);
    expect([error.code, error.status, error.priceCents]).to.deep.equal(['price_mismatch', 422, 270000]);

    const declined = createOrder('/dk', 'q_1', details);
    (await stub.call(2)).respond(402, { error: { code: 'payment_declined', message: 'Card declined.' } });
    expect((await rejection(declined)).status).to.equal(402);

    const noToken = createOrder('/dk', 'q_1', details);
    (await stub.call(3)).respond(201, { ...order, order_token: undefined });
    expect((await rejection(noToken)).code).to.equal('invalid_response');
  });

  it("sends the purchase key as Idempotency-Key and reads a conflict's order in flight", async () => {
    const details = { buyer: { email: 'ada@example.com' }, payment: { method: 'test_card' } };
    const keyed = createOrder('/dk', 'q_1', details, { purchaseKey: 'pk-0123456789abcdef' });
    const call = await stub.call(0);
    expect(call.headers.get('idempotency-key')).to.equal('pk-0123456789abcdef');
    call.respond(409, {
      error: { code: 'conflict', message: 'Wait for its status.', order_id: 'oi_1', status: 'PROCESSING' },
    });
    const error = await rejection(keyed);
    expect([error.code, error.fields.order_id, error.fields.status]).to.deep.equal(['conflict', 'oi_1', 'PROCESSING']);

    const unkeyed = createOrder('/dk', 'q_1', details);
    const plain = await stub.call(1);
    expect(plain.headers.has('idempotency-key')).to.equal(false);
    plain.respond(402, { error: { code: 'payment_declined', message: 'Declined.' } });
    await rejection(unkeyed);
  });

  it('gives up at its own deadline with upstream_timeout, but a caller abort stays an AbortError', async () => {
    const late = createOrder('/dk', 'q_1', { buyer: { email: 'a@b.co' }, payment: {} }, { deadlineMs: 50 });
    await stub.call(0); // never answered
    const error = await rejection(late);
    expect([error.code, error.status]).to.deep.equal(['upstream_timeout', 0]);

    const controller = new AbortController();
    const aborted = searchDomains('/dk', 'coffee', { signal: controller.signal, deadlineMs: 60_000 });
    await stub.call(1);
    controller.abort();
    let name = '';
    try {
      await aborted;
    } catch (caught) {
      name = (caught as Error).name;
    }
    expect(name).to.equal('AbortError');
  });

  it('GETs /orders/:id with the X-Order-Token header', async () => {
    const pending = getOrder('/dk', 'ord 1', 'tok_1');
    const call = await stub.call(0);
    expect([call.method, call.url.pathname, call.headers.get('x-order-token')]).to.deep.equal([
      'GET',
      '/dk/orders/ord%201',
      'tok_1',
    ]);
    call.respond(200, {
      order_id: 'ord 1',
      status: 'SETTLED',
      domain: 'a.com',
      sale_price_cents: 100,
      currency: 'USD',
      updated_at: 'x',
    });
    expect((await pending).status).to.equal('SETTLED');

    const wrongToken = getOrder('/dk', 'ord_1', 'nope');
    (await stub.call(1)).respond(404, { error: { code: 'not_found', message: 'No such order.' } });
    expect((await rejection(wrongToken)).code).to.equal('not_found');
  });
});
