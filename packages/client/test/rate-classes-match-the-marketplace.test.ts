/**
 * The rate class a client endpoint hands its budget is the class the marketplace counts it in: for every Partner
 * API endpoint of the client, the class equals the one the contract (protocol's OpenAPI document, which the sandbox
 * enforces) gives the same method and path. A budget keyed by class (the BFF's token buckets, a partner's own)
 * then spends each request from the bucket the marketplace drains.
 */
import { buildPartnerApiDocument } from '@domainkit/protocol';
import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/endpoint.ts';
import * as brokerage from '../src/resources/brokerage.ts';
import * as checkout from '../src/resources/checkout.ts';
import * as discovery from '../src/resources/discovery.ts';
import * as events from '../src/resources/events.ts';
import * as mor from '../src/resources/mor.ts';
import * as referral from '../src/resources/referral.ts';
import * as reporting from '../src/resources/reporting.ts';

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;

/** `GET /domains/{}`: the method and the path under `/api/partner`, placeholders unnamed. */
const key = (method: string, path: string): string =>
  `${method.toUpperCase()} ${path.replace(/^\/api\/partner/, '').replace(/\{[^}]+\}/g, '{}')}`;

const contract = new Map<string, string>();
for (const [path, methods] of Object.entries(buildPartnerApiDocument().paths as Record<string, object>)) {
  for (const [method, operation] of Object.entries(methods as Record<string, { description?: string }>)) {
    const rateClass = /Rate class `([a-z]+)`/.exec(operation.description ?? '')?.[1];
    if (rateClass) contract.set(key(method, path), rateClass);
  }
}

const endpoints = [brokerage, checkout, discovery, events, mor, referral, reporting]
  .flatMap((module) => Object.values(module))
  .filter(isEndpoint);

describe("the client's rate classes", () => {
  it('reads the classes of the contract', () => {
    expect(contract.size).toBeGreaterThan(20);
    expect(endpoints.length).toBeGreaterThan(20);
  });

  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path}: the class the marketplace counts it in`, () => {
      const expected = contract.get(key(endpoint.method, endpoint.path));
      expect(expected, `the contract has no ${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(endpoint.rateClass, `${endpoint.name}'s rate class`).toBe(expected);
    });
  }
});
