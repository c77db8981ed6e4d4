/**
 * The brokerage feature (`GET /brokerage/eligibility`, `POST /brokerage`; Partner API spec 1 item 4, 2.6, 4.1
 * "Brokerage"): a visitor asks the marketplace's brokers to acquire an unlisted name; the partner earns a cut at
 * settlement. Off unless the shop turns it on (option `brokerage`). Cases are kept in the BFF's database, and
 * `brokerage.case_completed` (through the webhook inbox, which runs each event's handlers once) records their outcome.
 * The entry every other module of the BFF imports it through.
 */
import { eventCaseSchema, type MarketplaceEvent } from '@domainkit/protocol';
import type { BffDb } from '../db/tables.ts';
import type { RouteSpec } from '../http/index.ts';
import { recordCaseOutcome } from './case-store.ts';
import { createCaseRoute, eligibilityRoute, type BrokerageRouteDeps } from './routes.ts';

export { BROKERAGE_ATTEMPT_HEADER, createCaseRoute, eligibilityRoute, type BrokerageRouteDeps } from './routes.ts';
export { listStoredCases, recordCaseOutcome } from './case-store.ts';
export {
  brokerageOptionsShape,
  resolveBrokerage,
  readBrokerageEnv,
  BROKERAGE_ENV_VARIABLES,
  BROKERAGE_OPTION_KEYS,
  DEFAULT_BROKERAGE_TIER,
  DEFAULT_MIN_BUDGET_CENTS,
  type BrokerageOptions,
  type BrokerageTier,
  type ResolvedBrokerage,
} from './options.ts';

/** What the handler composes of the brokerage feature. */
export interface BrokerageFeature {
  /**
   * `GET /brokerage/eligibility` (counted as a search by the visitor limits) and `POST /brokerage` (a write:
   * cross-site requests refused, counted as a write); both answered within the visitor deadline.
   */
  readonly routes: readonly RouteSpec[];
  /**
   * The BFF's own `brokerage.case_completed` handler: records the case's outcome in the database (idempotent). The
   * inbox runs it beside the partner's `onEvent` handlers, once per event however often it is delivered.
   */
  readonly onCaseCompleted: (event: MarketplaceEvent) => Promise<void>;
}

/** The brokerage feature, made once per BFF. */
export function brokerageFeature(deps: BrokerageRouteDeps): BrokerageFeature {
  return {
    routes: [
      { path: '/brokerage/eligibility', GET: eligibilityRoute(deps), limit: 'search' },
      { path: '/brokerage', POST: createCaseRoute(deps), limit: 'write', sameSiteWrite: true },
    ],
    async onCaseCompleted(event) {
      if (event.type !== 'brokerage.case_completed') return;
      const parsed = eventCaseSchema.safeParse(event.data?.case);
      if (!parsed.success) return;
      const c = parsed.data;
      const db: BffDb = await deps.db();
      await recordCaseOutcome(db, deps.keyId, {
        caseId: c.case_id,
        status: c.status,
        dealPriceCents: c.deal_price_cents ?? null,
        commissionCents: c.commission_cents ?? null,
        now: new Date(deps.now()),
      });
    },
  };
}
