/**
 * The purchase feature's options (`payments`, `allowTestCardsInProduction`, `onOrderFailed`, `onOrderEvent`,
 * `orderDeadlineSeconds`), the order flow's timings with their defaults, and the environment variables
 * (`DOMAINKIT_PAYMENTS`, `DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION`).
 */
import { z } from 'zod';
import { isFunction, type EnvReader, type EnvVariable } from '../config/kit.ts';
import { nodeEnv } from '../platform.ts';
import { RECORD_DEADLINE_MS, type OrderTimings } from './deps.ts';
import { isTwoPhase, testCardPayments, testPaymentsRefusal, type PaymentAdapter } from './payments.ts';
import type { OrderStep } from './order-steps.ts';
import type { FailedOrderReport } from './settle.ts';

/** The `createBff` options of the purchase feature, as checked at creation (in the order `BffOptions` lists them). */
export const purchaseOptionsShape = {
  payments: z
    .custom<PaymentAdapter>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        (isFunction((v as PaymentAdapter).confirmPayment) || isTwoPhase(v as PaymentAdapter)) &&
        typeof (v as PaymentAdapter).name === 'string',
      {
        error:
          'must be a payment adapter { name, authorizePayment, capturePayment, voidPayment } or { name, confirmPayment } (such as testCardPayments())',
      },
    )
    .optional(),
  allowTestCardsInProduction: z
    .boolean({ error: 'must be true or false (true lets a staging shop take test cards when NODE_ENV is production)' })
    .optional(),
  onOrderFailed: z
    .custom<(report: FailedOrderReport) => void>(isFunction, { error: 'must be a function (report) => void' })
    .optional(),
  onOrderEvent: z
    .custom<(step: OrderStep) => void | Promise<void>>(isFunction, { error: 'must be a function (step) => void' })
    .optional(),
  orderDeadlineSeconds: z
    .number({ error: 'must be a number of seconds, such as 30' })
    .min(5, 'must be at least 5 seconds')
    .max(600, 'must be at most 600 seconds (a quote lives 10 minutes)')
    .optional(),
};

/** Why a ready `client` cannot serve the MoR routes `payments` enables, or `undefined`. */
export function clientForPurchaseProblem(value: Record<string, unknown>): string | undefined {
  const client = value.client as Record<string, unknown> | undefined;
  if (
    client !== undefined &&
    value.payments !== undefined &&
    (typeof client.quotes !== 'object' || typeof client.orders !== 'object')
  )
    return '`client` must have `quotes` and `orders` (a PartnerClient) when `payments` enables the MoR routes';
  return undefined;
}

/** Why a test payment adapter is refused here (purchase/payments.ts `testPaymentsRefusal`), as an options problem. */
export function testPaymentsProblem(value: Record<string, unknown>): string | undefined {
  const payments = value.payments as PaymentAdapter | undefined;
  const client = value.client as { keyId?: unknown } | undefined;
  const keyId = (value.marketplace as { keyId?: unknown } | undefined)?.keyId ?? client?.keyId;
  const refusal = testPaymentsRefusal({
    adapter: typeof payments === 'object' && payments !== null ? payments : undefined,
    keyId: typeof keyId === 'string' ? keyId : undefined,
    nodeEnv: nodeEnv(),
    allowInProduction: value.allowTestCardsInProduction === true,
  });
  if (refusal === 'live_credential')
    return '`payments` is the test-card adapter, refused with a LIVE credential (pk_live_…): every order would be a real sale you owe the marketplace, with no money collected. Plug in your payment provider, or use a SANDBOX credential';
  if (refusal === 'production')
    return '`payments` is the test-card adapter, refused when NODE_ENV is "production": plug in your payment provider, or, for a staging shop on a SANDBOX credential, set `allowTestCardsInProduction: true`';
  return undefined;
}

/**
 * The order flow's timings (ms), every default in one place.
 * @param o - `background.leaseSeconds`, `upstreamBudget.maxWaitMs` (ms) and `orderDeadlineSeconds`.
 */
export function resolveOrderTimings(o: {
  readonly leaseSeconds?: number | undefined;
  readonly budgetMaxWaitMs?: number | undefined;
  readonly orderDeadlineSeconds?: number | undefined;
}): OrderTimings {
  return Object.freeze({
    leaseMs: (o.leaseSeconds ?? 60) * 1000,
    quoteMarginMs: 30_000,
    reserveWaitMs: Math.max(3_000, o.budgetMaxWaitMs ?? 0),
    recordWaitMs: 5_000,
    recoveryRecordWaitMs: 10_000,
    priceLookupWaitMs: 2_000,
    retryBaseMs: 5_000,
    retryMaxMs: 600_000,
    abandonAfterMs: 3_600_000,
    recoveryBatch: 25,
    recordDeadlineMs: o.orderDeadlineSeconds === undefined ? RECORD_DEADLINE_MS : o.orderDeadlineSeconds * 1000,
  });
}

/** The purchase feature's environment variables, in the order the README documents them. */
export const PURCHASE_ENV_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'DOMAINKIT_PAYMENTS',
    required: false,
    description:
      'test_card to sell as Merchant of Record with the test-card adapter (SANDBOX credential only: refused with a pk_live_ key, and with NODE_ENV=production unless DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION=true)',
  },
  {
    name: 'DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION',
    required: false,
    description:
      'true: a staging shop (SANDBOX credential) takes test cards with NODE_ENV=production; default false; never with a LIVE key',
  },
];

/**
 * `payments` and `allowTestCardsInProduction` from `DOMAINKIT_PAYMENTS` and `DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION`.
 * @param keyId - `DOMAINKIT_KEY_ID` (a LIVE credential refuses the test-card adapter).
 */
export function readPurchaseEnv(
  env: EnvReader,
  keyId: string | undefined,
): { payments?: PaymentAdapter; allowTestCardsInProduction?: boolean } {
  const payments = env.get('DOMAINKIT_PAYMENTS');
  if (payments !== undefined && payments !== 'test_card') {
    env.problem(
      'DOMAINKIT_PAYMENTS',
      `must be "test_card" (the only adapter built in; plug a real provider in from code with createBff({ payments })); received ${JSON.stringify(payments)}`,
    );
  }
  const allowTestCardsInProduction = env.bool('DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION') === true;
  const refusal = testPaymentsRefusal({
    adapter: payments === 'test_card' ? { test: true } : undefined,
    keyId,
    nodeEnv: env.env.NODE_ENV,
    allowInProduction: allowTestCardsInProduction,
  });
  if (refusal === 'live_credential')
    env.problem(
      'DOMAINKIT_PAYMENTS',
      'test_card is refused with a LIVE credential (DOMAINKIT_KEY_ID pk_live_…): every order would be a real sale you owe the marketplace, with no money collected. Remove DOMAINKIT_PAYMENTS (plug your payment provider in from code), or use a SANDBOX credential',
    );
  if (refusal === 'production')
    env.problem(
      'DOMAINKIT_PAYMENTS',
      'test_card is refused when NODE_ENV=production: remove it, or, for a staging shop on a SANDBOX credential, set DOMAINKIT_ALLOW_TEST_CARDS_IN_PRODUCTION=true',
    );
  return {
    ...(payments === 'test_card' && { payments: testCardPayments() }),
    ...(allowTestCardsInProduction && { allowTestCardsInProduction }),
  };
}
