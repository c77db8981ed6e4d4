/**
 * Finding: webhook URLs to link-local, cloud-metadata and private addresses over https, and to any loopback port
 * over http (the sandbox's own included), were accepted and delivered: the sandbox would POST signed requests into
 * the network it runs in. Now the host is resolved and refused, with 400 `validation_error` (Partner API spec 7:
 * a malformed field), when any address it names is private, link-local, metadata, unspecified or otherwise not a
 * public one; loopback stays allowed for local development, but never the sandbox's own port. Deliveries (and the
 * admin ping) resolve the host again and refuse the same addresses, so a name that is rebound to a private address
 * after registration gets nothing.
 */
import dns from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  admin,
  newPartner,
  type PartnerTestClient,
  startTestSandbox,
  waitFor,
  WebhookReceiver,
  type TestSandbox,
} from './helpers.ts';

const SECRET = 'whsec_private_addresses_0123456789';
let t: TestSandbox;
let partner: PartnerTestClient;
let keyId: string;
const receivers: WebhookReceiver[] = [];

/** What the test's DNS answers for names under `.partner.example` (others resolve as usual). */
const zone = new Map<string, string>();

beforeAll(async () => {
  t = await startTestSandbox({ webhookTimeScale: 0.001 });
  const created = await newPartner(t.sandbox, t.clock);
  partner = created.client;
  keyId = created.credential.key_id;
  const original = dns.lookup;
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: unknown, callback: unknown) => {
    const address = zone.get(hostname);
    if (address === undefined) return (original as (...args: unknown[]) => void)(hostname, options, callback);
    const family = address.includes(':') ? 6 : 4;
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    process.nextTick(() => (all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  }) as never);
});
afterEach(() => t.clock.advance(61));
afterAll(async () => {
  vi.restoreAllMocks();
  for (const r of receivers) await r.stop();
  await t?.stop();
});

async function register(url: string) {
  const answer = await partner.request({ method: 'PUT', path: '/api/partner/webhooks', json: { url, secret: SECRET } });
  return {
    status: answer.status,
    code: answer.json?.error?.code as string | undefined,
    message: answer.json?.error?.message as string | undefined,
  };
}

describe('registration', () => {
  it.each([
    ['cloud metadata (link-local)', 'https://169.254.169.254/latest/meta-data/'],
    ['a private address', 'https://10.0.0.5/hooks'],
    ['a home-network address', 'https://192.168.1.10/hooks'],
    ['a carrier-grade NAT address (a metadata service)', 'https://100.100.100.200/hooks'],
    ['an IPv6 unique-local metadata address', 'https://[fd00:ec2::254]/hooks'],
    ['an IPv4-mapped IPv6 metadata address', 'https://[::ffff:169.254.169.254]/hooks'],
    ['the unspecified address (reaches this host)', 'https://0.0.0.0/hooks'],
    ['an IPv6 link-local address', 'https://[fe80::1]/hooks'],
  ])('refuses %s with 400 validation_error', async (_name, url) => {
    const answer = await register(url);
    expect(answer).toMatchObject({ status: 400, code: 'validation_error' });
    expect(answer.message).toMatch(/not a public address/);
  });

  it('refuses a DNS name that resolves to a private or metadata address', async () => {
    zone.set('internal.partner.example', '10.20.30.40');
    zone.set('metadata.partner.example', '169.254.169.254');
    for (const url of ['https://internal.partner.example/hooks', 'https://metadata.partner.example/hooks']) {
      const answer = await register(url);
      expect(answer, url).toMatchObject({ status: 400, code: 'validation_error' });
      expect(answer.message).toMatch(/resolves to .* not a public address/);
    }
  });

  it('refuses the sandbox’s own port on loopback, over http or https, by address or by name', async () => {
    const port = new URL(t.sandbox.url).port;
    for (const url of [
      `http://127.0.0.1:${port}/api/partner/v1/orders`,
      `http://localhost:${port}/admin/reset`,
      `https://127.0.0.1:${port}/hooks`,
    ]) {
      const answer = await register(url);
      expect(answer, url).toMatchObject({ status: 400, code: 'validation_error' });
      expect(answer.message).toMatch(/sandbox itself/);
    }
  });

  it('keeps loopback http on another port (local development) and public https', async () => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    expect(await register(receiver.url)).toMatchObject({ status: 200 });
    zone.set('shop.partner.example', '93.184.215.14');
    expect(await register('https://shop.partner.example/hooks')).toMatchObject({ status: 200 });
  });
});

describe('delivery', () => {
  it('refuses to deliver to a name rebound to a metadata address after registration, and says why', async () => {
    zone.set('rebind.partner.example', '93.184.215.14');
    expect(await register('https://rebind.partner.example/hooks')).toMatchObject({ status: 200 });
    zone.set('rebind.partner.example', '169.254.169.254');

    const ping = await admin(t.sandbox, 'POST', '/webhooks/ping', { key_id: keyId });
    expect(ping.json).toMatchObject({ ok: false, status_code: null });
    expect(ping.json.error).toMatch(/169\.254\.169\.254\b.*not a public address/);

    const fixture = await admin(t.sandbox, 'POST', '/fixtures/orders', { status: 'EXTERNALLY_PAID', key_id: keyId });
    expect(fixture.status).toBe(201);
    const attempt = await waitFor('a delivery attempt', async () => {
      const deliveries = (await admin(t.sandbox, 'GET', `/deliveries?key_id=${keyId}`)).json.deliveries as Array<{
        attempt_log: Array<{ status_code: number | null; error: string | null }>;
      }>;
      return deliveries.flatMap((d) => d.attempt_log)[0];
    });
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(/169\.254\.169\.254\b.*not a public address/);
  });
});
