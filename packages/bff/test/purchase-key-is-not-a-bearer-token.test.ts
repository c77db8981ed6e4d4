/**
 * Finding: the purchase key worked as a bearer token. `POST /orders` (or `POST /quotes`) with another visitor's
 * purchase key and a bogus quote answered that visitor's order with a fresh order token, and the owner's token
 * stopped working. Now the key is bound to its quote: presented with another quote, or without it, it reveals
 * nothing and mints nothing; and a retry's order token is added to the order's tokens, never replacing them.
 */
import { describe, expect, it } from 'vitest';
import { testCardPayments } from '../src/index.ts';
import { call, databaseKinds, postJson, startTestBff, useDatabaseAndStub, type Answer } from './helpers.ts';

const GOOD_CARD = { method: 'test_card', card_number: '4242 4242 4242 4242' };
const DECLINED_CARD = { method: 'test_card', card_number: '4000 0000 0000 0002' };
const BUYER = { email: 'owner@example.com' };
const OWNER_KEY = { 'idempotency-key': '0c7d2f4e-91a3-4b5e-8f60-2a1b3c4d5e6f' };

/** Nothing of an order in an answer: no id, no token, no status of it. */
function revealsNoOrder(answer: Answer): void {
  expect(answer.status, JSON.stringify(answer.json)).not.toBe(200);
  expect(answer.json.order_id).toBeUndefined();
  expect(answer.json.order_token).toBeUndefined();
  expect(answer.json.error?.order_id).toBeUndefined();
}

describe.each(databaseKinds())('the purchase key on %s', (kind) => {
  const fx = useDatabaseAndStub(kind);

  async function shop() {
    const payments = testCardPayments();
    const bff = await startTestBff(fx.stub, {
      database: fx.testDb.database,
      payments,
      background: { enabled: false },
    });
    fx.closers.push(() => bff.close());
    return { bff, payments };
  }

  /** The owner quotes and buys with their key; returns the quote and the 201 answer. */
  async function ownerBuys(url: string) {
    const quote = await postJson(`${url}/quotes`, { domain: 'coffeehouse.com' });
    expect(quote.status).toBe(201);
    const bought = await postJson(
      `${url}/orders`,
      { quote_id: quote.json.quote_id, buyer: BUYER, payment: GOOD_CARD },
      OWNER_KEY,
    );
    expect(bought.status).toBe(201);
    return { quoteId: quote.json.quote_id as string, order: bought.json };
  }

  const view = (url: string, orderId: string, token: string) =>
    call(`${url}/orders/${orderId}`, { headers: { 'x-order-token': token } });

  it('POST /orders with the owner key and a bogus quote reveals nothing; the owner token keeps working', async () => {
    const { bff, payments } = await shop();
    const { order } = await ownerBuys(bff.url);

    const stolen = await postJson(
      `${bff.url}/orders`,
      { quote_id: 'qt_bogus.sig', buyer: { email: 'thief@example.com' }, payment: GOOD_CARD },
      OWNER_KEY,
    );

    revealsNoOrder(stolen);
    expect(stolen.json.error.money).toBe('not_charged');
    expect((await view(bff.url, order.order_id, order.order_token)).status).toBe(200);
    expect(payments.charges.size).toBe(1);
    expect(fx.stub.callsTo('order')).toHaveLength(1);
  });

  it('POST /quotes with the owner key, without its quote or with another, reveals nothing', async () => {
    const { bff } = await shop();
    const { order } = await ownerBuys(bff.url);

    const withoutQuote = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' }, OWNER_KEY);
    const otherQuote = await postJson(
      `${bff.url}/quotes`,
      { domain: 'coffeehouse.com', quote_id: 'qt_bogus.sig' },
      OWNER_KEY,
    );

    revealsNoOrder(withoutQuote);
    revealsNoOrder(otherQuote);
    expect((await view(bff.url, order.order_id, order.order_token)).status).toBe(200);
  });

  it('a retry with the key and its quote adds a token: the first one keeps working', async () => {
    const { bff, payments } = await shop();
    const { quoteId, order } = await ownerBuys(bff.url);

    const retry = await postJson(
      `${bff.url}/orders`,
      { quote_id: quoteId, buyer: BUYER, payment: GOOD_CARD },
      OWNER_KEY,
    );
    const requote = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com', quote_id: quoteId }, OWNER_KEY);

    expect([retry.status, retry.json.order_id]).toEqual([201, order.order_id]);
    expect([requote.status, requote.json.order_id]).toEqual([200, order.order_id]);
    const tokens = [order.order_token, retry.json.order_token, requote.json.order_token];
    expect(new Set(tokens).size).toBe(3);
    for (const token of tokens) expect((await view(bff.url, order.order_id, token)).status).toBe(200);
    expect((await view(bff.url, order.order_id, 'not-a-token-of-this-order')).status).toBe(404);
    expect(payments.charges.size).toBe(1);
  });

  it('a key whose attempt ended (declined) may pay a new quote: a new attempt, charged once', async () => {
    const { bff, payments } = await shop();
    const first = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });
    const declined = await postJson(
      `${bff.url}/orders`,
      { quote_id: first.json.quote_id, buyer: BUYER, payment: DECLINED_CARD },
      OWNER_KEY,
    );
    expect(declined.status).toBe(402);

    const second = await postJson(`${bff.url}/quotes`, { domain: 'coffeehouse.com' });
    const paid = await postJson(
      `${bff.url}/orders`,
      { quote_id: second.json.quote_id, buyer: BUYER, payment: GOOD_CARD },
      OWNER_KEY,
    );

    expect(paid.status).toBe(201);
    expect([...payments.charges.values()].map((c) => c.status)).toEqual(['declined', 'captured']);
    expect(fx.stub.callsTo('order')).toHaveLength(1);
  });
});
