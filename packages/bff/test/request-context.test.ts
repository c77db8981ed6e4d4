/**
 * Request ids and the info access line in the BFF alone (the stub marketplace): the id is answered, readable
 * across origins, forwarded upstream and on every line; a refused origin is named at warn, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../src/http/request-context.ts';
import { SHOP_ORIGIN, call, startStubMarketplace, startTestBff, type StubMarketplace } from './helpers.ts';

let stub: StubMarketplace;
let bff: Awaited<ReturnType<typeof startTestBff>>;

beforeAll(async () => {
  stub = await startStubMarketplace();
  bff = await startTestBff(stub);
});
afterAll(async () => {
  await bff?.close();
  await stub?.close();
});

const entries = () => bff.lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('request context', () => {
  it('answers the id, lets an allowed origin read it, and logs one info line per request', async () => {
    const res = await call(`${bff.url}/search?q=coffee`, { headers: { origin: SHOP_ORIGIN } });
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    await expect.poll(() => entries().filter((e) => e.req_id === id && e.msg === 'request')).toHaveLength(1);
    const line = entries().find((e) => e.req_id === id && e.msg === 'request')!;
    expect(line).toMatchObject({ level: 30, method: 'GET', route: '/search', status: 200, upstream_calls: 1 });
    expect(line).not.toHaveProperty('req');
    expect(line).not.toHaveProperty('res');
  });

  it('logs the line of a search answered from memory too: a hit, no upstream call', async () => {
    await call(`${bff.url}/search?q=espresso`);
    const res = await call(`${bff.url}/search?q=espresso`, { headers: { 'x-request-id': 'req_from_the_widget_01' } });
    expect(res.headers['cache-status']).toBe('domainkit-bff; hit');
    expect(res.headers['x-request-id']).toBe('req_from_the_widget_01');
    await expect
      .poll(() => entries().filter((e) => e.req_id === 'req_from_the_widget_01'))
      .toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'request',
          method: 'GET',
          route: '/search',
          status: 200,
          cache: 'hit',
          upstream_calls: 0,
        }),
      ]);
  });

  it('names a refused origin at warn, once', async () => {
    for (let i = 0; i < 3; i++)
      await call(`${bff.url}/search?q=tea`, { headers: { origin: 'https://elsewhere.test' } });
    const warnings = entries().filter((e) => e.level === 40 && e.origin === 'https://elsewhere.test');
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!.msg)).toMatch(/add this origin to allowedOrigins/);
  });
});

describe('newUuid', () => {
  it('makes random version 4 UUIDs, each new, across batches', () => {
    const made = Array.from({ length: 1000 }, () => newUuid());
    for (const id of made) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(made).size).toBe(made.length);
    // Every hex digit shows up in every free position (random, not a counter): 1000 draws of 16 values.
    for (const at of [0, 9, 15, 20, 35]) expect(new Set(made.map((id) => id[at])).size).toBe(16);
  });
});
