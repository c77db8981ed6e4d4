/**
 * Discovery over HTTP (Partner API spec 4.1 "Discovery"): keyword search (≤ 5 results with prices), one domain, availability and
 * pricing, with their 400/404/`available:false` cases.
 */
import { domainDetailSchema, domainSearchResponseSchema, availabilitySchema, pricingSchema } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { generateInventory } from '../src/index.ts';
import { PartnerTestClient, startTestSandbox, type TestSandbox, partnerAnswers } from './helpers.ts';

const V1 = '/api/partner/v1';
let t: TestSandbox;
let client: PartnerTestClient;
const inventory = generateInventory({ environment: 'SANDBOX' });

beforeAll(async () => {
  t = await startTestSandbox();
  client = new PartnerTestClient(t.sandbox, t.sandbox.demo, t.clock.now);
});
afterAll(() => t?.stop());

async function search(q: string) {
  const answer = await client.request({ path: `${V1}/domains/search`, query: { q } });
  expect(answer.status).toBe(200);
  return domainSearchResponseSchema.parse(answer.json);
}

describe('GET /domains/search', () => {
  it('answers between 1 and 5 domains with prices for a common word, each containing it', async () => {
    const { domains, next_cursor } = await search('coffee');
    expect(domains.length).toBeGreaterThanOrEqual(1);
    expect(domains.length).toBeLessThanOrEqual(5);
    expect(next_cursor).toBeNull();
    for (const d of domains) {
      expect(d.domain).toContain('coffee');
      expect(d.domain.endsWith(`.${d.tld}`)).toBe(true);
      expect(Number.isInteger(d.price_cents) && d.price_cents >= 50_000).toBe(true);
      expect(d.price_cents % 100).toBe(0);
      expect(d.currency).toBe('USD');
      expect(d.available).toBe(true);
    }
  });

  it('never answers more than 5, even for a query matching hundreds of names', async () => {
    const { domains } = await search('e');
    expect(domains).toHaveLength(5);
  });

  it('ranks the exact domain name first', async () => {
    const target = inventory.find((d) => d.words.length === 2)!;
    const { domains } = await search(target.name);
    expect(domains[0]!.domain).toBe(target.name);
  });

  it('matches the words inside labels: a two-word query finds a name made of both words first', async () => {
    const target = inventory.find((d) => d.words.length === 2 && d.label.length <= 14)!;
    const { domains } = await search(target.words.join(' '));
    expect(
      domains[0]!.domain.startsWith(`${target.label}.`) ||
        domains[0]!.domain.startsWith(`${target.words[1]}${target.words[0]}.`),
    ).toBe(true);
  });

  it('segments a run-together query into words (lakehouse finds names with lake or house)', async () => {
    const { domains } = await search('lakehouse');
    expect(domains.length).toBeGreaterThan(0);
    for (const d of domains) expect(/lake|house/.test(d.domain)).toBe(true);
  });

  it('is case-insensitive and deterministic', async () => {
    const a = await search('Green');
    const b = await search('green');
    expect(a).toEqual(b);
    expect(a.domains.length).toBeGreaterThan(0);
  });

  it('finds the internationalised scenario name by its xn-- label, with or without its TLD', async () => {
    for (const q of ['xn--mnchen-3ya', 'xn--mnchen-3ya.de']) {
      expect((await search(q)).domains.map((d) => d.domain)[0], q).toBe('xn--mnchen-3ya.de');
    }
  });

  it('answers an empty list when nothing matches', async () => {
    expect((await search('zzqxj')).domains).toEqual([]);
  });

  it('answers 400 validation_error when q is missing, blank or repeated', async () => {
    for (const query of [undefined, { q: '' }, { q: '   ' }, 'q=a&q=b'] as const) {
      const answer = await client.request({ path: `${V1}/domains/search`, ...(query ? { query } : {}) });
      expect({ status: answer.status, code: answer.json.error.code }).toEqual({
        status: 400,
        code: 'validation_error',
      });
      expect(answer.json.error.message).toMatch(/q/);
    }
  });

  it('answers 400 validation_error for a q longer than 100 characters', async () => {
    const answer = await client.request({ path: `${V1}/domains/search`, query: { q: 'a'.repeat(101) } });
    expect(answer.status).toBe(400);
  });
});

describe('GET /domains/{name}', () => {
  it('answers the detail of a listed domain', async () => {
    const target = inventory[10]!;
    const answer = await client.request({ path: `${V1}/domains/${target.name}` });
    expect(answer.status).toBe(200);
    expect(domainDetailSchema.parse(answer.json)).toEqual({
      domain: target.name,
      tld: target.tld,
      available: true,
      price_cents: target.price_cents,
      currency: 'USD',
      words: target.words,
      listed_at: target.listed_at.toISOString(),
      status: 'listed',
    });
  });

  it('answers 404 not_found for an unlisted domain', async () => {
    const answer = await client.request({ path: `${V1}/domains/not-a-listed-name.com` });
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it('answers 400 validation_error for a malformed name', async () => {
    const answer = await client.request({ path: `${V1}/domains/not_a_domain` });
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({ status: 400, code: 'validation_error' });
  });
});

describe('GET /availability', () => {
  it('answers available with the buy-now price for a listed domain', async () => {
    const target = inventory[20]!;
    const answer = await client.request({ path: `${V1}/availability`, query: { domain: target.name.toUpperCase() } });
    expect(answer.status).toBe(200);
    expect(availabilitySchema.parse(answer.json)).toEqual({
      domain: target.name,
      available: true,
      price_cents: target.price_cents,
      currency: 'USD',
    });
  });

  it('answers 200 available:false with a null price for an unlisted domain', async () => {
    const answer = await client.request({ path: `${V1}/availability`, query: { domain: 'unlisted-example.com' } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      domain: 'unlisted-example.com',
      available: false,
      price_cents: null,
      currency: null,
    });
  });

  it('answers 400 validation_error without a domain', async () => {
    const answer = await client.request({ path: `${V1}/availability` });
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({ status: 400, code: 'validation_error' });
  });
});

describe('GET /pricing', () => {
  it('answers the buy-now and floor prices of a listed domain', async () => {
    const target = inventory[30]!;
    const answer = await client.request({ path: `${V1}/pricing`, query: { domain: target.name } });
    expect(answer.status).toBe(200);
    const pricing = pricingSchema.parse(answer.json);
    expect(pricing).toEqual({
      domain: target.name,
      price_cents: target.price_cents,
      floor_price_cents: target.floor_price_cents,
      currency: 'USD',
    });
    expect(pricing.floor_price_cents).toBeLessThan(pricing.price_cents);
  });

  it('answers 404 not_found for an unlisted domain', async () => {
    const answer = await client.request({ path: `${V1}/pricing`, query: { domain: 'unlisted-example.com' } });
    expect({ status: answer.status, code: answer.json.error.code }).toEqual({ status: 404, code: 'not_found' });
  });
});

it('every Partner API answer of this suite matches the Partner API OpenAPI document', () => {
  expect(expectAnswersMatchPartnerApiDocument(partnerAnswers)).toBeGreaterThan(0);
});
