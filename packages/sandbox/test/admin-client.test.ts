/**
 * The sandbox as a test tool: the typed admin client (`createSandboxAdmin`) and the fixtures put an order in every
 * state of Partner API spec 3, a brokerage case and a referral sale in one call each, inject a fault, follow events and ping a
 * webhook endpoint; refusals name the URL called.
 */
import { ORDER_STATUSES, type OrderStatus } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxAdmin, SandboxAdminError, type SandboxAdmin } from '../src/index.ts';
import { PartnerTestClient, startTestSandbox, type TestSandbox, WebhookReceiver, waitFor } from './helpers.ts';

let t: TestSandbox;
let admin: SandboxAdmin;

beforeAll(async () => {
  t = await startTestSandbox({ webhookTimeScale: 0.001 });
  // Only the data folder: the client finds the URL (server.json) and the admin token (credentials.json) there.
  admin = createSandboxAdmin({ dataDir: t.dataDir });
});
afterAll(() => t?.stop());

/** The events each state's history emits, in order. */
const HISTORIES: Record<OrderStatus, string[]> = {
  EXTERNALLY_PAID: ['order.recorded'],
  HELD_FOR_REVIEW: ['order.recorded', 'order.held_for_review'],
  TRANSFER_IN_PROGRESS: ['order.recorded', 'order.transfer_started'],
  TRANSFER_COMPLETED: ['order.recorded', 'order.transfer_started', 'order.transfer_completed'],
  SETTLED: ['order.recorded', 'order.transfer_started', 'order.transfer_completed', 'order.settled'],
  REFUNDED: ['order.recorded', 'order.refunded'],
  CANCELLED: ['order.recorded', 'order.refunded'],
};

describe('createSandboxAdmin', () => {
  it('finds the sandbox from its data folder alone', () => {
    expect(admin.url).toBe(t.sandbox.url);
  });

  it.each(ORDER_STATUSES)('puts an order in %s in one call, with the events of a real history', async (status) => {
    const before = await admin.events.list({ key_id: t.sandbox.demo.key_id, limit: 500 });
    const { order, events } = await admin.fixtures.order({ status });
    expect(order.status).toBe(status);
    expect(events.map((e) => e.type)).toEqual(HISTORIES[status]);
    expect(events.every((e) => (e.data.order as { public_id: string }).public_id === order.public_id)).toBe(true);
    expect(order.timeline?.map((s) => s.status).at(-1)).toBe(status);
    // The same events are in the history, after what was there before.
    const after = await admin.events.list({ key_id: t.sandbox.demo.key_id, after_id: before.events.at(-1)?.id });
    expect(after.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    const listed = await admin.orders.list({ status });
    expect(listed.orders.map((o) => o.public_id)).toContain(order.public_id);
  });

  it('walks through a manual review on request, and settles only the fixture order', async () => {
    const waiting = await admin.fixtures.order({ status: 'TRANSFER_COMPLETED' });
    const { order, events } = await admin.fixtures.order({ status: 'SETTLED', via_review: true });
    expect(events.map((e) => e.type)).toEqual([
      'order.recorded',
      'order.held_for_review',
      'order.manual_review_cleared',
      'order.transfer_started',
      'order.transfer_completed',
      'order.settled',
    ]);
    expect(order.settlement_id).toMatch(/^stl_/);
    const still = await admin.orders.list({ status: 'TRANSFER_COMPLETED' });
    expect(still.orders.map((o) => o.public_id)).toContain(waiting.order.public_id);
  });

  it('moves a fixture order on with the typed triggers, and a refused move names the URL and the reason', async () => {
    const { order } = await admin.fixtures.order({ status: 'TRANSFER_IN_PROGRESS' });
    const moved = await admin.orders.confirmDelivery(order.public_id);
    expect(moved.order.status).toBe('TRANSFER_COMPLETED');
    expect(moved.events.map((e) => e.type)).toEqual(['order.transfer_completed']);
    const refused = await admin.orders.refund(order.public_id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SandboxAdminError);
    expect(refused).toMatchObject({ status: 409, code: 'conflict' });
    expect((refused as Error).message).toContain(`${t.sandbox.url}/admin/orders/${order.public_id}/refund`);
    expect((refused as Error).message).toMatch(/only possible before TRANSFER_COMPLETED/);
  });

  it('creates a brokerage case in each status and a referral sale', async () => {
    for (const status of ['OPEN', 'CONTACTING_OWNER', 'NEGOTIATING', 'CLOSED_NO_DEAL'] as const) {
      const made = await admin.fixtures.brokerageCase({ status });
      expect(made.case.status).toBe(status);
      expect(made.events).toEqual([]);
    }
    const deal = await admin.fixtures.brokerageCase({ status: 'CLOSED_DEAL', deal_price_cents: 420_000 });
    expect(deal.case).toMatchObject({ status: 'CLOSED_DEAL', deal_price_cents: 420_000 });
    expect(deal.events.map((e) => e.type)).toEqual(['brokerage.case_completed']);

    const sale = await admin.fixtures.referralSale({ clicks: 3 });
    expect(sale.sale.status).toBe('COMPLETED');
    expect(sale.sale.commission_cents).toBeGreaterThan(0);
    expect(sale.link).toMatchObject({ clicks: 3, sales: 1, domain: sale.sale.domain });
    const refunded = await admin.fixtures.referralSale({ status: 'REFUNDED' });
    expect(refunded.sale.status).toBe('REFUNDED');
  });

  it('injects a fault a partner request meets, and turns it off', async () => {
    await admin.faults.set({ error_rate: 1 });
    expect((await admin.faults.get()).error_rate).toBe(1);
    const failing = await fetch(`${t.sandbox.url}/api/partner/v1/domains/search?q=coffee`);
    expect(failing.status).toBe(500);
    expect(((await failing.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    await admin.faults.off();
    const unsigned = await fetch(`${t.sandbox.url}/api/partner/v1/domains/search?q=coffee`);
    expect(unsigned.status).toBe(401);
  });

  it('follows events as they happen', async () => {
    const stop = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of admin.events.follow({ intervalMs: 20, signal: stop.signal })) {
        seen.push(event.type);
        if (seen.length === 2) stop.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 100));
    await admin.fixtures.order({ status: 'HELD_FOR_REVIEW' });
    await following;
    expect(seen).toEqual(['order.recorded', 'order.held_for_review']);
  });

  it('pings the webhook endpoint with a signed delivery and reports its answer', async () => {
    const none = await admin.webhooks.ping().catch((e: unknown) => e);
    expect(none).toMatchObject({ status: 404, code: 'not_found' });
    const receiver = await new WebhookReceiver().start();
    try {
      const partner = new PartnerTestClient(t.sandbox, t.sandbox.demo, t.clock.now);
      const registered = await partner.request({
        method: 'PUT',
        path: '/api/partner/webhooks',
        json: { url: receiver.url, secret: t.sandbox.demo.webhook_secret },
      });
      expect(registered.status).toBe(200);
      const ping = await admin.webhooks.ping();
      expect(ping).toMatchObject({ ok: true, status_code: 200, url: receiver.url });
      const got = await waitFor('the ping', () => receiver.deliveries.find((d) => d.json.id === ping.event_id));
      expect(got.json.type).toBe('webhook.ping');
      receiver.respond = () => ({ status: 503 });
      const refused = await admin.webhooks.ping();
      expect(refused).toMatchObject({ ok: false, status_code: 503 });
    } finally {
      await receiver.stop();
    }
  });

  it('names the URL in a refused token and in an unreachable sandbox', async () => {
    const wrong = createSandboxAdmin({ url: t.sandbox.url, adminToken: 'not-the-token-of-this-sandbox' });
    const refused = await wrong.faults.get().catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized' });
    expect((refused as Error).message).toContain(`${t.sandbox.url}/admin/faults`);
    const gone = createSandboxAdmin({ url: 'http://127.0.0.1:9', adminToken: 'x' });
    const unreachable = await gone.reset().catch((e: unknown) => e);
    expect(unreachable).toMatchObject({ status: 0, code: 'unreachable' });
    expect((unreachable as Error).message).toContain('http://127.0.0.1:9/admin/reset');
  });
});
