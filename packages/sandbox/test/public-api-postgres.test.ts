/**
 * The Public API and its sign-in on a PostgreSQL server (runs when TEST_DATABASE_URL is set), in a fresh schema
 * dropped afterwards: two sandboxes share it as two processes would — one demo user (the same sign-in file in both
 * data folders), tokens issued by one accepted by the other, a refresh token spent on one refused on the other.
 */
import { describe, expect, it } from 'vitest';
import { generateInventory } from '../src/index.ts';
import { readDemoUser } from '../src/oauth/users.ts';
import { useTwoSandboxesOnOneSchema } from './helpers.ts';
import { call, refresh, signIn } from './public-api-helpers.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const listed = generateInventory({ environment: 'SANDBOX' })[0]!;

describe.skipIf(!databaseUrl)('Public API on PostgreSQL', () => {
  const sandboxes = useTwoSandboxesOnOneSchema(databaseUrl, 'dk_public_test');

  it('gives both sandboxes one demo user, with the same sign-in file in each data folder', () => {
    expect(readDemoUser(sandboxes.b.dataDir)).toEqual(readDemoUser(sandboxes.a.dataDir));
  });

  it('accepts on one sandbox the tokens issued by the other, and refuses there a refresh token spent here', async () => {
    const user = readDemoUser(sandboxes.a.dataDir);
    const { client, tokens } = await signIn(sandboxes.a, user, 'pricing:read domains:manage');
    const search = await call(sandboxes.b, {
      path: '/api/domain/search',
      json: { q: listed.name },
      token: tokens.access_token,
    });
    expect(search.json.domain.listing.price_cents).toBe(listed.price_cents);
    const bulk = await call(sandboxes.b, {
      path: '/api/domains/bulk/renew',
      json: {
        domains: [
          (await call(sandboxes.a, { path: '/api/domains?limit=1', token: tokens.access_token })).json.domains[0]
            .domain,
        ],
        years: 1,
      },
      token: tokens.access_token,
    });
    expect(bulk.json.summary.succeeded).toBe(1);
    expect((await refresh(sandboxes.b, client, tokens.refresh_token)).status).toBe(200);
    const reuse = await refresh(sandboxes.a, client, tokens.refresh_token);
    expect(reuse.json.error).toBe('invalid_grant');
    expect((await call(sandboxes.b, { path: '/api', token: tokens.access_token })).status).toBe(401);
  });
});
