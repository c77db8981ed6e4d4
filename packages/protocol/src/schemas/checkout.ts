/**
 * Checkout sessions of the non-MoR flow (Partner API spec 2.3, 4.1 "Non-MoR", scope `embed`). The spec does not show the
 * request body; domainkit sends `domain` with optional return and cancel URLs (docs/spec-decisions.md).
 */
import { z } from 'zod';
import {
  centsSchema,
  currencySchema,
  domainNameSchema,
  httpUrlSchema,
  languageTagSchema,
  timestampSchema,
} from './common.ts';

/**
 * Body of `POST /checkout-session`. `locale`: the language of the page the buyer came from (BCP 47); the hosted
 * checkout and its receipt speak it when they can, else the browser's `Accept-Language` decides
 * (docs/spec-decisions.md, "The hosted lander").
 */
export const checkoutSessionRequestSchema = z.strictObject({
  domain: domainNameSchema,
  return_url: httpUrlSchema.optional(),
  cancel_url: httpUrlSchema.optional(),
  locale: languageTagSchema.optional(),
});
export type CheckoutSessionRequest = z.input<typeof checkoutSessionRequestSchema>;

/** Answer of `POST /checkout-session`: a hosted lander URL with a signed `pt` token, valid 7 days. */
export const checkoutSessionSchema = z.looseObject({
  checkout_url: z.url(),
  domain: z.string(),
  price_cents: centsSchema,
  currency: currencySchema,
  expires_at: timestampSchema,
});
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;
