/**
 * The Partner API's OpenAPI 3.1 document: served by the sandbox at `GET /api/partner/openapi.json` (no signature
 * needed), the same document `@domainkit/protocol` builds; and the answer checker the suites use
 * (`openapi-check.ts`) refuses answers the document does not describe.
 */
import { buildPartnerApiDocument } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from './openapi-check.ts';
import { send, startTestSandbox, type TestSandbox } from './helpers.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t?.stop());

describe('GET /api/partner/openapi.json', () => {
  it('serves the OpenAPI 3.1 document of the Partner API, unsigned, with this sandbox as its server', async () => {
    const answer = await send(t.sandbox, { path: '/api/partner/openapi.json' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json).toEqual(buildPartnerApiDocument({ serverUrl: t.sandbox.url }));
    expect(answer.json.openapi).toBe('3.1.0');
    expect(answer.json.servers[0].url).toBe(`${t.sandbox.url}/api/partner`);
    expect(Object.keys(answer.json.webhooks)).toContain('order.settled');
    expect(answer.json.components.securitySchemes.signature.name).toBe('X-Service-Signature');
  });
});

describe('the answer checker', () => {
  it('refuses a body that misses a documented field, and an undocumented status', () => {
    expect(() =>
      expectAnswersMatchPartnerApiDocument([
        { method: 'GET', path: '/api/partner/v1/domains/search', status: 200, json: { results: [] } },
      ]),
    ).toThrow(/must have required property 'domains'/);
    expect(() =>
      expectAnswersMatchPartnerApiDocument([
        { method: 'GET', path: '/api/partner/v1/orders/ord_1', status: 418, json: {} },
      ]),
    ).toThrow(/status not documented/);
    expect(
      expectAnswersMatchPartnerApiDocument([
        {
          method: 'POST',
          path: '/api/partner/v1/orders',
          status: 422,
          json: { error: { code: 'quote_expired', message: 'The quote expired.', request_id: 'req_1' } },
        },
      ]),
    ).toBe(1);
  });
});
