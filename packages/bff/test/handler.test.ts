/**
 * The web-standard handler (`createBffHandler`) and its Node listener, as a partner on a fetch-based host uses
 * them: routes below `basePath`, a 404 in the BFF's shape elsewhere, nothing opened before the first request (so a
 * build that imports the module opens no database), background work in `scheduled()`, and the same answers through
 * `toNodeListener` on a plain Node `http` server.
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBffHandler, toNodeListener, type BffHandler } from '../src/index.ts';
import { KEY_ID, SECRET, call, startStubMarketplace, type StubMarketplace } from './helpers.ts';

let stub: StubMarketplace;
const closers: Array<() => Promise<void>> = [];
beforeAll(async () => {
  stub = await startStubMarketplace();
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await stub?.close();
});

function handler(overrides: Record<string, unknown> = {}): BffHandler {
  const h = createBffHandler({
    marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 },
    checkCredential: false,
    logger: false,
    basePath: '/dk',
    ...overrides,
  });
  closers.push(() => h.close());
  return h;
}

describe('createBffHandler', () => {
  it('answers its routes below basePath, and 404 not_found in its own shape elsewhere', async () => {
    const h = handler();
    const search = await h.fetch(new Request('https://shop.example/dk/search?q=coffee'));
    expect(search.status).toBe(200);
    expect(((await search.json()) as { query: string }).query).toBe('coffee');
    expect(search.headers.get('cache-control')).toBe('no-store');
    expect(search.headers.get('strict-transport-security')).toMatch(/max-age/);

    const hit = await h.fetch(new Request('https://shop.example/dk/search?q=coffee'));
    expect([hit.status, hit.headers.get('cache-status')]).toEqual([200, 'domainkit-bff; hit']);
    expect(hit.headers.get('content-security-policy')).toBe(search.headers.get('content-security-policy'));

    for (const path of ['/search?q=coffee', '/dk/nothing', '/dkx/search?q=coffee']) {
      const missing = await h.fetch(new Request(`https://shop.example${path}`));
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
      expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('takes the visitor’s address from a function the host gives, asked only when a limit needs it', async () => {
    const h = handler({ visitorLimits: { searchesPerMinute: 2 } });
    const asked: string[] = [];
    // One function per visitor, made the same way (as a host's recipe makes it for every request).
    const from = (address: string) => ({
      clientAddress: () => {
        asked.push(address);
        return address;
      },
    });
    const search = (q: string, address: string) =>
      h.fetch(new Request(`https://shop.example/dk/search?q=${q}`), from(address));

    const first = [];
    for (const q of ['coffee', 'tea', 'cocoa']) first.push((await search(q, '198.51.100.1')).status);
    const other = await search('mate', '198.51.100.2');
    asked.length = 0;
    const cached = await search('coffee', '198.51.100.1');

    expect(first).toEqual([200, 200, 429]);
    expect(other.status).toBe(200);
    // A search answered from memory is not limited, so the host's lookup is not made.
    expect([cached.status, cached.headers.get('cache-status'), asked]).toEqual([200, 'domainkit-bff; hit', []]);
  });

  it('answers 405 with Allow for another method on a known path', async () => {
    const res = await handler().fetch(new Request('https://shop.example/dk/search?q=coffee', { method: 'DELETE' }));
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('refuses its own bad options at creation, naming them', () => {
    expect(() => handler({ basePath: 'dk/' })).toThrow(/`basePath`/);
    expect(() => handler({ trustProxy: true })).toThrow(/`trustProxy` must not be true/);
  });

  it('opens no database until the first request, then opens it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-lazy-'));
    try {
      const h = handler({ database: { dataDir }, webhook: { secret: 'whsec_lazy_test_secret_0123456789' } });
      expect(existsSync(join(dataDir, 'pgdata'))).toBe(false);
      const ready = await h.fetch(new Request('http://localhost/dk/readyz'));
      expect(ready.status).toBe(200);
      expect(existsSync(join(dataDir, 'pgdata'))).toBe(true);
      await h.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('runs a round of background work in scheduled(), without timers, and says what it did', async () => {
    const h = handler({
      database: { memory: true },
      webhook: { secret: 'whsec_scheduled_test_secret_0123456789' },
      background: 'scheduled',
    });
    const before = stub.callsTo('events').length;
    const report = await h.scheduled();
    expect(report.catchUp).toMatchObject({ fetched: expect.any(Number), stored: expect.any(Number) });
    expect(stub.callsTo('events').length).toBe(before + 1);
  });
});

describe('toNodeListener', () => {
  it('serves the handler on a plain Node http server', async () => {
    const h = handler();
    const server = createServer(toNodeListener(h)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const first = await call(`${base}/dk/search?q=tea`);
    const second = await call(`${base}/dk/search?q=tea`);
    const missing = await call(`${base}/elsewhere`);
    expect([first.status, second.status, second.headers['cache-status']]).toEqual([200, 200, 'domainkit-bff; hit']);
    expect(second.json).toEqual(first.json);
    expect([missing.status, missing.json.error.code]).toEqual([404, 'not_found']);
  });
});
