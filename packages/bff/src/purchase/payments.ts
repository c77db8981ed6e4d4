/**
 * The payment-provider adapter of the MoR flow (Partner API spec 1 "Sell as Merchant of Record": the partner collects payment
 * from its buyer, then records the sale), and the test-card adapter shipped for the sandbox and the demo.
 *
 * The BFF validates the whole order and stores an order intent before any payment step; with a two-phase adapter it
 * authorizes, records the order upstream, then captures (voiding the authorization when the order cannot be
 * recorded), so a buyer never pays for an order the marketplace did not record.
 */
import { createHash } from 'node:crypto';
import { PaymentInputError } from '../errors.ts';
import { isLiveKeyId } from '../upstream/environment.ts';

/** What the BFF asks the provider to charge. */
export interface PaymentRequest {
  /** The BFF's order intent id: the same on every call for one order, so a provider can deduplicate on it. */
  readonly intentId: string;
  /** Amount in minor units (cents), always the quoted price, never a figure from the browser. */
  readonly amountCents: number;
  /** ISO 4217 code, such as `USD`. */
  readonly currency: string;
  /** The browser's payment payload, as returned by {@link PaymentAdapter.parsePayment}. */
  readonly payment: unknown;
  /** The domain being bought (for the statement descriptor). */
  readonly domain: string;
  readonly buyer: { readonly email: string; readonly name?: string | undefined; readonly country?: string | undefined };
}

/** The provider's answer to an authorization (or a one-phase charge). */
export interface PaymentResult {
  /**
   * `authorized`: the amount is held on the buyer's card, nothing taken yet (two-phase). `succeeded`: the money is
   * taken (one-phase {@link PaymentAdapter.confirmPayment}). `declined`: nothing was taken; the buyer may try another
   * method.
   */
  readonly status: 'authorized' | 'succeeded' | 'declined';
  /** The provider's reference for the authorization or charge (sent upstream as `external_payment_ref`). */
  readonly reference: string;
  /** A visitor-safe reason for a decline, such as "card declined". */
  readonly declineReason?: string | undefined;
}

/** Names one authorization or charge of an intent, for capture, void and refund. */
export interface PaymentReference {
  /** The BFF's order intent id (stable across retries: an idempotency key for the provider). */
  readonly intentId: string;
  /** The provider's reference returned by the authorization or charge. */
  readonly reference: string;
  /** Amount in minor units (cents). */
  readonly amountCents: number;
  /** ISO 4217 code. */
  readonly currency: string;
}

export { PaymentInputError } from '../errors.ts';

/**
 * Raised by {@link PaymentAdapter.capturePayment} when the provider refuses to capture an authorization for good
 * (it expired, the issuer refused): nothing was taken. Any other error means "outcome unknown".
 */
export class PaymentCaptureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentCaptureError';
  }
}

/**
 * A payment provider, plugged into the BFF with the `payments` option. Money moves last: the BFF validates the whole
 * order before any method here is called.
 *
 * **Two-phase** (manual capture, where the provider offers it; preferred): `authorizePayment` holds the amount, the
 * BFF records the order upstream, then `capturePayment` takes the money. When the marketplace refuses the order for
 * good, or recording does not succeed within the recovery bound, `voidPayment` releases the hold: nothing was taken.
 * When capture fails after the order was recorded, the BFF refunds the order upstream (`POST /refunds`) and voids.
 *
 * **One-phase** (providers without manual capture): `confirmPayment` charges at once; a refused order is refunded
 * with `refundPayment`.
 *
 * Every method must be idempotent per `intentId` (providers such as Stripe take it as their idempotency key): the
 * BFF may call one again for an intent whose first answer was lost.
 */
export interface PaymentAdapter {
  /** A short name for logs, such as `stripe` or `test_card`. */
  readonly name: string;
  /**
   * True for an adapter that takes no real money (the test-card adapter): `createBff` refuses it with a LIVE
   * credential (`pk_live_…`), and when `NODE_ENV` is `production` unless `allowTestCardsInProduction` is set
   * (see {@link testPaymentsRefusal}). Default false.
   */
  readonly test?: boolean | undefined;
  /**
   * Checks the browser's `payment` object before anything is stored or charged, and returns what
   * `authorizePayment` / `confirmPayment` receive. Default: any JSON object is passed as is.
   * @throws {PaymentInputError} with a message telling the visitor what to fix.
   */
  parsePayment?(payment: unknown): unknown;
  /** Two-phase: holds the amount (`authorized`) or refuses (`declined`). Throwing means "outcome unknown". */
  authorizePayment?(request: PaymentRequest): Promise<PaymentResult>;
  /** Two-phase: takes the held amount. @throws {PaymentCaptureError} when refused for good (nothing taken). */
  capturePayment?(request: PaymentReference): Promise<void>;
  /** Two-phase: releases the hold; nothing is taken. */
  voidPayment?(request: PaymentReference): Promise<void>;
  /** One-phase: charges the buyer. Throwing means "outcome unknown": the BFF asks {@link retrievePayment} later. */
  confirmPayment?(request: PaymentRequest): Promise<PaymentResult>;
  /** The outcome of an intent's payment whose answer was lost (a crash), or `undefined` if the provider has none. */
  retrievePayment?(request: { readonly intentId: string }): Promise<PaymentResult | undefined>;
  /** Gives taken money back (one-phase adapters, when the marketplace refused the order for good). */
  refundPayment?(request: PaymentReference): Promise<void>;
}

/**
 * Why a payment adapter may not run where it is configured, or `undefined` when it may:
 *
 * - `live_credential`: a test adapter ({@link PaymentAdapter.test}) with a LIVE credential. Every order it places
 *   is a real sale upstream (`EXTERNALLY_PAID`) that the partner, as Merchant of Record, owes the marketplace,
 *   while no money was collected. Refused whatever else is set.
 * - `production`: a test adapter when `NODE_ENV` is `production`, unless a staging shop opts in explicitly
 *   (`allowTestCardsInProduction`, `DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION=true`) with a SANDBOX credential.
 */
export function testPaymentsRefusal(input: {
  readonly adapter: Pick<PaymentAdapter, 'test'> | undefined;
  /** The credential's key id (`pk_…`), when known. */
  readonly keyId: string | undefined;
  readonly nodeEnv: string | undefined;
  readonly allowInProduction: boolean;
}): 'live_credential' | 'production' | undefined {
  if (input.adapter?.test !== true) return undefined;
  if (input.keyId !== undefined && isLiveKeyId(input.keyId)) return 'live_credential';
  if (input.nodeEnv === 'production' && !input.allowInProduction) return 'production';
  return undefined;
}

/** True when the adapter takes payments in two phases (authorize, then capture or void). */
export function isTwoPhase(adapter: PaymentAdapter): boolean {
  return (
    typeof adapter.authorizePayment === 'function' &&
    typeof adapter.capturePayment === 'function' &&
    typeof adapter.voidPayment === 'function'
  );
}

/** The test cards of the test-card adapter (digits only). */
export const TEST_CARD_NUMBERS = {
  /** Authorizes and captures. */
  succeeds: '4242424242424242',
  /** Always declined at authorization. */
  declined: '4000000000000002',
  /** Authorizes, but its capture is refused (the hold lapsed): nothing is taken. */
  captureFails: '4000000000000341',
} as const;

/** The payload the test-card adapter accepts: `{"method": "test_card", "card_number": "4242 4242 4242 4242"}`. */
export interface TestCardPayment {
  readonly method: 'test_card';
  readonly card_number: string;
}

/** What the test-card adapter remembers of one intent's payment. */
export interface TestCardCharge {
  /** `authorized` (held), `captured` (taken), `voided` (released), `declined`. */
  status: 'authorized' | 'captured' | 'voided' | 'declined';
  readonly reference: string;
  readonly amountCents: number;
  readonly declineReason?: string | undefined;
  /** True once a captured charge was refunded. */
  refunded: boolean;
}

const TEST_CARD_HELP =
  'use a test card: 4242 4242 4242 4242 (succeeds), 4000 0000 0000 0002 (declined) or 4000 0000 0000 0341 (capture fails)';

/**
 * The test-card adapter for the sandbox and the demo, two-phase: `4242 4242 4242 4242` authorizes and captures,
 * `4000 0000 0000 0002` is declined, `4000 0000 0000 0341` authorizes but its capture is refused; anything else is
 * refused as input. Marked {@link PaymentAdapter.test}: refused with a LIVE credential, and in production unless a
 * staging shop opts in (`allowTestCardsInProduction`). No money moves; every call is recorded in `calls` and each intent's payment in `charges`; the
 * reference is derived from the intent id, so authorizing an intent twice gives the same answer.
 */
export function testCardPayments(): PaymentAdapter & {
  readonly charges: ReadonlyMap<string, TestCardCharge>;
  /** Every adapter call in order, such as `authorize oi_…`, `capture oi_…`, `void oi_…`. */
  readonly calls: string[];
} {
  const charges = new Map<string, TestCardCharge & { card: string }>();
  const calls: string[] = [];
  // An authorization this process never saw (it was made before a restart) is taken as one of 4242 4242 4242 4242:
  // the reference is derived from the intent id, so it is the same one.
  const find = (request: PaymentReference) => {
    let charge = charges.get(request.intentId);
    if (charge === undefined) {
      charge = {
        status: 'authorized',
        reference: request.reference,
        amountCents: request.amountCents,
        refunded: false,
        card: TEST_CARD_NUMBERS.succeeds,
      };
      charges.set(request.intentId, charge);
    }
    return charge;
  };
  return {
    name: 'test_card',
    test: true,
    charges,
    calls,
    parsePayment(payment) {
      if (typeof payment !== 'object' || payment === null || Array.isArray(payment)) {
        throw new PaymentInputError(
          `\`payment\` must be an object such as {"method": "test_card", "card_number": "4242 4242 4242 4242"}`,
        );
      }
      const p = payment as Record<string, unknown>;
      const extra = Object.keys(p).filter((k) => k !== 'method' && k !== 'card_number');
      if (p.method !== 'test_card')
        throw new PaymentInputError(`\`payment.method\` must be "test_card" in this shop (${TEST_CARD_HELP}).`);
      if (extra.length > 0)
        throw new PaymentInputError(
          `Unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `\`payment.${k.slice(0, 40)}\``).join(', ')}: only \`method\` and \`card_number\` are accepted.`,
        );
      if (typeof p.card_number !== 'string')
        throw new PaymentInputError(`\`payment.card_number\` is required: ${TEST_CARD_HELP}.`);
      const digits = p.card_number.replace(/[\s-]/g, '');
      if (!(Object.values(TEST_CARD_NUMBERS) as string[]).includes(digits)) {
        throw new PaymentInputError(`\`payment.card_number\` is not a test card: ${TEST_CARD_HELP}.`);
      }
      return { method: 'test_card', card_number: digits } satisfies TestCardPayment;
    },
    async authorizePayment(request) {
      calls.push(`authorize ${request.intentId}`);
      const previous = charges.get(request.intentId);
      if (previous)
        return {
          status: previous.status === 'declined' ? 'declined' : 'authorized',
          reference: previous.reference,
          declineReason: previous.declineReason,
        };
      const { card_number } = request.payment as TestCardPayment;
      const reference = `tc_${createHash('sha256').update(request.intentId).digest('hex').slice(0, 24)}`;
      const declined = card_number === TEST_CARD_NUMBERS.declined;
      const charge = {
        status: declined ? ('declined' as const) : ('authorized' as const),
        reference,
        amountCents: request.amountCents,
        declineReason: declined ? 'the card was declined' : undefined,
        refunded: false,
        card: card_number,
      };
      charges.set(request.intentId, charge);
      return { status: charge.status, reference, declineReason: charge.declineReason };
    },
    async capturePayment(request) {
      calls.push(`capture ${request.intentId}`);
      const charge = find(request);
      if (charge.status === 'captured') return;
      if (charge.status !== 'authorized') throw new PaymentCaptureError(`the authorization is ${charge.status}`);
      if (charge.card === TEST_CARD_NUMBERS.captureFails) {
        throw new PaymentCaptureError('the issuer refused the capture (test card 4000 0000 0000 0341)');
      }
      charge.status = 'captured';
    },
    async voidPayment(request) {
      calls.push(`void ${request.intentId}`);
      const charge = find(request);
      if (charge.status === 'captured') throw new Error('test card: a captured charge cannot be voided; refund it');
      if (charge.status === 'authorized') charge.status = 'voided';
    },
    async retrievePayment({ intentId }) {
      const charge = charges.get(intentId);
      if (charge === undefined) return undefined;
      return {
        status: charge.status === 'declined' ? 'declined' : charge.status === 'captured' ? 'succeeded' : 'authorized',
        reference: charge.reference,
        declineReason: charge.declineReason,
      };
    },
    async refundPayment({ intentId }) {
      calls.push(`refund ${intentId}`);
      const charge = charges.get(intentId);
      if (charge) charge.refunded = true;
    },
  };
}
