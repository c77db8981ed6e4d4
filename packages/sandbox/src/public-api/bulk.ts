/**
 * Bulk operations on the signed-in user's own domains (Public API spec 4.2 `POST /api/domains/bulk/{op}`, at most 1,000
 * domains, Partner API spec 8), and the list of those domains (`GET /api/domains`). The operations are the sandbox's choice
 * (docs/spec-decisions.md): `lock`, `unlock`, `renew` (`years`, default 1), `set_nameservers`
 * (`nameservers`), `enable_auto_renew`, `disable_auto_renew`.
 *
 * Each domain gets its own result, in request order: a domain the user does not own (another user's, or nobody's)
 * is refused as `not_owned`, a malformed name as `invalid_domain`, a renewal past the TLD's maximum term as
 * `term_exceeded`; the others are applied in one transaction.
 */
import { domainNameSchema } from '@domainkit/protocol';
import { sql } from 'kysely';
import { apiError } from '../http/api-error.ts';
import type { BulkOp, PublicBulkResponse, PublicOwnedDomain } from '@domainkit/protocol';
import type { PublicDb, SandboxUserDomainRow } from '../db/public-tables.ts';
import { findTld } from '../inventory/tlds.ts';

/** The wire shape of a registration. */
export function toOwnedDomain(row: SandboxUserDomainRow): PublicOwnedDomain {
  return {
    domain: row.name,
    tld: row.tld,
    locked: row.locked,
    auto_renew: row.auto_renew,
    nameservers: row.nameservers,
    registered_at: row.registered_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}

/** A validated bulk request. */
export interface BulkInput {
  readonly op: BulkOp;
  readonly domains: readonly string[];
  readonly years?: number | undefined;
  readonly nameservers?: readonly string[] | undefined;
}

type ItemResult = PublicBulkResponse['results'][number];

function addYears(date: Date, years: number): Date {
  const d = new Date(date.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
}

/**
 * Checks the parameters against the operation.
 * @throws {ProtocolError} `validation_error` naming what to fix.
 */
export function checkBulkParams(input: BulkInput): void {
  if (input.op !== 'renew' && input.years !== undefined)
    throw apiError('validation_error', `years applies to renew only, not to ${input.op}.`);
  if (input.op !== 'set_nameservers' && input.nameservers !== undefined)
    throw apiError('validation_error', `nameservers applies to set_nameservers only, not to ${input.op}.`);
  if (input.op === 'set_nameservers' && input.nameservers === undefined)
    throw apiError('validation_error', 'set_nameservers needs nameservers: an array of 2 to 13 host names.');
  if (input.nameservers !== undefined && new Set(input.nameservers).size !== input.nameservers.length)
    throw apiError('validation_error', 'nameservers must not repeat a host name.');
  const seen = new Set<string>();
  for (const d of input.domains) {
    const key = d.trim().toLowerCase();
    if (seen.has(key))
      throw apiError(
        'validation_error',
        `domains must not repeat a name: ${key.slice(0, 253)} appears more than once.`,
      );
    seen.add(key);
  }
}

/**
 * Applies a bulk operation to the user's domains.
 * @returns one result per requested domain, in request order, and a summary.
 */
export async function runBulk(
  db: PublicDb,
  userId: string,
  input: BulkInput,
  nowMs: number,
): Promise<PublicBulkResponse> {
  const now = new Date(nowMs);
  const names = input.domains.map((d) => {
    const parsed = domainNameSchema.safeParse(d);
    return parsed.success ? parsed.data : undefined;
  });
  const valid = names.filter((n): n is string => n !== undefined);
  const results = await db.transaction().execute(async (trx) => {
    const owned =
      valid.length === 0
        ? []
        : await trx
            .selectFrom('sandbox_user_domains')
            .selectAll()
            .where('user_id', '=', userId)
            .where('name', 'in', valid)
            .forUpdate()
            .execute();
    const byName = new Map(owned.map((r) => [r.name, r]));
    const refused = new Map<string, ItemResult>();
    const charged = new Map<string, number>();
    const eligible: string[] = [];
    for (const row of owned) {
      if (input.op === 'renew') {
        const years = input.years ?? 1;
        const tld = findTld(row.tld);
        const maxYears = tld?.term.max_years ?? 10;
        if (addYears(row.expires_at, years) > addYears(now, maxYears)) {
          refused.set(row.name, {
            domain: row.name,
            ok: false,
            error: {
              code: 'term_exceeded',
              message: `Renewing ${row.name} by ${years} year(s) would put its expiry more than ${maxYears} years ahead, the maximum of .${row.tld}.`,
            },
          });
          continue;
        }
        charged.set(row.name, (tld?.prices.renew ?? 0) * years);
      }
      eligible.push(row.name);
    }
    let updated: SandboxUserDomainRow[] = [];
    if (eligible.length > 0) {
      const base = trx.updateTable('sandbox_user_domains').where('user_id', '=', userId).where('name', 'in', eligible);
      switch (input.op) {
        case 'lock':
        case 'unlock':
          updated = await base
            .set({ locked: input.op === 'lock', updated_at: now })
            .returningAll()
            .execute();
          break;
        case 'enable_auto_renew':
        case 'disable_auto_renew':
          updated = await base
            .set({ auto_renew: input.op === 'enable_auto_renew', updated_at: now })
            .returningAll()
            .execute();
          break;
        case 'set_nameservers':
          updated = await base
            .set({ nameservers: [...(input.nameservers ?? [])], updated_at: now })
            .returningAll()
            .execute();
          break;
        case 'renew':
          updated = await base
            .set({ expires_at: sql<Date>`expires_at + make_interval(years => ${input.years ?? 1})`, updated_at: now })
            .returningAll()
            .execute();
          break;
      }
    }
    const after = new Map(updated.map((r) => [r.name, r]));
    return input.domains.map((raw, i): ItemResult => {
      const name = names[i];
      if (name === undefined)
        return {
          domain: raw.slice(0, 253),
          ok: false,
          error: {
            code: 'invalid_domain',
            message: `${JSON.stringify(raw.slice(0, 253))} is not a domain name such as "example.com".`,
          },
        };
      const refusal = refused.get(name);
      if (refusal !== undefined) return refusal;
      const row = after.get(name);
      if (row === undefined || !byName.has(name)) {
        return {
          domain: name,
          ok: false,
          error: {
            code: 'not_owned',
            message: `${name} is not among your domains: bulk operations apply to domains the signed-in user owns.`,
          },
        };
      }
      const price = charged.get(name);
      return {
        domain: name,
        ok: true,
        registration: toOwnedDomain(row),
        ...(price !== undefined ? { charged_cents: price } : {}),
      };
    });
  });
  const succeeded = results.filter((r) => r.ok).length;
  return {
    op: input.op,
    results,
    summary: { requested: results.length, succeeded, failed: results.length - succeeded },
  };
}

/** One page of the user's domains, by name. */
export async function listOwnedDomains(
  db: PublicDb,
  userId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ domains: PublicOwnedDomain[]; next_cursor: string | null }> {
  let after: string | undefined;
  if (cursor !== undefined) {
    const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
    if (!/^[a-z0-9.-]{1,253}$/.test(decoded))
      throw apiError('validation_error', 'cursor is not valid: pass next_cursor exactly as received.');
    after = decoded;
  }
  let query = db
    .selectFrom('sandbox_user_domains')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('name')
    .limit(limit + 1);
  if (after !== undefined) query = query.where('name', '>', after);
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  return {
    domains: page.map(toOwnedDomain),
    next_cursor: rows.length > limit ? Buffer.from(page.at(-1)!.name, 'utf8').toString('base64url') : null,
  };
}
