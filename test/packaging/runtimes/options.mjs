/**
 * The BFF's options, shared by every host of this project: the marketplace credential, the webhook secret and the
 * storage come from the environment (a Worker's bindings on workerd). `DK_DATABASE_URL` set: PostgreSQL (in its own
 * schema `DK_DATABASE_SCHEMA`); unset: embedded PGlite in memory.
 */
import { testCardPayments } from '@domainkit/bff/handler';

/** The constant a bare route of every host answers (the bench's baseline; the same shape as a search answer). */
export const BARE_ANSWER = JSON.stringify({
  query: 'coffee',
  results: [{ domain: 'coffeehouse.com', available: true, price_cents: 250000, currency: 'USD' }],
});

/**
 * The bench's second baseline: a constant with the cached search's own answer (its body and headers, as the bench read
 * them from one search before starting the hosts and passes them in `DK_BENCH_SAME_ANSWER`, JSON `{ body, headers }`),
 * each answer with a new `x-request-id` as the BFF gives. Against it the ratio is the BFF's own work (routing, cache,
 * CORS, request id); against {@link BARE_ANSWER} it also holds what the runtime spends on the BFF's longer answer.
 * @param {Record<string, string | undefined>} env
 * @returns {{ body: string, headers: () => Record<string, string> } | undefined} undefined when the bench set none.
 */
export function sameAnswer(env) {
  if (env.DK_BENCH_SAME_ANSWER === undefined) return undefined;
  const { body, headers } = JSON.parse(env.DK_BENCH_SAME_ANSWER);
  return { body, headers: () => ({ ...headers, 'x-request-id': crypto.randomUUID() }) };
}

/** @param {Record<string, string | undefined>} env */
export function bffOptions(env, basePath = '/dk') {
  return {
    basePath,
    marketplace: { baseUrl: env.DK_API_BASE_URL, keyId: env.DK_KEY_ID, secret: env.DK_API_SECRET, maxRetries: 0 },
    payments: testCardPayments(),
    webhook: { secret: env.DK_WEBHOOK_SECRET },
    database: env.DK_DATABASE_URL ? { url: env.DK_DATABASE_URL, schema: env.DK_DATABASE_SCHEMA } : { memory: true },
    returnUrl: 'https://shop.example/thanks',
    // The shop's tools for AI agents at POST /mcp (issue 25: on every host the BFF runs on).
    mcp: true,
    // `next start` runs with NODE_ENV=production: a staging shop on a SANDBOX credential may keep test cards.
    allowTestCardsInProduction: true,
    logger: env.DK_LOG === '1' ? undefined : false,
    visitorLimits: env.DK_VISITOR_LIMITS === '1' ? undefined : false,
  };
}
