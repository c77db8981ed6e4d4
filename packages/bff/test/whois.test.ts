/**
 * `GET /whois?domain=`: who holds a domain (registrar, registration date) through the Public API's WHOIS
 * (`POST /api/tools/whois`, anonymous), for the widget's "Who holds it?": bad input refused before anything goes
 * upstream, answers cached by domain, lookups that reach upstream bounded by the BFF's own budget, and the route off
 * with `whois: false`.
 */
import { describe, expect, it } from 'vitest';
import { call, useFreshStubAndBff } from './helpers.ts';

describe('GET /whois', () => {
  const setup = useFreshStubAndBff();

  it('says who holds a domain, the registrant left out, asking the Public API anonymously', async () => {
    const { stub, url } = await setup();

    const res = await call(`${url}/whois?domain=Coffee.com`);

    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      domain: 'coffee.com',
      registered: true,
      registrar: 'Harborline Registrar, LLC',
      registered_at: '2004-03-17T09:30:00.000Z',
    });
    const upstream = stub.callsTo('public-whois');
    expect(upstream).toHaveLength(1);
    expect(upstream[0]).toMatchObject({ method: 'POST', path: '/api/tools/whois' });
    expect(JSON.parse(upstream[0]!.body)).toEqual({ domain: 'coffee.com' });
    expect(Object.keys(upstream[0]!.headers).filter((h) => /^x-service-|^authorization$/i.test(h))).toEqual([]);

    const free = await call(`${url}/whois?domain=nobody-has-this.org`);
    expect(free.json).toEqual({
      domain: 'nobody-has-this.org',
      registered: false,
      registrar: null,
      registered_at: null,
    });
  });

  it.each([
    ['no domain', ''],
    ['an empty domain', '?domain='],
    ['a phrase', '?domain=coffee%20shop'],
    ['a NUL', '?domain=coffee%00.com'],
    ['a scheme', '?domain=https://coffee.com'],
    ['another parameter', '?domain=coffee.com&registrant=1'],
  ])('refuses %s with 400 naming domain, before anything goes upstream', async (_name, query) => {
    const { stub, url } = await setup();

    const res = await call(`${url}/whois${query}`);

    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('validation_error');
    expect(res.json.error.message).toMatch(/domain|registrant/);
    expect(stub.callsTo('public-whois')).toHaveLength(0);
  });

  it('answers a domain again from its cache for a day, then asks again', async () => {
    let now = Date.UTC(2030, 0, 1);
    const { stub, url } = await setup({ now: () => now });

    const first = await call(`${url}/whois?domain=coffee.com`);
    now += 23 * 3_600_000;
    const again = await call(`${url}/whois?domain=COFFEE.com`);

    expect(again.json).toEqual(first.json);
    expect(stub.callsTo('public-whois')).toHaveLength(1);
    now += 2 * 3_600_000 + 1; // past its day: asked again (first with a background refresh of the kept answer)
    await call(`${url}/whois?domain=coffee.com`);
    await expect.poll(() => stub.callsTo('public-whois').length).toBe(2);
  });

  it('spends at most its budget upstream: past it, 503 busy with Retry-After and nothing sent', async () => {
    const now = Date.UTC(2030, 0, 1);
    // 8 a minute: a burst of 2, then one every 7.5 s.
    const { stub, url } = await setup({ now: () => now, whois: { lookupsPerMinute: 8 } });

    const a = await call(`${url}/whois?domain=coffee.com`);
    const b = await call(`${url}/whois?domain=tea.com`);
    const c = await call(`${url}/whois?domain=cocoa.com`);
    const cached = await call(`${url}/whois?domain=coffee.com`);

    expect([a.status, b.status, cached.status]).toEqual([200, 200, 200]);
    expect(c.status).toBe(503);
    expect(c.json.error.code).toBe('busy');
    expect(Number(c.headers['retry-after'])).toBe(8);
    expect(stub.callsTo('public-whois')).toHaveLength(2);
  });

  it('is off with whois: false (the path passes through)', async () => {
    const { stub, url } = await setup({ whois: false });

    const res = await call(`${url}/whois?domain=coffee.com`);

    expect(res.status).toBe(404);
    expect(stub.callsTo('public-whois')).toHaveLength(0);
  });
});
