/**
 * The payment-provider adapter of the MoR flow (spec 1 "Sell as Merchant of Record": the partner collects payment
 * from its buyer, then records the sale), and the test-card adapter shipped for the sandbox and the demo.
 *
 * The BFF stores an order intent before it calls {@link PaymentAdapter.confirmPayment}, records the order upstream
 * after the payment succeeds, and calls {@link PaymentAdapter.refundPayment} when the marketplace refuses the
 * order for good (price changed, domain sold).
 */
import { createHash } from 'node:crypto';

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

/** The provider's answer. */
export interface PaymentResult {
  /** `succeeded`: the money is taken. `declined`: nothing was taken; the buyer may try another method. */
  readonly status: 'succeeded' | 'declined';
  /** The provider's reference for the charge (sent upstream as `external_payment_ref`). */
  readonly reference: string;
  /** A visitor-safe reason for a decline, such as "card declined". */
  readonly declineReason?: string | undefined;
}

/** Raised by {@link PaymentAdapter.parsePayment} for a payload the visitor must fix; answered 400 with the message. */
export class PaymentInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentInputError';
  }
}

/**
 * A payment provider, plugged into the BFF with the `payments` option.
 *
 * `confirmPayment` must be idempotent per `intentId` (providers such as Stripe take it as their idempotency key):
 * the BFF may call it again for an intent whose first answer was lost.
 */
export interface PaymentAdapter {
  /** A short name for logs, such as `stripe` or `test_card`. */
  readonly name: string;
  /**
   * Checks the browser's `payment` object before anything is stored or charged, and returns what
   * `confirmPayment` receives. Default: any JSON object is passed as is.
   * @throws {PaymentInputError} with a message telling the visitor what to fix.
   */
  parsePayment?(payment: unknown): unknown;
  /** Charges the buyer. Throwing means "outcome unknown": the BFF asks {@link retrievePayment} later, if present. */
  confirmPayment(request: PaymentRequest): Promise<PaymentResult>;
  /** The outcome of an intent's payment whose answer was lost (a crash), or `undefined` if the provider has none. */
  retrievePayment?(request: { readonly intentId: string }): Promise<PaymentResult | undefined>;
  /** Gives the money back when the marketplace refused the order for good. */
  refundPayment?(request: {
    readonly intentId: string;
    readonly reference: string;
    readonly amountCents: number;
    readonly currency: string;
  }): Promise<void>;
}

/** The test cards of the test-card adapter (digits only). */
export const TEST_CARD_NUMBERS = {
  /** Always succeeds. */
  succeeds: '4242424242424242',
  /** Always declined. */
  declined: '4000000000000002',
} as const;

/** The payload the test-card adapter accepts: `{"method": "test_card", "card_number": "4242 4242 4242 4242"}`. */
export interface TestCardPayment {
  readonly method: 'test_card';
  readonly card_number: string;
}

const TEST_CARD_HELP = 'use a test card: 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined)';

/**
 * The test-card adapter for the sandbox and the demo: `4242 4242 4242 4242` succeeds, `4000 0000 0000 0002` is
 * declined, anything else is refused as input. No money moves; charges and refunds are remembered in memory, and
 * the reference is derived from the intent id, so confirming an intent twice gives the same answer.
 */
export function testCardPayments(): PaymentAdapter & {
  readonly charges: ReadonlyMap<string, PaymentResult & { refunded: boolean }>;
} {
  const charges = new Map<string, PaymentResult & { refunded: boolean }>();
  return {
    name: 'test_card',
    charges,
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
          `Unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `\`payment.${k}\``).join(', ')}: only \`method\` and \`card_number\` are accepted.`,
        );
      if (typeof p.card_number !== 'string')
        throw new PaymentInputError(`\`payment.card_number\` is required: ${TEST_CARD_HELP}.`);
      const digits = p.card_number.replace(/[\s-]/g, '');
      if (digits !== TEST_CARD_NUMBERS.succeeds && digits !== TEST_CARD_NUMBERS.declined) {
        throw new PaymentInputError(`\`payment.card_number\` is not a test card: ${TEST_CARD_HELP}.`);
      }
      return { method: 'test_card', card_number: digits } satisfies TestCardPayment;
    },
    async confirmPayment(request) {
      const previous = charges.get(request.intentId);
      if (previous) return previous;
      const { card_number } = request.payment as TestCardPayment;
      const reference = `tc_${createHash('sha256').update(request.intentId).digest('hex').slice(0, 24)}`;
      const result =
        card_number === TEST_CARD_NUMBERS.succeeds
          ? { status: 'succeeded' as const, reference, refunded: false }
          : { status: 'declined' as const, reference, declineReason: 'the card was declined', refunded: false };
      charges.set(request.intentId, result);
      return result;
    },
    async retrievePayment({ intentId }) {
      return charges.get(intentId);
    },
    async refundPayment({ intentId }) {
      const charge = charges.get(intentId);
      if (charge) charge.refunded = true;
    },
  };
}
