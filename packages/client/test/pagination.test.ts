/**
 * Cursor lists as async iterables: pages fetched lazily with the previous `next_cursor` (as `cursor`, or as
 * `after_id` for events), filters kept on every page, the walk ending on `next_cursor: null` or an empty page,
 * and a server that answers the same cursor twice stopped instead of looped.
 */
import { describe, expect, it } from 'vitest';
import { eventAnswer, mockAgentPerTest, orderAnswer, script, testClient, type ReceivedRequest } from './helpers.ts';

const agent = mockAgentPerTest();

const ORDERS = (p: string) => p.startsWith('/api/partner/v1/orders?');
const EVENTS = (p: string) => p.startsWith('/api/partner/v1/events');

describe('client.orders.list', () => {
  it('walks every page, sending the cursor and the filters each time', async () => {
    const a = agent();
    const received: ReceivedRequest[] = [];
    script(
      a,
      'GET',
      ORDERS,
      [
        {
          status: 200,
          body: { orders: [orderAnswer('ord_1', 'SETTLED'), orderAnswer('ord_2', 'SETTLED')], next_cursor: 'cur_2' },
        },
        { status: 200, body: { orders: [orderAnswer('ord_3', 'SETTLED')], next_cursor: 'cur 3/x' } },
        { status: 200, body: { orders: [orderAnswer('ord_4', 'SETTLED')], next_cursor: null } },
      ],
      received,
    );
    const { client } = testClient(a);

    const ids: string[] = [];
    for await (const order of client.orders.list({ status: 'SETTLED', limit: 2 })) ids.push(order.public_id);

    expect(ids).toEqual(['ord_1', 'ord_2', 'ord_3', 'ord_4']);
    expect(received.map((r) => r.query)).toEqual([
      'limit=2&status=SETTLED',
      'cursor=cur_2&limit=2&status=SETTLED',
      'cursor=cur%203%2Fx&limit=2&status=SETTLED',
    ]);
  });

  it('fetches only the pages it needs when iteration stops early', async () => {
    const a = agent();
    const received = script(a, 'GET', ORDERS, [
      { status: 200, body: { orders: [orderAnswer('ord_1'), orderAnswer('ord_2')], next_cursor: 'cur_2' } },
    ]);
    const { client } = testClient(a);

    const firstTwo = await client.orders.list().toArray({ max: 2 });

    expect(firstTwo.map((o) => o.public_id)).toEqual(['ord_1', 'ord_2']);
    expect(received).toHaveLength(1);
    a.assertNoPendingInterceptors();
  });

  it('stops with a clear error when the server answers the same cursor again', async () => {
    const a = agent();
    script(a, 'GET', ORDERS, [
      { status: 200, body: { orders: [orderAnswer('ord_1')], next_cursor: 'cur_1' } },
      { status: 200, body: { orders: [orderAnswer('ord_2')], next_cursor: 'cur_1' } },
    ]);
    const { client } = testClient(a);

    await expect(client.orders.list().toArray()).rejects.toThrow('answered the cursor "cur_1" twice');
  });
});

describe('client.events.list', () => {
  it('catches up from after_id, passing next_cursor as the next after_id, until next_cursor is null', async () => {
    const a = agent();
    const received = script(a, 'GET', EVENTS, [
      {
        status: 200,
        body: {
          events: [eventAnswer('evt_2'), eventAnswer('evt_3', 'order.transfer_started', 'TRANSFER_IN_PROGRESS')],
          next_cursor: 'evt_3',
        },
      },
      { status: 200, body: { events: [eventAnswer('evt_4', 'order.settled', 'SETTLED')], next_cursor: null } },
    ]);
    const { client } = testClient(a);

    const seen: string[] = [];
    for await (const event of client.events.list({ after_id: 'evt_1', limit: 2 }))
      seen.push(`${event.id}:${event.type}`);

    expect(seen).toEqual(['evt_2:order.recorded', 'evt_3:order.transfer_started', 'evt_4:order.settled']);
    expect(received.map((r) => r.query)).toEqual(['after_id=evt_1&limit=2', 'after_id=evt_3&limit=2']);
  });

  it('ends on an empty page even if the server still sends a cursor, and exposes each page', async () => {
    const a = agent();
    script(a, 'GET', EVENTS, [{ status: 200, body: { events: [], next_cursor: 'evt_9' } }]);
    const { client } = testClient(a);

    const pages = [];
    for await (const page of client.events.list({ after_id: 'evt_9' }).pages()) pages.push(page);

    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ items: [], nextCursor: 'evt_9' });
  });

  it('passes an error answer of a later page to the loop', async () => {
    const a = agent();
    script(a, 'GET', EVENTS, [
      { status: 200, body: { events: [eventAnswer('evt_1')], next_cursor: 'evt_1' } },
      { status: 403, body: { error: { code: 'forbidden', message: 'The credential lacks the webhook scope' } } },
    ]);
    const { client } = testClient(a);

    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of client.events.list()) seen.push(event.id);
    })().catch((e: unknown) => e);

    expect(seen).toEqual(['evt_1']);
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
  });
});
