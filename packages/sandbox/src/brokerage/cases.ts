/**
 * Brokerage (Partner API spec 1 item 4, 2.6): the service acquires an unlisted domain a buyer wants; the partner earns a cut of
 * the deal at settlement (economics.ts).
 *
 * Case statuses (Partner API spec 2.6 and 3 show none: docs/spec-decisions.md), moved by the admin API:
 * `OPEN` → `CONTACTING_OWNER` → `NEGOTIATING` → `CLOSED_DEAL` (event `brokerage.case_completed`), or
 * `CLOSED_NO_DEAL` from any open status. A domain is eligible unless it is listed (buy it instead), runs a live site
 * (scenarios.ts), or already has an open case (a partial unique index enforces one open case per domain).
 */
import type { BROKERAGE_CASE_STATUSES } from '@domainkit/protocol';
import type { Environment } from '../scopes.ts';
import type { BrokerageCaseRow, CredentialRow, SandboxExecutor, SandboxTrx } from '../db/tables.ts';
import { COMMISSION_BPS, shareOf } from '../economics.ts';
import { emitEvent, type WireEvent } from '../events/store.ts';
import { apiError } from '../http/api-error.ts';
import { randomId, randomSecret } from '../ids.ts';
import { LIVE_SITE_DOMAINS } from '../scenarios/scenarios.ts';

/** A case status. */
export type CaseStatus = (typeof BROKERAGE_CASE_STATUSES)[number];

/** Statuses of a case still being worked on. */
export const OPEN_CASE_STATUSES: readonly CaseStatus[] = ['OPEN', 'CONTACTING_OWNER', 'NEGOTIATING'];

/** Why a domain is not eligible. */
export type IneligibleReason = 'listed' | 'live_site' | 'open_case';

/** The eligibility of a domain for brokerage. */
export interface Eligibility {
  readonly domain: string;
  readonly eligible: boolean;
  readonly reason: IneligibleReason | null;
  readonly message: string;
}

/** Decides whether a domain can be brokered in an environment. */
export async function brokerageEligibility(
  db: SandboxExecutor,
  environment: Environment,
  domain: string,
): Promise<Eligibility> {
  const listed = await db
    .selectFrom('domains')
    .select('status')
    .where('environment', '=', environment)
    .where('name', '=', domain)
    .executeTakeFirst();
  if (listed?.status === 'listed')
    return {
      domain,
      eligible: false,
      reason: 'listed',
      message: `${domain} is listed on the marketplace: buy it (POST /quotes or POST /checkout-session) instead of brokering it.`,
    };
  if (LIVE_SITE_DOMAINS.has(domain))
    return {
      domain,
      eligible: false,
      reason: 'live_site',
      message: `${domain} runs a live site: its owner is not approached.`,
    };
  const open = await db
    .selectFrom('brokerage_cases')
    .select('case_id')
    .where('environment', '=', environment)
    .where('domain', '=', domain)
    .where('status', 'in', [...OPEN_CASE_STATUSES])
    .executeTakeFirst();
  if (open !== undefined)
    return { domain, eligible: false, reason: 'open_case', message: `${domain} is already in an open brokerage case.` };
  return { domain, eligible: true, reason: null, message: `${domain} can be brokered.` };
}

/** A case on the wire (Partner API spec 2.6), with its timeline when given. */
export function toCaseWire(
  row: BrokerageCaseRow,
  baseUrl: string,
  timeline?: ReadonlyArray<{ status: string; note: string | null; at: Date }>,
) {
  return {
    case_id: row.case_id,
    domain: row.domain,
    tier: row.tier,
    status: row.status,
    buyer_email: row.buyer_email,
    budget_cents: row.budget_cents,
    currency: row.currency,
    progress_url: `${baseUrl}/brokerage/progress?t=${row.progress_token}`,
    deal_price_cents: row.deal_price_cents,
    commission_cents: row.commission_cents,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    closed_at: row.closed_at?.toISOString() ?? null,
    ...(timeline
      ? { timeline: timeline.map((t) => ({ status: t.status, note: t.note, at: t.at.toISOString() })) }
      : {}),
  };
}

/** A case's timeline, oldest first. */
export async function caseTimeline(db: SandboxExecutor, caseId: string) {
  return db
    .selectFrom('brokerage_timeline')
    .select(['status', 'note', 'at'])
    .where('case_id', '=', caseId)
    .orderBy('id')
    .execute();
}

/**
 * Opens a case.
 * @throws {ProtocolError} `conflict` when the domain is not eligible (the message says why).
 */
export async function openCase(
  trx: SandboxTrx,
  input: {
    credential: CredentialRow;
    domain: string;
    tier: 'managed' | 'self_serve';
    buyerEmail: string;
    budgetCents: number;
    now: Date;
  },
): Promise<BrokerageCaseRow> {
  const { credential, now } = input;
  await trx
    .selectFrom('domains')
    .select('name')
    .where('environment', '=', credential.environment)
    .where('name', '=', input.domain)
    .forUpdate()
    .execute();
  const eligibility = await brokerageEligibility(trx, credential.environment, input.domain);
  if (!eligibility.eligible) throw apiError('conflict', `${eligibility.message} (reason: ${eligibility.reason})`);
  const created = await trx
    .insertInto('brokerage_cases')
    .values({
      case_id: randomId('bc_', 20),
      key_id: credential.key_id,
      partner_id: credential.partner_id,
      environment: credential.environment,
      domain: input.domain,
      tier: input.tier,
      buyer_email: input.buyerEmail,
      budget_cents: input.budgetCents,
      currency: 'USD',
      status: 'OPEN',
      progress_token: randomSecret(24),
      deal_price_cents: null,
      commission_cents: null,
      payout_id: null,
      created_at: now,
      updated_at: now,
      closed_at: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (created === undefined)
    throw apiError('conflict', `${input.domain} is already in an open brokerage case. (reason: open_case)`);
  // What happens next: the step itself (`OPEN`) is named by whoever shows the timeline.
  const note =
    input.tier === 'managed'
      ? "A broker will approach the owner on the buyer's behalf."
      : 'The buyer will be guided to approach the owner.';
  await trx
    .insertInto('brokerage_timeline')
    .values({ case_id: created.case_id, status: 'OPEN', note, at: now })
    .execute();
  return created;
}

const NEXT: Partial<Record<CaseStatus, CaseStatus>> = { OPEN: 'CONTACTING_OWNER', CONTACTING_OWNER: 'NEGOTIATING' };

/**
 * Moves an open case one step (`OPEN` → `CONTACTING_OWNER` → `NEGOTIATING`), or closes it.
 * @param input.close - `{deal: true, priceCents}` closes with a deal (event `brokerage.case_completed`, the partner's
 *   cut recorded for the next payout); `{deal: false}` closes without one.
 * @throws {ProtocolError} `not_found`, `conflict` (closed already, or no further step before closing).
 */
export async function moveCase(
  trx: SandboxTrx,
  input: {
    caseId: string;
    now: Date;
    close?: { deal: true; priceCents: number } | { deal: false };
    note?: string | undefined;
  },
): Promise<{ case: BrokerageCaseRow; event: WireEvent | null }> {
  const { now } = input;
  const row = await trx
    .selectFrom('brokerage_cases')
    .selectAll()
    .where('case_id', '=', input.caseId)
    .forUpdate()
    .executeTakeFirst();
  if (row === undefined) throw apiError('not_found', `No brokerage case ${input.caseId}.`);
  if (!OPEN_CASE_STATUSES.includes(row.status))
    throw apiError('conflict', `Brokerage case ${row.case_id} is ${row.status}: a closed case does not move.`);
  let to: CaseStatus;
  let note: string;
  if (input.close === undefined) {
    const next = NEXT[row.status];
    if (next === undefined)
      throw apiError('conflict', `Brokerage case ${row.case_id} is ${row.status}: close it with or without a deal.`);
    to = next;
    note =
      input.note ??
      (to === 'CONTACTING_OWNER'
        ? 'The broker is contacting the owner.'
        : 'The owner answered: negotiating the price.');
  } else {
    to = input.close.deal ? 'CLOSED_DEAL' : 'CLOSED_NO_DEAL';
    note =
      input.note ??
      (input.close.deal ? 'Deal closed: the domain will be transferred to the buyer.' : 'Closed without a deal.');
  }
  const deal = input.close?.deal === true ? input.close.priceCents : null;
  const updated = await trx
    .updateTable('brokerage_cases')
    .set({
      status: to,
      updated_at: now,
      ...(input.close !== undefined ? { closed_at: now } : {}),
      ...(deal !== null ? { deal_price_cents: deal, commission_cents: shareOf(deal, COMMISSION_BPS.brokerage) } : {}),
    })
    .where('case_id', '=', row.case_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx.insertInto('brokerage_timeline').values({ case_id: row.case_id, status: to, note, at: now }).execute();
  let event: WireEvent | null = null;
  if (to === 'CLOSED_DEAL') {
    event = await emitEvent(trx, {
      keyId: updated.key_id,
      partnerId: updated.partner_id,
      type: 'brokerage.case_completed',
      data: {
        case: {
          case_id: updated.case_id,
          domain: updated.domain,
          status: updated.status,
          deal_price_cents: updated.deal_price_cents,
          commission_cents: updated.commission_cents,
          currency: updated.currency,
        },
      },
      now,
    });
  }
  return { case: updated, event };
}
