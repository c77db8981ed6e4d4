/**
 * The brokerage feature's option (`brokerage`: `GET /brokerage/eligibility`, `POST /brokerage`; Partner API spec 2.6,
 * 4.1 "Brokerage"), its defaults and its environment variables (`DOMAINKIT_BROKERAGE`,
 * `DOMAINKIT_BROKERAGE_MIN_BUDGET_CENTS`). Off unless the shop turns it on: its credential needs scope `broker`.
 */
import { BROKERAGE_TIERS, INT32_MAX } from '@domainkit/protocol';
import { z } from 'zod';
import type { EnvReader, EnvVariable } from '../config/kit.ts';

/** A brokerage tier (Partner API spec 2.6): `managed` (the marketplace's brokers negotiate) or `self_serve`. */
export type BrokerageTier = (typeof BROKERAGE_TIERS)[number];

/** Option `brokerage` as an object: the routes are on, with these settings. */
export interface BrokerageOptions {
  /** The tier every case of this shop is opened with; default `managed`. */
  readonly tier?: BrokerageTier | undefined;
  /**
   * The smallest budget a visitor may offer, in minor units (cents) of the shop's currency (the marketplace's, USD);
   * default 10 000 (100.00 USD): below that no owner of a wanted name is worth approaching.
   */
  readonly minBudgetCents?: number | undefined;
}

/** The brokerage settings once resolved. */
export interface ResolvedBrokerage {
  readonly tier: BrokerageTier;
  readonly minBudgetCents: number;
  /** The currency of budgets: the marketplace's (Partner API budgets are minor units of USD). */
  readonly currency: 'USD';
}

/** Default of {@link BrokerageOptions.tier}. */
export const DEFAULT_BROKERAGE_TIER: BrokerageTier = 'managed';
/** Default of {@link BrokerageOptions.minBudgetCents}: 100.00 USD. */
export const DEFAULT_MIN_BUDGET_CENTS = 10_000;

const minBudget = z
  .number({ error: `must be an integer amount in cents from 1 to ${INT32_MAX}, such as 10000 (100.00 USD)` })
  .int(`must be an integer amount in cents, such as 10000 (100.00 USD)`)
  .min(1, 'must be at least 1 cent')
  .max(INT32_MAX, `must be at most ${INT32_MAX} cents`);

/** The `createBff` options of the brokerage feature, as checked at creation. */
export const brokerageOptionsShape = {
  brokerage: z
    .union(
      [
        z.boolean(),
        z.strictObject({
          tier: z.enum(BROKERAGE_TIERS, { error: 'must be "managed" or "self_serve"' }).optional(),
          minBudgetCents: minBudget.optional(),
        }),
      ],
      { error: 'must be true, false, or { tier, minBudgetCents }' },
    )
    .optional(),
};

/** The keys of `brokerage` as an object (for "did you mean"). */
export const BROKERAGE_OPTION_KEYS: readonly string[] = ['tier', 'minBudgetCents'];

/** The brokerage settings, or undefined when the routes are off (the default). */
export function resolveBrokerage(value: boolean | BrokerageOptions | undefined): ResolvedBrokerage | undefined {
  if (value === undefined || value === false) return undefined;
  const o = value === true ? {} : value;
  return Object.freeze({
    tier: o.tier ?? DEFAULT_BROKERAGE_TIER,
    minBudgetCents: o.minBudgetCents ?? DEFAULT_MIN_BUDGET_CENTS,
    currency: 'USD' as const,
  });
}

/** The brokerage feature's environment variables, in the order the README documents them. */
export const BROKERAGE_ENV_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'DOMAINKIT_BROKERAGE',
    required: false,
    description: '"managed" or "self_serve" to offer brokerage of unlisted names with that tier (needs scope broker)',
  },
  {
    name: 'DOMAINKIT_BROKERAGE_MIN_BUDGET_CENTS',
    required: false,
    description: 'the smallest budget a visitor may offer, in cents of USD (default 10000)',
  },
];

/** Option `brokerage` from `DOMAINKIT_BROKERAGE` and `DOMAINKIT_BROKERAGE_MIN_BUDGET_CENTS` (undefined: off). */
export function readBrokerageEnv(env: EnvReader): { brokerage?: BrokerageOptions } {
  const tier = env.get('DOMAINKIT_BROKERAGE');
  const minRaw = env.get('DOMAINKIT_BROKERAGE_MIN_BUDGET_CENTS');
  if (tier !== undefined && !(BROKERAGE_TIERS as readonly string[]).includes(tier)) {
    env.problem('DOMAINKIT_BROKERAGE', `must be "managed" or "self_serve"; received ${JSON.stringify(tier)}`);
    return {};
  }
  let minBudgetCents: number | undefined;
  if (minRaw !== undefined) {
    minBudgetCents = Number(minRaw);
    if (!/^\d{1,10}$/.test(minRaw) || minBudgetCents < 1 || minBudgetCents > INT32_MAX) {
      env.problem(
        'DOMAINKIT_BROKERAGE_MIN_BUDGET_CENTS',
        `must be an integer amount in cents from 1 to ${INT32_MAX}; received ${JSON.stringify(minRaw)}`,
      );
      return {};
    }
    if (tier === undefined) {
      env.problem('DOMAINKIT_BROKERAGE_MIN_BUDGET_CENTS', 'applies with DOMAINKIT_BROKERAGE only: set it too');
      return {};
    }
  }
  if (tier === undefined) return {};
  return {
    brokerage: { tier: tier as BrokerageTier, ...(minBudgetCents !== undefined && { minBudgetCents }) },
  };
}
