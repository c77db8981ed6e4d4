/**
 * The Partner API contract, written once (STYLE "In this project"): what every marketplace the kit talks to must
 * do, checked over HTTP through `@domainkit/client` (which signs each request and parses each answer with
 * `@domainkit/protocol`'s schemas). It runs against the sandbox and against the BFF tests' stub marketplace
 * (`partner-api.test.ts`), so neither can drift from the protocol nor from each other; a partner can run it
 * against the real service with a test credential.
 *
 * It lives under the workspace's `test/` (cross-package tests) rather than in a package: it needs the client and
 * vitest, and neither the sandbox (which must never import the client) nor the client (which ships no test
 * runner) may carry it.
 */
import { MarketplaceError, PartnerClient } from '@domainkit/client';
import { ERROR_CODES, EVENT_TYPES, ORDER_STATUSES, type Domain, type Order } from '@domainkit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswersMatchPartnerApiDocument } from '../../packages/sandbox/test/openapi-check.ts';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.ts';

/** A Partner API credential (Partner API spec 5.1): the public key id and its HMAC secret. */
export interface PartnerCredential {
  readonly keyId: string;
  readonly secret: string;
}

/** What the contract needs to know about the marketplace's inventory. */
export interface PartnerApiContractOptions {
  /** A search query that finds at least two domains available for sale. */
  readonly query: string;
  /** A webhook URL the marketplace accepts in `PUT /api/partner/webhooks` (never called by the contract). */
  readonly webhookUrl: string;
}

async function refusal(promise: Promise<unknown>): Promise<MarketplaceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketplaceError);
  return error as MarketplaceError;
}

/**
 * Registers the contract's tests (vitest `describe`/`it`) for the marketplace at `baseUrl()`. `baseUrl` and
 * `credential` are functions so the caller may start the service in `beforeAll`.
 *
 * Partner API spec 2.1–2.5, 4.1, 5.1, 7: signed discovery, checkout sessions, quotes, idempotent orders, the event
 * history and webhook registration, and the spec's error codes for unsigned and mis-signed requests. Every request
 * goes through a recording proxy; the last test checks every answer against the Partner API's OpenAPI document
 * (`@domainkit/protocol`), closed: a status, a body field or a header of the API the document does not declare fails.
 */
export function runPartnerApiContract(
  baseUrl: () => string,
  credential: () => PartnerCredential,
  options: PartnerApiContractOptions,
): void {
  let proxy: RecordingProxy | undefined;
  const url = () => proxy!.url;
  const client = () => new PartnerClient({ baseUrl: url(), ...credential(), maxRetries: 0 });
  let forSale: Domain[] = [];
  let order: Order | undefined;

  describe('the Partner API contract', () => {
    beforeAll(async () => {
      proxy = await startRecordingProxy(baseUrl);
    });
    afterAll(() => proxy?.close());

    it('refuses an unsigned request with the Partner API spec 7 code missing_credentials (401)', async () => {
      const res = await fetch(`${url()}/api/partner/v1/domains/search?q=${encodeURIComponent(options.query)}`);
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('missing_credentials');
      expect(ERROR_CODES.missing_credentials.status).toBe(401);
      expect(body.error.message).not.toBe('');
    });

    it('refuses a request signed with the wrong secret: invalid_signature (401)', async () => {
      const wrong = new PartnerClient({
        baseUrl: url(),
        keyId: credential().keyId,
        secret: `${credential().secret}x`,
        maxRetries: 0,
      });
      const error = await refusal(wrong.searchDomains(options.query));
      expect({ status: error.status, code: error.code }).toEqual({ status: 401, code: 'invalid_signature' });
    });

    it('searches: at most 5 domains, each with its price in minor units', async () => {
      const { domains } = await client().searchDomains(options.query);
      expect(domains.length).toBeGreaterThan(0);
      expect(domains.length).toBeLessThanOrEqual(5);
      forSale = domains.filter((d) => d.available);
      expect(forSale.length).toBeGreaterThanOrEqual(2);
    });

    it('answers one domain with the price search showed, and not_found (404) for an unlisted one', async () => {
      const [first] = forSale;
      const detail = await client().getDomain(first!.domain);
      expect({ domain: detail.domain, price: detail.price_cents, currency: detail.currency }).toEqual({
        domain: first!.domain,
        price: first!.price_cents,
        currency: first!.currency,
      });
      const error = await refusal(client().getDomain('contract-never-listed-7f3a.com'));
      expect({ status: error.status, code: error.code }).toEqual({ status: 404, code: 'not_found' });
    });

    it('creates a checkout session: an absolute http(s) checkout_url that expires in the future', async () => {
      const session = await client().createCheckoutSession({ domain: forSale[1]!.domain });
      expect(session.checkout_url).toMatch(/^https?:\/\//);
      expect(Date.parse(session.expires_at)).toBeGreaterThan(Date.now());
    });

    it('quotes, then records an order once per Idempotency-Key (MoR, Partner API spec 2.2)', async () => {
      const { domain, price_cents, currency } = forSale[0]!;
      const quote = await client().quotes.create({ domain });
      expect({ domain: quote.domain, price: quote.price_cents, currency: quote.currency }).toEqual({
        domain,
        price: price_cents,
        currency,
      });
      expect(Date.parse(quote.expires_at)).toBeGreaterThan(Date.now());

      const body = {
        domain,
        quote_id: quote.quote_id,
        expected_price: quote.price_cents,
        currency: quote.currency,
        buyer: { email: 'buyer@example.com' },
        external_payment_ref: 'pay_contract_0001',
      };
      const key = `contract-${Date.now()}`;
      order = await client().orders.create(body, { idempotencyKey: key });
      expect({ domain: order.domain, status: order.status, price: order.sale_price_cents }).toEqual({
        domain,
        status: 'EXTERNALLY_PAID',
        price: price_cents,
      });
      const replay = await client().orders.create(body, { idempotencyKey: key });
      expect(replay.public_id).toBe(order.public_id);

      const reused = await refusal(
        client().orders.create({ ...body, external_payment_ref: 'pay_contract_0002' }, { idempotencyKey: key }),
      );
      expect({ status: reused.status, code: reused.code }).toEqual({ status: 409, code: 'conflict' });
    });

    it('reads the order back, and refuses to quote a domain that is sold (409 conflict)', async () => {
      const read = await client().orders.retrieve(order!.public_id);
      expect(read.public_id).toBe(order!.public_id);
      expect(ORDER_STATUSES).toContain(read.status);
      const error = await refusal(client().quotes.create({ domain: order!.domain }));
      expect({ status: error.status, code: error.code }).toEqual({ status: 409, code: 'conflict' });
    });

    it('lists the order.recorded event of the order in the event history (Partner API spec 2.5)', async () => {
      const recorded = [];
      for await (const event of client().events.list()) {
        expect(typeof event.type).toBe('string');
        if (event.type === 'order.recorded' && event.data.order?.public_id === order!.public_id) recorded.push(event);
      }
      expect(recorded).toHaveLength(1);
      expect(EVENT_TYPES).toContain(recorded[0]!.type);
    });

    it('registers a webhook URL and never echoes the secret (Partner API spec 2.4)', async () => {
      const secret = `whsec_contract_${'x'.repeat(24)}`;
      const registration = await client().webhooks.register({ url: options.webhookUrl, secret });
      expect({ url: registration.url, active: registration.active }).toEqual({ url: options.webhookUrl, active: true });
      expect(JSON.stringify(registration)).not.toContain(secret);
    });

    it('answered every request as the Partner API OpenAPI document declares: status, every field, every header', () => {
      expect(expectAnswersMatchPartnerApiDocument(proxy!.answers)).toBeGreaterThanOrEqual(10);
    });
  });
}
