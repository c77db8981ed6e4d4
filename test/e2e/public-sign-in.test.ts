/**
 * The Public API and its OAuth 2.1 sign-in, across the wire: our `PublicSignIn` (on oauth4webapi) and
 * `PublicClient` against the sandbox's authorization server, with a person signing in on the consent page in
 * headless Chromium. A masked price becomes real once signed in, and the refresh token rotates.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicClient, PublicSignIn } from '@domainkit/client';
import { startSandbox } from '@domainkit/sandbox';
import { launchChromium } from './browser.ts';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let browser: Browser;
let dataDir: string;
let callback: Server;
let redirectUri: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'domainkit-public-'));
  sandbox = await startSandbox({ port: 0, dataDir, logger: false, databaseUrl: '' });
  callback = createServer((_req, res) => res.end('signed in'));
  await new Promise<void>((ok) => callback.listen(0, '127.0.0.1', ok));
  const address = callback.address();
  if (address === null || typeof address === 'string') throw new Error('no callback address');
  redirectUri = `http://127.0.0.1:${address.port}/callback`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => callback?.close(ok));
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('signing in to the Public API', () => {
  it('unmasks prices after a PKCE sign-in on the consent page, and rotates the refresh token', async () => {
    const anonymous = new PublicClient({ baseUrl: sandbox.url });
    const masked = await anonymous.searchDomain('coffee');
    const listed = JSON.stringify(masked);
    expect(listed).toContain('"price_masked":true');

    const signIn = await PublicSignIn.discover({ baseUrl: sandbox.url });
    const client = await signIn.register({ clientName: 'domainkit e2e', redirectUris: [redirectUri] });
    const pending = await signIn.startAuthorization({ clientId: client.clientId, redirectUri, scope: 'pricing:read' });
    expect(pending.url.searchParams.get('code_challenge_method')).toBe('S256');

    const user = JSON.parse(await readFile(join(dataDir, 'sandbox-user.json'), 'utf8')) as {
      email: string;
      password: string;
    };
    const page = await browser.newPage();
    await page.goto(pending.url.href);
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.locator('button[value="allow"]').click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const tokens = await signIn.finishAuthorization(pending, page.url());
    await page.close();
    expect(tokens.scope).toContain('pricing:read');

    const session = signIn.session(client.clientId, tokens);
    const signedIn = new PublicClient({ baseUrl: sandbox.url, accessToken: session });
    const real = await signedIn.searchDomain('coffee');
    expect(JSON.stringify(real)).not.toContain('"price_masked":true');
    expect(JSON.stringify(real)).toMatch(/"price_cents":\d+/);

    const first = session.tokens;
    const rotated = await session.refresh();
    expect(rotated.refreshToken).toBeDefined();
    expect(rotated.refreshToken).not.toBe(first.refreshToken);
    expect(rotated.accessToken).not.toBe(first.accessToken);
    await expect(signIn.refresh(client.clientId, first)).rejects.toMatchObject({ code: 'invalid_grant' });
  });
});
