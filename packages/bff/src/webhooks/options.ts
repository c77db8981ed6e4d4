/**
 * The webhooks feature's options (`webhook`, `onEvent`), the inbox timings with their defaults, and the environment
 * variables (`DOMAINKIT_WEBHOOK_SECRET`, `DOMAINKIT_WEBHOOK_PUBLIC_URL`).
 */
import { z } from 'zod';
import { didYouMean, firstMessage, httpUrl, isFunction, type EnvReader, type EnvVariable } from '../config/kit.ts';
import { HANDLER_TYPES, type EventHandler, type EventHandlerType, type InboxTimings } from './inbox.ts';

/** Receiving webhooks (Partner API spec 5.3, 6), and optionally registering where they go (Partner API spec 2.4). */
export interface WebhookOptions {
  /** The webhook secret (at least 16 characters) deliveries are signed with; keep it out of code and logs. */
  readonly secret: string;
  /**
   * The public HTTPS URL of this BFF's `POST /webhooks` (for example `https://shop.example/api/domains/webhooks`).
   * When given, the BFF registers it with `secret` at start (`PUT /api/partner/webhooks`).
   */
  readonly publicUrl?: string | undefined;
}

/** The `createBff` options of the webhooks feature, as checked at creation. */
export const webhookOptionsShape = {
  webhook: z
    .strictObject({
      secret: z
        .string({
          error: (issue) =>
            issue.input === undefined
              ? 'is required: the webhook secret deliveries are signed with (at least 16 characters)'
              : 'must be a string',
        })
        .min(16, 'must be at least 16 characters'),
      publicUrl: z
        .string()
        .refine(
          (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
          "must be the absolute https URL of this BFF's POST /webhooks",
        )
        .optional(),
    })
    .optional(),
  onEvent: z
    .record(
      z.string(),
      z.union([z.custom<EventHandler>(isFunction), z.array(z.custom<EventHandler>(isFunction))], {
        error: 'must be a function (event, context) => void, or an array of them',
      }),
      { error: 'must be an object of handlers by event type, such as { "order.settled": (event) => … }' },
    )
    .optional(),
};

/** Likely intended names of mistyped `webhook` keys. */
export const WEBHOOK_ALIASES: Readonly<Record<string, string>> = {
  url: 'publicUrl',
  webhookUrl: 'publicUrl',
  webhookSecret: 'secret',
  signingSecret: 'secret',
};

/** Why a ready `client` cannot serve webhooks, or `undefined`. */
export function clientForWebhooksProblem(value: Record<string, unknown>): string | undefined {
  const client = value.client as Record<string, unknown> | undefined;
  if (
    client !== undefined &&
    value.webhook !== undefined &&
    (typeof client.events !== 'object' || typeof client.webhooks !== 'object')
  )
    return '`client` must have `events` and `webhooks` (a PartnerClient) when `webhook` is set';
  return undefined;
}

/** The problems of `webhook.secret` against the API secret, and of `onEvent`'s types (one line each). */
export function webhookProblems(value: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const secret = (value.marketplace as { secret?: unknown } | undefined)?.secret;
  const webhookSecret = (value.webhook as { secret?: unknown } | undefined)?.secret;
  if (typeof secret === 'string' && secret === webhookSecret) {
    problems.push('`webhook.secret` must differ from `marketplace.secret`: choose a separate webhook signing secret');
  }
  if (typeof value.onEvent === 'object' && value.onEvent !== null) {
    for (const type of Object.keys(value.onEvent)) {
      const problem = unknownEventTypeProblem(type);
      if (problem) problems.push(`\`onEvent\` ${problem}`);
    }
  }
  return problems;
}

/**
 * Why `type` cannot take an event handler (it is neither a known event type of Partner API spec 6 nor `*`), with the likely
 * intended type, or `undefined` when it can.
 */
export function unknownEventTypeProblem(type: string): string | undefined {
  if ((HANDLER_TYPES as readonly string[]).includes(type)) return undefined;
  const hint = didYouMean(type, HANDLER_TYPES);
  return hint
    ? `received event type \`${type}\`; did you mean \`${hint}\`?`
    : `received unknown event type \`${type}\`; known types: ${HANDLER_TYPES.join(', ')}`;
}

/** The handlers given as `onEvent`, flattened to (type, handler) pairs (`validateBffOptions` refused any other type). */
export function resolveEventHandlers(
  onEvent: Readonly<Record<string, unknown>> | undefined,
): ReadonlyArray<readonly [type: EventHandlerType, handler: EventHandler]> {
  const handlers: Array<readonly [EventHandlerType, EventHandler]> = [];
  for (const [type, handler] of Object.entries(onEvent ?? {}))
    for (const h of Array.isArray(handler) ? handler : [handler])
      handlers.push([type as EventHandlerType, h as EventHandler]);
  return Object.freeze(handlers);
}

/** The inbox's timings (ms) and limits, every default in one place (none is an option yet). */
export const INBOX_TIMINGS: InboxTimings = Object.freeze({
  leaseMs: 300_000,
  maxAttempts: 8,
  retryBaseMs: 2_000,
  retryMaxMs: 600_000,
  minRescheduleMs: 50,
  catchUpPageLimit: 100,
});

/** The webhooks feature's environment variables, in the order the README documents them. */
export const WEBHOOK_ENV_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'DOMAINKIT_WEBHOOK_SECRET',
    required: false,
    description: 'the webhook signing secret (16+ characters); enables POST /webhooks',
  },
  {
    name: 'DOMAINKIT_WEBHOOK_PUBLIC_URL',
    required: false,
    description: 'the public URL of POST /webhooks, registered with the marketplace at start',
  },
];

/**
 * `webhook` from `DOMAINKIT_WEBHOOK_SECRET` and `DOMAINKIT_WEBHOOK_PUBLIC_URL`.
 * @param apiSecret - `DOMAINKIT_API_SECRET` (the webhook secret must differ).
 */
export function readWebhookEnv(env: EnvReader, apiSecret: string | undefined): { webhook?: WebhookOptions } {
  const secret = env.get('DOMAINKIT_WEBHOOK_SECRET');
  if (secret !== undefined && secret.length < 16)
    env.problem('DOMAINKIT_WEBHOOK_SECRET', 'must be at least 16 characters');
  if (secret !== undefined && secret === apiSecret)
    env.problem('DOMAINKIT_WEBHOOK_SECRET', 'must differ from DOMAINKIT_API_SECRET');
  const publicUrl = env.get('DOMAINKIT_WEBHOOK_PUBLIC_URL');
  if (publicUrl !== undefined) {
    const message = firstMessage(httpUrl, publicUrl);
    if (message) env.problem('DOMAINKIT_WEBHOOK_PUBLIC_URL', `${message}; received ${JSON.stringify(publicUrl)}`);
    if (secret === undefined)
      env.problem(
        'DOMAINKIT_WEBHOOK_PUBLIC_URL',
        'needs DOMAINKIT_WEBHOOK_SECRET: the secret deliveries will be signed with',
      );
  }
  return secret === undefined ? {} : { webhook: { secret, ...(publicUrl !== undefined && { publicUrl }) } };
}
