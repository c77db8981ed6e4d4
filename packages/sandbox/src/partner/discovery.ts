/**
 * Discovery routes of the Partner API (Partner API spec 4.1 "Discovery", scope `search`), answering from the inventory of the
 * credential's environment:
 *
 * - `GET /domains/search?q=` → `{domains: [Domain, ≤ 5], next_cursor: null}`; missing or blank `q` → 400.
 * - `GET /domains/{name}` → DomainDetail; 404 `not_found` when never listed.
 * - `GET /availability?domain=` → `{domain, available, price_cents, currency}`; unlisted or sold → 200 with
 *   `available: false` and null price.
 * - `GET /pricing?domain=` → `{domain, price_cents, floor_price_cents, currency}`; 404 when not listed (never
 *   listed, or sold).
 */
import { domainNameSchema, domainParamsSchema, domainSearchParamsSchema } from '@domainkit/protocol';
import express, { type Router } from 'express';
import { authorize, credentialOf } from '../auth/authorize.ts';
import type { SandboxDb } from '../db/tables.ts';
import { apiError, parseOrThrow } from '../http/api-error.ts';
import { findDomain, searchDomains, toDomainDetailWire, toDomainWire } from '../inventory/catalog.ts';
import { scenarioDelay } from '../scenarios/scenarios.ts';

/** Builds the discovery router (mounted under `/api/partner/v1`). */
export function discoveryRouter(options: { db: SandboxDb }): Router {
  const { db } = options;
  const router = express.Router();
  const search = authorize({ scope: 'search', rateClass: 'search' });

  router.get('/domains/search', search, async (req, res) => {
    const { q } = parseOrThrow(domainSearchParamsSchema, req.query, 'query');
    const rows = await searchDomains(db, credentialOf(res).environment, q);
    res.json({ domains: rows.map(toDomainWire), next_cursor: null });
  });

  router.get('/domains/:name', search, async (req, res) => {
    const name = parseOrThrow(domainNameSchema, req.params.name, 'domain name');
    await scenarioDelay(credentialOf(res).environment, name);
    const row = await findDomain(db, credentialOf(res).environment, name);
    if (row === undefined) throw apiError('not_found', `${name} is not listed on the marketplace.`);
    res.json(toDomainDetailWire(row));
  });

  router.get('/availability', search, async (req, res) => {
    const { domain } = parseOrThrow(domainParamsSchema, req.query, 'query');
    await scenarioDelay(credentialOf(res).environment, domain);
    const row = await findDomain(db, credentialOf(res).environment, domain);
    const available = row !== undefined && row.status === 'listed';
    res.json({
      domain,
      available,
      price_cents: available ? row.price_cents : null,
      currency: available ? row.currency : null,
    });
  });

  router.get('/pricing', search, async (req, res) => {
    const { domain } = parseOrThrow(domainParamsSchema, req.query, 'query');
    await scenarioDelay(credentialOf(res).environment, domain);
    const row = await findDomain(db, credentialOf(res).environment, domain);
    if (row === undefined) throw apiError('not_found', `${domain} is not listed on the marketplace.`);
    if (row.status !== 'listed') throw apiError('not_found', `${domain} was sold and is no longer listed.`);
    res.json({
      domain,
      price_cents: row.price_cents,
      floor_price_cents: row.floor_price_cents,
      currency: row.currency,
    });
  });

  return router;
}
