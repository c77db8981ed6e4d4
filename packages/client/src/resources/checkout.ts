/**
 * Checkout sessions of the non-MoR flow (Partner API spec 2.3, 4.1 "Non-MoR", scope `embed`; a write endpoint, 20 requests per
 * minute per credential, Partner API spec 8).
 */
import { PARTNER_API_OPERATIONS as OPS } from '@domainkit/protocol';
import { partnerEndpoint } from '../endpoint.ts';

/**
 * `POST /checkout-session`: a hosted lander URL (`checkout_url`, signed `pt` token) valid 7 days.
 *
 * It carries no Idempotency-Key (the spec requires one only on `POST /orders`), so it is not retried after a
 * network error or a 5xx, which might have created a session; 429 and `replay_detected` (refused before any
 * processing) are retried.
 */
export const createCheckoutSessionEndpoint = partnerEndpoint('createCheckoutSession', OPS.createCheckoutSession);
