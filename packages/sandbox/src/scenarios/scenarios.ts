/**
 * Deterministic scenario domains: fixed names in the SANDBOX inventory that always behave the same way, so a
 * partner can drive every branch of its integration on purpose (README "Scenario domains"). They are (re)created at
 * every start and by a reset.
 *
 * | domain | price | behaviour |
 * |---|---|---|
 * | `always-held.com` | $2,500 | every order is held for manual review (`HELD_FOR_REVIEW`, `order.held_for_review`) |
 * | `price-changes.com` | $3,000 | the listing price rises 10 % right after the first quote: that quote's order answers 422 `price_mismatch` (with the new `price_cents`); a fresh quote then holds |
 * | `slow-answer.com` | $1,500 | every Partner API call naming it answers after 3 s (still inside a 5 s client timeout) |
 * | `already-sold.com` | $2,000 | listed as sold: quotes, orders and checkout sessions answer 409 `conflict` |
 * | `reserved-elsewhere.com` | $4,000 | reserved by another buyer's quote: quotes, orders and checkout sessions answer 409 `conflict` |
 * | `live-site.com` | not listed | runs a live site: brokerage eligibility answers `eligible: false`, reason `live_site` |
 * | `coffeehouse.com` | $2,500 | an ordinary listing that always exists: the example pages feature it |
 * | `xn--mnchen-3ya.de` | $1,200 | an internationalised name (`münchen.de`, RFC 5890), listed in its ASCII form: a search for `münchen` or `xn--mnchen-3ya` finds it |
 */
import type { Environment } from '../scopes.ts';
import type { SandboxExecutor } from '../db/tables.ts';

/** The behaviours a listed scenario domain can have. */
export type Scenario = 'always_held' | 'reprice_after_quote' | 'slow' | 'sold' | 'reserved' | 'featured' | 'idn';

/** One scenario domain. */
export interface ScenarioDomain {
  readonly name: string;
  readonly scenario: Scenario;
  readonly priceCents: number;
  readonly words: readonly string[];
}

/** The listed scenario domains (SANDBOX only). */
export const SCENARIO_DOMAINS: readonly ScenarioDomain[] = [
  { name: 'always-held.com', scenario: 'always_held', priceCents: 250_000, words: ['always', 'held'] },
  { name: 'price-changes.com', scenario: 'reprice_after_quote', priceCents: 300_000, words: ['price', 'changes'] },
  { name: 'slow-answer.com', scenario: 'slow', priceCents: 150_000, words: ['slow', 'answer'] },
  { name: 'already-sold.com', scenario: 'sold', priceCents: 200_000, words: ['already', 'sold'] },
  { name: 'reserved-elsewhere.com', scenario: 'reserved', priceCents: 400_000, words: ['reserved', 'elsewhere'] },
  { name: 'coffeehouse.com', scenario: 'featured', priceCents: 250_000, words: ['coffee', 'house'] },
  { name: 'xn--mnchen-3ya.de', scenario: 'idn', priceCents: 120_000, words: ['munchen'] },
];

/** Unlisted domains that run a live site (brokerage eligibility answers `live_site`). */
export const LIVE_SITE_DOMAINS: ReadonlySet<string> = new Set(['live-site.com']);

/** How long `slow-answer.com` makes a call wait, in milliseconds. */
export const SLOW_SCENARIO_DELAY_MS = 3000;

/** How much `price-changes.com` rises after its first quote, in basis points. */
export const REPRICE_BPS = 1000;

/** Inserts the scenario domains that are missing (SANDBOX inventory). */
export async function ensureScenarioDomains(db: SandboxExecutor, now: Date): Promise<void> {
  await db
    .insertInto('domains')
    .values(
      SCENARIO_DOMAINS.map((d) => {
        const label = d.name.slice(0, d.name.indexOf('.'));
        return {
          environment: 'SANDBOX' as const,
          name: d.name,
          label,
          tld: d.name.slice(d.name.indexOf('.') + 1),
          words: [...d.words],
          price_cents: d.priceCents,
          floor_price_cents: Math.round(d.priceCents * 0.6),
          currency: 'USD',
          status: d.scenario === 'sold' ? ('sold' as const) : ('listed' as const),
          listed_at: new Date(Date.UTC(2025, 0, 1)),
          sold_at: d.scenario === 'sold' ? now : null,
          scenario: d.scenario,
        };
      }),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Waits when a call names `slow-answer.com` (SANDBOX). */
export async function scenarioDelay(environment: Environment, domain: string | undefined): Promise<void> {
  if (environment !== 'SANDBOX' || domain !== 'slow-answer.com') return;
  await new Promise<void>((resolve) => setTimeout(resolve, SLOW_SCENARIO_DELAY_MS));
}
