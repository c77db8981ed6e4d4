/**
 * The client's Partner API endpoints are protocol's operation table (`PARTNER_API_OPERATIONS`), one for one: an
 * operation of the table without a client endpoint, or a client endpoint the table does not hold, fails here. Each
 * endpoint sends what the table says: method, path, input, rate class and Idempotency-Key rule.
 */
import { PARTNER_API_OPERATIONS, type PartnerOperation } from '@domainkit/protocol';
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

const endpoints = [brokerage, checkout, discovery, events, mor, referral, reporting]
  .flatMap((module) => Object.values(module))
  .filter(isEndpoint);
const operations = Object.entries(PARTNER_API_OPERATIONS) as [string, PartnerOperation][];

/** `GET /api/partner/v1/domains/{name}`: what an endpoint and an operation are matched by. */
const route = (method: string, path: string) => `${method} ${path}`;
const operationRoute = (op: PartnerOperation) => route(op.method, `/api/partner${op.path}`);

describe('one endpoint table', () => {
  it('the client has an endpoint for every operation of the table, and none beyond it', () => {
    const client = endpoints.map((endpoint) => route(endpoint.method, endpoint.path));
    const table = operations.map(([, op]) => operationRoute(op));

    expect({
      'in the table, not in the client': table.filter((r) => !client.includes(r)),
      'in the client, not in the table': client.filter((r) => !table.includes(r)),
      'twice in the client': client.filter((r, i) => client.indexOf(r) !== i),
    }).toEqual({
      'in the table, not in the client': [],
      'in the client, not in the table': [],
      'twice in the client': [],
    });
  });

  it.each(operations)('%s: the client sends what the table says', (_operationId, op) => {
    const endpoint = endpoints.find((e) => route(e.method, e.path) === operationRoute(op));

    expect(endpoint).toBeDefined();
    expect(endpoint!.input).toBe(op.input);
    expect(endpoint!.rateClass).toBe(op.rateClass);
    // Only a required key is made up by the client; an optional one is sent when the caller gives it.
    expect(endpoint!.idempotencyKey === 'required').toBe(op.idempotencyKey === 'required');
  });
});
