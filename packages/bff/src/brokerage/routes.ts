/**
 * The brokerage routes (Partner API spec 2.6, 4.1 "Brokerage"; docs/spec-decisions.md "Brokerage through the BFF"):
 *
 * - `GET /brokerage/eligibility?domain=` → `{domain, eligible, reason, tier, currency, min_budget_cents}`: the
 *   marketplace's eligibility (`reason` `listed`, `live_site`, `open_case`, or null) and the shop's offer.
 * - `POST /brokerage` `{domain, buyer_email, budget_cents, consent: true, locale?}` with `Idempotency-Key` (one per
 *   visitor attempt) → 201 the case with its no-login `progress_url`; the same attempt sent again answers 200 the same
 *   case. Every field is checked before anything goes upstream; then eligibility (409 `conflict` with `reason`), a
 *   token of the shop's upstream write budget (503 `busy`), and only then `POST /brokerage` upstream with the tier
 *   the partner configured.
 */
import { named } from '../http/widget.ts';
import { MarketplaceError, MarketplaceResponseError } from '@domainkit/client';
import {
  ErrorCode,
  widgetBrokerageEligibilityQuerySchema,
  widgetBrokerageRequestSchema,
  type WidgetBrokerageCase,
  type WidgetBrokerageEligibility,
} from '@domainkit/protocol';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { BffDb } from '../db/tables.ts';
import { toCents } from '../db/tables.ts';
import { BffHttpError } from '../errors.ts';
import { type BffRequest, JSON_BODY_LIMIT_BYTES, json, readJson, type RouteHandler } from '../http/index.ts';
import type { BffUpstreamBudget } from '../upstream/budget.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import { noQuerySchema, parseInput } from '../validate.ts';
import { attemptHash, claimAttempt, findAttempt, markOpened, markRefused } from './case-store.ts';
import type { ResolvedBrokerage } from './options.ts';

/** The header carrying the visitor's attempt key (the IETF `Idempotency-Key` header's name). */
export const BROKERAGE_ATTEMPT_HEADER = 'Idempotency-Key';

/** What the brokerage routes use. */
export interface BrokerageRouteDeps {
  readonly client: Pick<MarketplaceApi, 'brokerage'>;
  readonly db: () => Promise<BffDb>;
  readonly budget: Pick<BffUpstreamBudget, 'reserve'>;
  readonly settings: ResolvedBrokerage;
  /** The credential (key id) the cases are opened with. */
  readonly keyId: string;
  readonly now: () => number;
  readonly logger: Logger;
  /** Longest wait for a token of the upstream write budget (ms). */
  readonly reserveWaitMs: number;
}

const HELP = {
  domain: { label: '`domain`', hint: 'the domain name the buyer wants', example: 'acme-rockets.com' },
  buyer_email: { label: '`buyer_email`', hint: "the buyer's e-mail address", example: 'buyer@example.com' },
  budget_cents: {
    label: '`budget_cents`',
    hint: "the buyer's budget in cents of the shop's currency",
    example: '50000',
  },
  consent: { label: '`consent`', hint: 'true: the buyer agrees to be contacted about this request', example: 'true' },
  locale: { label: '`locale`', hint: "the page's language tag", example: 'fr-FR', optional: true },
};

const attemptKeySchema = z.object({
  key: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{16,128}$/,
      'must be 16 to 128 letters, digits, "-" or "_": a new random key (such as a UUID) per request',
    )
    .optional(),
});

/** The visitor's attempt key, or undefined. @throws {BffHttpError} 400 `validation_error` for a malformed key. */
function attemptKeyOf(req: BffRequest): string | undefined {
  return parseInput(attemptKeySchema, { key: req.header(BROKERAGE_ATTEMPT_HEADER) }, 'header', {
    key: { label: `The ${BROKERAGE_ATTEMPT_HEADER} header`, hint: 'the attempt key', example: '' },
  }).key;
}

/** The marketplace's eligibility of `domain`, with the shop's offer. */
async function eligibilityOf(deps: BrokerageRouteDeps, domain: string): Promise<WidgetBrokerageEligibility> {
  const answer = await deps.client.brokerage.eligibility(domain);
  return {
    ...named(answer.domain),
    eligible: answer.eligible,
    reason: answer.eligible ? null : (answer.reason ?? 'not_eligible'),
    tier: deps.settings.tier,
    currency: deps.settings.currency,
    min_budget_cents: deps.settings.minBudgetCents,
  };
}

/** `GET /brokerage/eligibility?domain=`. */
export function eligibilityRoute(deps: BrokerageRouteDeps): RouteHandler {
  return async function domainkitBffBrokerageEligibility(req: BffRequest): Promise<Response> {
    const { domain } = parseInput(widgetBrokerageEligibilityQuerySchema, req.query, 'query', {
      domain: HELP.domain,
    });
    return json(await eligibilityOf(deps, domain));
  };
}

/** The case as the widget gets it. */
function caseAnswer(row: {
  case_id: string | null;
  domain: string;
  status: string | null;
  tier: string;
  budget_cents: string | number | bigint;
  currency: string;
  progress_url: string | null;
  created_at: Date | string;
}): WidgetBrokerageCase {
  return {
    case_id: row.case_id ?? '',
    ...named(row.domain),
    status: row.status ?? 'OPEN',
    tier: row.tier,
    budget_cents: toCents(row.budget_cents),
    currency: row.currency,
    progress_url: row.progress_url ?? '',
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The answer for an attempt another request holds or finished, or undefined when this request may claim it. */
async function earlierAttempt(
  db: BffDb,
  deps: BrokerageRouteDeps,
  hash: string,
  domain: string,
): Promise<Response | undefined> {
  const row = await findAttempt(db, deps.keyId, hash);
  if (row === undefined || row.state === 'refused') return undefined;
  if (row.domain !== domain) {
    throw new BffHttpError(
      'conflict',
      `This ${BROKERAGE_ATTEMPT_HEADER} belongs to a request for another domain: use a new key per request.`,
    );
  }
  if (row.state === 'opened') return json(caseAnswer(row), 200);
  throw new BffHttpError('conflict', 'This request is already being sent to the brokers; retry in a moment.', {
    retryAfter: 2,
  });
}

/** `POST /brokerage` (the cross-site and visitor-limit checks run before it). */
export function createCaseRoute(deps: BrokerageRouteDeps): RouteHandler {
  return async function domainkitBffBrokerage(req: BffRequest): Promise<Response> {
    // Everything the visitor sent is checked before anything goes upstream.
    const sent = await readJson(req, JSON_BODY_LIMIT_BYTES);
    parseInput(noQuerySchema, req.query, 'query');
    const input = parseInput(widgetBrokerageRequestSchema, sent, 'body', HELP);
    const { minBudgetCents, currency, tier } = deps.settings;
    if (input.budget_cents < minBudgetCents) {
      throw new BffHttpError(
        'validation_error',
        `\`budget_cents\` must be at least ${minBudgetCents} (cents of ${currency}), this shop's smallest brokerage budget; received ${input.budget_cents}.`,
        { extra: { min_budget_cents: minBudgetCents } },
      );
    }
    const key = attemptKeyOf(req);
    const hash = attemptHash(key ?? randomUUID());
    const db = await deps.db();
    const earlier = key === undefined ? undefined : await earlierAttempt(db, deps, hash, input.domain);
    if (earlier) return earlier;

    const eligibility = await eligibilityOf(deps, input.domain);
    if (!eligibility.eligible) {
      throw new BffHttpError('conflict', `${input.domain} cannot be brokered (${eligibility.reason}).`, {
        extra: { reason: eligibility.reason ?? 'not_eligible' },
      });
    }
    // A case is an upstream write the shop's shared budget pays for: none is sent that the budget cannot carry.
    await deps.budget.reserve('write', deps.reserveWaitMs);
    const now = () => new Date(deps.now());
    const claimed = await claimAttempt(db, {
      keyId: deps.keyId,
      hash,
      domain: input.domain,
      buyerEmail: input.buyer_email,
      budgetCents: input.budget_cents,
      currency,
      tier,
      now: now(),
    });
    if (!claimed) {
      const again = await earlierAttempt(db, deps, hash, input.domain);
      if (again) return again;
    }
    let opened: Awaited<ReturnType<BrokerageRouteDeps['client']['brokerage']['create']>>;
    try {
      opened = await deps.client.brokerage.create(
        { domain: input.domain, tier, buyer_email: input.buyer_email, budget: input.budget_cents },
        { ...(key !== undefined && { idempotencyKey: key }) },
      );
    } catch (error) {
      await markRefused(db, deps.keyId, hash, now());
      if (error instanceof MarketplaceError && error.code === ErrorCode.Conflict) {
        throw new BffHttpError('conflict', `${input.domain} cannot be brokered now: ${error.message}`, {
          extra: { reason: 'open_case' },
        });
      }
      throw error;
    }
    // The buyer opens this link: accept only http(s), never `javascript:` or `data:`.
    if (!/^https?:$/.test(new URL(opened.progress_url, 'invalid:/').protocol)) {
      await markRefused(db, deps.keyId, hash, now());
      throw new MarketplaceResponseError({
        status: 201,
        endpoint: 'POST /api/partner/v1/brokerage',
        message: 'progress_url is not an http(s) URL; refusing to send the buyer there.',
      });
    }
    await markOpened(db, deps.keyId, hash, {
      caseId: opened.case_id,
      status: opened.status,
      progressUrl: opened.progress_url,
      now: now(),
    });
    deps.logger.info({ case_id: opened.case_id, domain: opened.domain }, 'brokerage case opened');
    const body: WidgetBrokerageCase = {
      case_id: opened.case_id,
      ...named(opened.domain),
      status: opened.status,
      tier: opened.tier,
      budget_cents: opened.budget_cents,
      currency: opened.currency,
      progress_url: opened.progress_url,
      created_at: opened.created_at,
    };
    return json(body, 201);
  };
}
