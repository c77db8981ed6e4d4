/**
 * The sandbox on a PostgreSQL server (runs when TEST_DATABASE_URL is set, e.g.
 * postgres://postgres@127.0.0.1:5432/test), in a fresh schema dropped afterwards. Two sandboxes share the schema,
 * as two processes would: one demo credential, one nonce table, one inventory.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../src/index.ts';
import { PartnerTestClient, pay, readCredentialFiles, send, tokenOf, useTwoSandboxesOnOneSchema } from './helpers.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const V1 = '/api/partner/v1';

describe.skipIf(!databaseUrl)('on PostgreSQL', () => {
  const sandboxes = useTwoSandboxesOnOneSchema(databaseUrl, 'dk_sandbox_test');

  it('stores its tables in the chosen schema', async () => {
    expect(sandboxes.a.sandbox.databaseKind).toBe('postgres');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string }>(
        'select table_name from information_schema.tables where table_schema = $1 order by 1',
        [sandboxes.schema],
      );
      expect(rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['checkout_sessions', 'credentials', 'domains', 'nonces', 'sales', 'sandbox_meta']),
      );
    } finally {
      await client.end();
    }
  });

  it('gives both sandboxes one demo credential, written to each data folder', () => {
    expect(sandboxes.b.sandbox.demo).toEqual(sandboxes.a.sandbox.demo);
    expect(readCredentialFiles([sandboxes.a.dataDir, sandboxes.b.dataDir])).toEqual([
      sandboxes.a.sandbox.demo,
      sandboxes.a.sandbox.demo,
    ]);
  });

  it('searches, sells through the lander, and reports the sale on the other sandbox', async () => {
    const clientA = new PartnerTestClient(sandboxes.a.sandbox, sandboxes.a.sandbox.demo, sandboxes.a.clock.now);
    const clientB = new PartnerTestClient(sandboxes.b.sandbox, sandboxes.b.sandbox.demo, sandboxes.b.clock.now);
    const found = await clientA.request({ path: `${V1}/domains/search`, query: { q: 'garden' } });
    expect(found.status).toBe(200);
    const domain = (found.json.domains as Array<{ domain: string }>)[0]!.domain;
    const session = await clientA.request({ method: 'POST', path: `${V1}/checkout-session`, json: { domain } });
    expect(session.status).toBe(201);
    const paid = await pay(sandboxes.b.sandbox, {
      pt: tokenOf(session.json.checkout_url),
      card_number: TEST_CARDS.succeeds,
    });
    expect(paid.status).toBe(303);
    const availability = await clientB.request({ path: `${V1}/availability`, query: { domain } });
    expect(availability.json.available).toBe(false);
  });

  it('sells a domain once when payments for it race on both sandboxes', async () => {
    const clientA = new PartnerTestClient(sandboxes.a.sandbox, sandboxes.a.sandbox.demo, sandboxes.a.clock.now);
    const found = await clientA.request({ path: `${V1}/domains/search`, query: { q: 'harbor' } });
    const domain = (found.json.domains as Array<{ domain: string; available: boolean }>).find(
      (d) => d.available,
    )!.domain;
    const sessions = await Promise.all(
      Array.from({ length: 6 }, () =>
        clientA.request({ method: 'POST', path: `${V1}/checkout-session`, json: { domain } }),
      ),
    );
    const results = await Promise.all(
      sessions.map((s, i) =>
        pay(i % 2 === 0 ? sandboxes.a.sandbox : sandboxes.b.sandbox, {
          pt: tokenOf(s.json.checkout_url),
          card_number: TEST_CARDS.succeeds,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 303)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    expect(
      await sandboxes.a.sandbox.db.selectFrom('sales').select('id').where('domain', '=', domain).execute(),
    ).toHaveLength(1);
  });

  it('detects a replay sent to the other sandbox', async () => {
    const clientA = new PartnerTestClient(sandboxes.a.sandbox, sandboxes.a.sandbox.demo, sandboxes.a.clock.now);
    const first = await clientA.request({ path: `${V1}/domains/search`, query: { q: 'river' } });
    expect(first.status).toBe(200);
    const replay = await send(sandboxes.b.sandbox, {
      path: `${V1}/domains/search`,
      query: first.sent.query,
      headers: first.sent.headers,
    });
    expect({ status: replay.status, code: replay.json.error.code }).toEqual({ status: 401, code: 'replay_detected' });
  });
});
