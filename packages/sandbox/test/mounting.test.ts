/**
 * `createSandboxApp`: the sandbox mounted inside another Express app, under a path prefix. Signatures cover the
 * full path as requested, and checkout links and the lander follow the mount path.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandboxApp, generateInventory, type SandboxApp } from '../src/index.ts';
import { LogCapture, PartnerTestClient, removeDir, send, tokenOf, freshPgliteDataDir } from './helpers.ts';

const dataDir = freshPgliteDataDir('dk-sandbox-');
let sandbox: SandboxApp;
let server: Server;
let base: string;
let checkoutUrl: string;
const logs = new LogCapture();

beforeAll(async () => {
  sandbox = await createSandboxApp({ dataDir, databaseUrl: '', logger: logs.logger });
  const host = express();
  host.get('/', (_req, res) => res.send('partner home'));
  host.use('/market', sandbox.app);
  server = createServer(host);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  server?.closeAllConnections();
  await sandbox?.close();
  removeDir(dataDir);
});

it('authenticates the full mounted path and builds checkout links under the mount path', async () => {
  const target = { url: base };
  const client = new PartnerTestClient(target, sandbox.demo);
  const domain = generateInventory({ environment: 'SANDBOX' })[3]!.name;
  const session = await client.request({
    method: 'POST',
    path: '/market/api/partner/v1/checkout-session',
    json: { domain },
  });
  expect(session.status).toBe(201);
  expect(session.json.checkout_url.startsWith(`${base}/market/checkout?pt=`)).toBe(true);
  checkoutUrl = session.json.checkout_url;

  const page = await send(target, { path: '/market/checkout', query: `pt=${tokenOf(session.json.checkout_url)}` });
  expect(page.status).toBe(200);
  expect(page.text).toContain('action="/market/checkout/pay"');
  expect(page.text).toContain('href="/market/checkout/lander.css"');

  const full = await client.request({ path: '/market/api/partner/v1/domains/search', query: { q: 'sun' } });
  expect(full.status).toBe(200);
  // Signing the path without the mount prefix is signing a shortened path.
  const signed = await client.signer.sign({ method: 'GET', path: '/api/partner/v1/domains/search', query: 'q=sun' });
  const shortened = await send(target, {
    path: '/market/api/partner/v1/domains/search',
    query: signed.query,
    headers: signed.headers,
  });
  expect({ status: shortened.status, code: shortened.json.error.code }).toEqual({
    status: 401,
    code: 'invalid_signature',
  });
});

// Runs last: it closes the database under the running app.
it('answers 500 internal_error with a generic message, and logs the detail, when the database is gone', async () => {
  const target = { url: base };
  await sandbox.close();
  const client = new PartnerTestClient(target, sandbox.demo);
  const answer = await client.request({ path: '/market/api/partner/v1/domains/search', query: { q: 'sun' } });
  expect(answer.status).toBe(500);
  expect(answer.json.error.code).toBe('internal_error');
  expect(answer.json.error.request_id).toBe(answer.headers.get('x-request-id'));
  expect(answer.json.error.message).not.toMatch(/destroy|kysely|pglite|driver|\.ts/i);
  const logged = logs.entries().find((e) => e.msg === 'unexpected error' && e.req_id === answer.json.error.request_id);
  expect(logged?.err).toBeTruthy();

  const lander = await send(target, { path: '/market/checkout', query: `pt=${tokenOf(checkoutUrl)}` });
  expect(lander.status).toBe(500);
  expect(lander.headers.get('content-type')).toMatch(/^text\/html/);
  expect(lander.text).toContain('No payment was taken');
  expect(lander.text).not.toMatch(/destroy|kysely|pglite|driver|\.ts/i);
});
