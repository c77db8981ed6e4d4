/**
 * The brokerage part of the widget ↔ BFF API (Partner API spec 1 item 4, 2.6, 4.1 "Brokerage"): what
 * `<dk-broker-button>` asks the partner's BFF, which asks the marketplace with its credential. The budget is in
 * minor units (cents) of the shop's currency, which is the marketplace's (USD); docs/spec-decisions.md
 * "Brokerage through the BFF".
 */
import { z } from 'zod';
import { currencySchema, domainNameSchema, languageTagSchema, timestampSchema, centsSchema } from './common.ts';
import { INT32_MAX, policyText } from './input-policy.ts';
import { displayNameSchema } from './widget-api.ts';

/** Why a name cannot be brokered: listed here (buy it now), it runs a live site, or a case is already open. */
export const BROKERAGE_INELIGIBLE_REASONS = ['listed', 'live_site', 'open_case'] as const;
/** A reason of {@link BROKERAGE_INELIGIBLE_REASONS}. */
export type BrokerageIneligibleReason = (typeof BROKERAGE_INELIGIBLE_REASONS)[number];

/** `GET /brokerage/eligibility?domain=` input. */
export const widgetBrokerageEligibilityQuerySchema = z.strictObject({ domain: domainNameSchema });

/**
 * `GET /brokerage/eligibility?domain=` answer: whether the shop's brokers can try to acquire the name, why not
 * (`reason`, null when eligible; a reason this version does not know is passed on as it is), and the offer the form
 * shows: the tier the partner configured, the currency of the budget and its minimum (minor units).
 */
export const widgetBrokerageEligibilitySchema = z.object({
  domain: z.string(),
  display_name: displayNameSchema,
  eligible: z.boolean(),
  reason: z.string().nullable(),
  /** The partner's tier: `managed` or `self_serve` (a newer tier is passed on as it is). */
  tier: z.string(),
  currency: currencySchema,
  min_budget_cents: centsSchema,
});
export type WidgetBrokerageEligibility = z.infer<typeof widgetBrokerageEligibilitySchema>;

/**
 * `POST /brokerage` body (header `Idempotency-Key`: one random key per visitor attempt): the name, the buyer's
 * e-mail address, the budget in minor units of the shop's currency (at least the shop's minimum, at most
 * {@link INT32_MAX}), and the buyer's consent to be contacted about the case (must be `true`). The tier is the
 * partner's, never the visitor's.
 */
export const widgetBrokerageRequestSchema = z.strictObject({
  domain: domainNameSchema,
  buyer_email: policyText(z.string().trim().max(254, 'must be at most 254 characters')).pipe(
    z.email('must be an e-mail address such as buyer@example.com'),
  ),
  budget_cents: z
    .number({ error: `must be an integer amount in cents, from 1 to ${INT32_MAX}` })
    .int(`must be an integer amount in cents, from 1 to ${INT32_MAX}`)
    .min(1, `must be an integer amount in cents, from 1 to ${INT32_MAX}`)
    .max(INT32_MAX, `must be an integer amount in cents, from 1 to ${INT32_MAX}`),
  consent: z.literal(true, { error: 'must be true: the buyer agrees to be contacted about this request' }),
  locale: languageTagSchema.optional(),
});
export type WidgetBrokerageRequest = z.input<typeof widgetBrokerageRequestSchema>;

/**
 * `POST /brokerage` answer (201, or 200 for a retry of the same attempt): the case, and `progress_url`, the
 * buyer's no-login page that follows it (the marketplace's; opens in a new tab).
 */
export const widgetBrokerageCaseSchema = z.object({
  case_id: z.string(),
  domain: z.string(),
  display_name: displayNameSchema,
  status: z.string(),
  tier: z.string(),
  budget_cents: centsSchema,
  currency: currencySchema,
  progress_url: z.string(),
  created_at: timestampSchema,
});
export type WidgetBrokerageCase = z.infer<typeof widgetBrokerageCaseSchema>;
