/**
 * Regression (issue 26, finding 8): `DOMAINKIT_TRUST_PROXY=true` (then documented) trusted every hop, so any client
 * could send its own `X-Forwarded-For` and pass the visitor limits (40 searches, no 429), and express-rate-limit
 * wrote a multi-line stack trace to the log about it. Trust is now a number of hops or the proxies' addresses:
 * `true` is refused with a message saying what to set instead, an app that trusts every hop has the BFF trust only
 * the nearest one (said once, in one log line), and no stack reaches the log.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BffConfigError, BffOptionsError, loadBffConfigFromEnv, startBff } from '../src/index.ts';
import { KEY_ID, SECRET, call, startMountedBff, startStubMarketplace, startTestBff } from './helpers.ts';

const complete = {
  DOMAINKIT_API_BASE_URL: 'https://marketplace.example',
  DOMAINKIT_KEY_ID: KEY_ID,
  DOMAINKIT_API_SECRET: SECRET,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DOMAINKIT_TRUST_PROXY', () => {
  it.each(['true', 'TRUE'])('refuses %s, saying to set the hops or the addresses of the proxies', (value) => {
    let error: unknown;
    try {
      loadBffConfigFromEnv({ ...complete, DOMAINKIT_TRUST_PROXY: value });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(BffConfigError);
    const problem = (error as BffConfigError).problems.find((p) => p.variable === 'DOMAINKIT_TRUST_PROXY');
    expect(problem?.problem).toMatch(/X-Forwarded-For/);
    expect(problem?.problem).toMatch(/number of proxies in front \(such as 1\)/);
    expect(problem?.problem).toMatch(/addresses/);
  });

  it('takes a number of hops, or addresses and CIDR ranges (IPv4, IPv6, loopback)', () => {
    expect(loadBffConfigFromEnv({ ...complete, DOMAINKIT_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadBffConfigFromEnv({ ...complete, DOMAINKIT_TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(
      loadBffConfigFromEnv({ ...complete, DOMAINKIT_TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,fd00::/8, loopback' })
        .trustProxy,
    ).toEqual(['10.0.0.0/8', '192.0.2.1', 'fd00::/8', 'loopback']);
  });

  it.each(['yes', '10.0.0.0/40', 'everything', '1.5'])('refuses %s, naming the variable', (value) => {
    expect(() => loadBffConfigFromEnv({ ...complete, DOMAINKIT_TRUST_PROXY: value })).toThrow(/DOMAINKIT_TRUST_PROXY/);
  });
});

describe('startBff({ trustProxy })', () => {
  it('refuses true before listening, saying what to use instead', async () => {
    const stub = await startStubMarketplace();
    try {
      const started = startBff({
        marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET },
        logger: false,
        port: 0,
        trustProxy: true as never,
      });
      await expect(started).rejects.toBeInstanceOf(BffOptionsError);
      await expect(started).rejects.toThrow(/`trustProxy` .*number of proxies in front \(such as 1\)/);
    } finally {
      await stub.close();
    }
  });

  it('with one hop, counts the address the proxy saw, whatever the visitor put before it', async () => {
    const stub = await startStubMarketplace();
    const bff = await startTestBff(stub, { visitorLimits: { searchesPerMinute: 3 }, trustProxy: 1 });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await call(`${bff.url}/search?q=spoof${i}`, { headers: { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.7` } }))
            .status,
        );
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await bff.close();
      await stub.close();
    }
  });
});

describe('a BFF mounted in an app whose `trust proxy` is true', () => {
  it('trusts only the nearest hop: a visitor sending its own X-Forwarded-For still meets the limit, and no stack is logged', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const stub = await startStubMarketplace();
    const mounted = await startMountedBff(stub, true, { visitorLimits: { searchesPerMinute: 3 } });
    const { url, lines } = mounted;
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push(
          (await call(`${url}/search?q=spoof${i}`, { headers: { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.7` } }))
            .status,
        );
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);

      const written = [...lines, ...consoleError.mock.calls.flat(), ...consoleWarn.mock.calls.flat()].map((l) =>
        l instanceof Error ? `${l.message}\n${l.stack}` : String(l),
      );
      expect(written.filter((l) => /\n\s+at /.test(l) || /\\n\s+at /.test(l))).toEqual([]);
      const said = lines.filter((l) => l.includes('trust proxy'));
      expect(said).toHaveLength(1);
      expect(JSON.parse(said[0]!)).toMatchObject({ level: 40, msg: expect.stringMatching(/nearest/) });
    } finally {
      await mounted.close();
      await stub.close();
    }
  });
});
