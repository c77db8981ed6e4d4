/**
 * Mounted in an existing Express app, the router answers only its own paths: the partner's other routes, its own
 * 404 and its own error handler are untouched (no helmet headers, no JSON errors of ours).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBff } from '../src/index.ts';
import { KEY_ID, SECRET, call, startStubMarketplace, type StubMarketplace } from './helpers.ts';

let stub: StubMarketplace;
let server: ReturnType<express.Express['listen']>;
let base: string;

beforeAll(async () => {
  stub = await startStubMarketplace();
  const app = express();
  app.use(
    createBff({ marketplace: { baseUrl: stub.url, keyId: KEY_ID, secret: SECRET, maxRetries: 0 }, logger: false }),
  );
  app.get('/about', (_req, res) => {
    res.type('text/plain').send('partner page');
  });
  app.get('/fails', () => {
    throw new Error('partner bug');
  });
  app.use((_req: express.Request, res: express.Response) => {
    res.status(404).type('text/plain').send('partner 404');
  });
  app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).type('text/plain').send('partner error page');
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await stub.close();
});

it('serves its routes at the mount path', async () => {
  const res = await call(`${base}/search?q=coffee`);
  expect(res.status).toBe(200);
  expect(res.json.query).toBe('coffee');
});

it("leaves the partner's routes, 404 and error handler alone", async () => {
  const about = await call(`${base}/about`);
  const missing = await call(`${base}/searching`);
  const fails = await call(`${base}/fails`);

  expect([about.status, about.text]).toEqual([200, 'partner page']);
  expect(about.headers['content-security-policy']).toBeUndefined();
  expect(about.headers['cache-control']).toBeUndefined();
  expect([missing.status, missing.text]).toEqual([404, 'partner 404']);
  expect([fails.status, fails.text]).toEqual([500, 'partner error page']);
});
