/**
 * The webhook sender as a good citizen (events/outbox.ts): endpoints are independent (a hanging endpoint never
 * delays another partner's deliveries, and holds at most its concurrency bound of connections), 410 Gone disables
 * the endpoint while every event stays in `GET /events`, and two sandboxes on one PostgreSQL (TEST_DATABASE_URL)
 * deliver 200 events with no attempt sent twice and the attempts of each event in order.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxDb } from '../src/index.ts';
import { PER_ENDPOINT_CONCURRENCY } from '../src/events/outbox.ts';
import { announceEvents, emitEvent } from '../src/events/store.ts';
import { admin, dropSchema, newPartner, startTestSandbox, waitFor, type TestSandbox } from './helpers.ts';

const SECRET = 'whsec_sender_test_secret_0000001';

/** One request as an endpoint saw it. */
interface Arrival {
  readonly eventId: string;
  readonly attempt: number;
  readonly at: number;
}

/** A webhook endpoint on 127.0.0.1:0 whose answer to each request is decided by `answer` (`'hang'`: never). */
class Endpoint {
  readonly arrivals: Arrival[] = [];
  open = 0;
  maxOpen = 0;
  answer: (arrival: Arrival) => { status: number; delayMs?: number } | 'hang' = () => ({ status: 200 });
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        const arrival = {
          eventId: String(req.headers['x-service-event-id']),
          attempt: Number(req.headers['x-service-delivery-attempt']),
          at: Date.now(),
        };
        this.arrivals.push(arrival);
        this.open++;
        this.maxOpen = Math.max(this.maxOpen, this.open);
        res.on('close', () => this.open--);
        const answer = this.answer(arrival);
        if (answer === 'hang') return;
        const finish = () => {
          if (!res.destroyed) res.writeHead(answer.status).end();
        };
        if (answer.delayMs) setTimeout(finish, answer.delayMs);
        else finish();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const endpoints: Endpoint[] = [];
afterAll(async () => {
  for (const e of endpoints) await e.stop();
});

async function endpoint(): Promise<Endpoint> {
  const e = await new Endpoint().start();
  endpoints.push(e);
  return e;
}

/** A new partner whose webhooks go to `target`. */
async function registeredPartner(on: TestSandbox, target: Endpoint) {
  const partner = await newPartner(on.sandbox, on.clock);
  const put = await partner.client.request({
    method: 'PUT',
    path: '/api/partner/webhooks',
    json: { url: target.url, secret: SECRET },
  });
  expect(put.status).toBe(200);
  return partner;
}

/** Stores one `order.recorded` event for a credential, as a recorded sale would, and wakes the workers. */
async function emit(db: SandboxDb, credential: { key_id: string; partner_id: string }, n: number): Promise<string> {
  const event = await db.transaction().execute((trx) =>
    emitEvent(trx, {
      keyId: credential.key_id,
      partnerId: credential.partner_id,
      type: 'order.recorded',
      data: { order: { public_id: `ord_test_${n}`, domain: `event-${n}.com`, status: 'EXTERNALLY_PAID' } },
      now: new Date(),
    }),
  );
  announceEvents([event]);
  return event.id;
}

let t: TestSandbox;
beforeAll(async () => {
  // The host's clock: these tests are about real waiting (a hanging endpoint, the attempt timeout).
  t = await startTestSandbox({ webhookTimeScale: 0.001, webhookTimeoutMs: 4000, now: Date.now });
});
afterAll(() => t?.stop());

describe('endpoints are independent', () => {
  it('a hanging endpoint never delays another partner: the fast one gets each event within a second', async () => {
    const hanging = await endpoint();
    hanging.answer = () => 'hang';
    const fast = await endpoint();
    const slow = await registeredPartner(t, hanging);
    const quick = await registeredPartner(t, fast);

    const emittedAt = new Map<string, number>();
    for (let i = 0; i < 8; i++) {
      await emit(t.sandbox.db, slow.credential, i);
      const id = await emit(t.sandbox.db, quick.credential, i);
      emittedAt.set(id, Date.now());
      // Spread the events over a few attempt timeouts of the hanging endpoint.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await waitFor('the fast endpoint to receive every event', () => fast.arrivals.length >= 8);
    expect(fast.arrivals.map((a) => a.eventId).sort()).toEqual([...emittedAt.keys()].sort());
    for (const arrival of fast.arrivals) {
      expect(arrival.at - emittedAt.get(arrival.eventId)!, arrival.eventId).toBeLessThan(1000);
    }
    // The hanging endpoint holds at most its bound of connections, never one per event.
    expect(hanging.arrivals.length).toBeGreaterThan(0);
    expect(hanging.maxOpen).toBeLessThanOrEqual(PER_ENDPOINT_CONCURRENCY);
  });
});

describe('410 Gone', () => {
  it('disables the endpoint (active: false), sends it nothing more, and keeps every event listed', async () => {
    const gone = await endpoint();
    gone.answer = () => ({ status: 410 });
    const partner = await registeredPartner(t, gone);
    const first = await emit(t.sandbox.db, partner.credential, 1);
    await waitFor('the 410 answer', () => gone.arrivals.length >= 1);
    const registration = await waitFor('the endpoint to be disabled', async () => {
      const answer = await partner.client.request({ path: '/api/partner/webhooks' });
      return answer.json.active === false ? answer : undefined;
    });
    expect(registration.status).toBe(200);
    expect(registration.json).toMatchObject({ url: gone.url, active: false });

    const later = await emit(t.sandbox.db, partner.credential, 2);
    const deliveries = (await admin(t.sandbox, 'GET', `/deliveries?key_id=${partner.credential.key_id}`)).json
      .deliveries as Array<{ event_id: string; status: string; attempts: number; last_error: string }>;
    expect(deliveries).toEqual([
      expect.objectContaining({
        event_id: first,
        status: 'failed',
        attempts: 1,
        last_error: expect.stringMatching(/410/),
      }),
    ]);
    const listed = await partner.client.request({ path: '/api/partner/v1/events' });
    expect(listed.json.events.map((e: { id: string }) => e.id)).toEqual([first, later]);
    // Nothing was retried and nothing new was sent (the worker polls at least every second).
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(gone.arrivals).toEqual([expect.objectContaining({ eventId: first, attempt: 1 })]);

    // Registering again turns it back on.
    gone.answer = () => ({ status: 200 });
    const again = await partner.client.request({
      method: 'PUT',
      path: '/api/partner/webhooks',
      json: { url: gone.url, secret: SECRET },
    });
    expect(again.json.active).toBe(true);
    const third = await emit(t.sandbox.db, partner.credential, 3);
    await waitFor('the new event', () => gone.arrivals.some((a) => a.eventId === third));
  });

  it('GET /webhooks answers 404 not_found before anything is registered', async () => {
    const { client } = await newPartner(t.sandbox, t.clock);
    const answer = await client.request({ path: '/api/partner/webhooks' });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)('two sandboxes on one PostgreSQL', () => {
  const schema = `dk_sender_test_${randomBytes(6).toString('hex')}`;
  let a: TestSandbox;
  let b: TestSandbox;
  beforeAll(async () => {
    const options = {
      databaseUrl: databaseUrl!,
      schema,
      webhookTimeScale: 0.001,
      webhookTimeoutMs: 1000,
      now: Date.now,
    };
    a = await startTestSandbox(options);
    b = await startTestSandbox(options);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    if (databaseUrl) await dropSchema(databaseUrl, schema);
  });
  it('deliver 200 events with no attempt sent twice, the attempts of each event in order', async () => {
    const target = await endpoint();
    // Some first attempts fail (a retry follows), some answers are slow: the claims and leases get exercised.
    target.answer = ({ eventId, attempt }) => {
      const n = Number(eventId.slice(4));
      if (attempt === 1 && n % 5 === 0) return { status: 500 };
      return { status: 200, delayMs: n % 7 === 0 ? 150 : 0 };
    };
    const partners = [];
    for (let i = 0; i < 4; i++) partners.push(await registeredPartner(i % 2 === 0 ? a : b, target));
    const emitted: string[] = [];
    for (let i = 0; i < 200; i++) {
      const on = i % 2 === 0 ? a : b;
      emitted.push(await emit(on.sandbox.db, partners[i % 4]!.credential, i));
    }
    await waitFor(
      'every event to be acknowledged',
      () => new Set(target.arrivals.filter((x) => x.attempt > 0).map((x) => x.eventId)).size === 200 && isSettled(),
      60_000,
    );
    function isSettled() {
      const byEvent = attemptsByEvent();
      return emitted.every((id) => {
        const attempts = byEvent.get(id) ?? [];
        return Number(id.slice(4)) % 5 === 0 ? attempts.length === 2 : attempts.length === 1;
      });
    }
    function attemptsByEvent() {
      const map = new Map<string, number[]>();
      for (const x of target.arrivals) map.set(x.eventId, [...(map.get(x.eventId) ?? []), x.attempt]);
      return map;
    }
    const pairs = target.arrivals.map((x) => `${x.eventId}#${x.attempt}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const [id, attempts] of attemptsByEvent()) {
      expect(attempts, id).toEqual(Number(id.slice(4)) % 5 === 0 ? [1, 2] : [1]);
    }
    // Both processes did part of the work.
    const deliveredBy = (s: TestSandbox) => s.logs.entries().filter((l) => l.msg === 'webhook delivered').length;
    expect(deliveredBy(a)).toBeGreaterThan(0);
    expect(deliveredBy(b)).toBeGreaterThan(0);
    await waitFor('both logs to be written', () => deliveredBy(a) + deliveredBy(b) >= 200);
    expect(deliveredBy(a) + deliveredBy(b)).toBe(200);
  }, 90_000);
});
