/**
 * Events, webhook registration and the event history (Partner API spec 2.4, 2.5, 4.1 "Webhooks and events", 6).
 */
import { z } from 'zod';
import { policyText, urlProblem } from './input-policy.ts';
import { centsSchema, currencySchema, timestampSchema } from './common.ts';
import { pageLimitSchema } from './lists.ts';

/**
 * The event types: the seven of Partner API spec 6, plus `order.held_for_review` (an order entered manual review; Partner API spec 3 names
 * the held state but no event for entering it: docs/spec-decisions.md). A client must accept unknown types too.
 */
export const EVENT_TYPES = [
  'order.recorded',
  'order.held_for_review',
  'order.manual_review_cleared',
  'order.transfer_started',
  'order.transfer_completed',
  'order.settled',
  'order.refunded',
  'brokerage.case_completed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** `data.order` of order events (Partner API spec 2.5). */
export const eventOrderSchema = z.looseObject({
  public_id: z.string(),
  domain: z.string(),
  status: z.string(),
  sale_price_cents: centsSchema,
  currency: currencySchema,
});

/** `data.case` of `brokerage.case_completed`. */
export const eventCaseSchema = z.looseObject({
  case_id: z.string(),
  domain: z.string(),
  status: z.string(),
  deal_price_cents: centsSchema.nullable().optional(),
  /** The partner's cut of the deal price (minor units), null without a deal. */
  commission_cents: centsSchema.nullable().optional(),
  currency: currencySchema.optional(),
});

/** The order event types (Partner API spec 6): each carries the order it is about in `data.order`. */
export type OrderEventType = Extract<EventType, `order.${string}`>;

/** An event envelope (Partner API spec 2.5) of one `type`, with its `data`. */
function eventOf<T extends EventType, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({
    id: z.string(),
    type: z.literal(type),
    created_at: timestampSchema,
    /** Present in delivered payloads and, in the sandbox, in the history too. */
    partner_id: z.string().optional(),
    data,
  });
}

/** An order event: `data.order` is required (Partner API spec 2.5, 6). */
const orderEvent = <T extends OrderEventType>(type: T) => eventOf(type, z.looseObject({ order: eventOrderSchema }));

/**
 * Every known event (Partner API spec 2.5, 6), a union discriminated on `type`: order events carry a required `data.order`,
 * `brokerage.case_completed` its `data.case`. Use it to validate an event whose type you know; the wire schema
 * {@link eventSchema} also lets through types newer than this package.
 */
export const marketplaceEventSchema = z.discriminatedUnion('type', [
  orderEvent('order.recorded'),
  orderEvent('order.held_for_review'),
  orderEvent('order.manual_review_cleared'),
  orderEvent('order.transfer_started'),
  orderEvent('order.transfer_completed'),
  orderEvent('order.settled'),
  orderEvent('order.refunded'),
  eventOf('brokerage.case_completed', z.looseObject({ case: eventCaseSchema })),
]);

/**
 * A marketplace event (Partner API spec 2.5), discriminated on `type`: `if (event.type === 'order.settled')
 * event.data.order.domain`. A marketplace newer than this package may send a type not in this union: give a
 * `switch` over `type` a `default` branch.
 */
export type MarketplaceEvent = z.infer<typeof marketplaceEventSchema>;

/** The event of one type: `MarketplaceEventOf<'order.settled'>`. */
export type MarketplaceEventOf<T extends EventType> = Extract<MarketplaceEvent, { type: T }>;

/**
 * An event as read from the wire (Partner API spec 2.5): the envelope is checked and `type` is any string, so a client meets
 * newer types; `data.order` and `data.case` are checked when present. Typed as {@link MarketplaceEvent}.
 */
export const eventSchema: z.ZodType<MarketplaceEvent> = z.looseObject({
  id: z.string(),
  type: z.string(),
  created_at: timestampSchema,
  partner_id: z.string().optional(),
  data: z.looseObject({ order: eventOrderSchema.optional(), case: eventCaseSchema.optional() }),
}) as unknown as z.ZodType<MarketplaceEvent>;

/** Whether `type` is one of the {@link EVENT_TYPES} this package knows. */
export function isEventType(type: unknown): type is EventType {
  return typeof type === 'string' && (EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * Query of `GET /events`: `after_id` (exclusive) and `limit` (1–100, default 50; Partner API spec 8 does not show the maximum:
 * `MAX_PAGE_LIMIT`).
 */
export const listEventsParamsSchema = z.strictObject({
  after_id: z.string().min(1).max(100).optional(),
  limit: pageLimitSchema,
});
export type ListEventsParams = z.input<typeof listEventsParamsSchema>;

/** Answer of `GET /events`: `next_cursor` is the id to pass as `after_id` next, or null when caught up. */
export const eventListSchema = z.looseObject({
  events: z.array(eventSchema),
  next_cursor: z.string().nullable(),
});
export type EventList = z.infer<typeof eventListSchema>;

/** Body of `PUT /api/partner/webhooks` (Partner API spec 2.4): HTTPS URL (loopback http allowed in the sandbox) and secret. */
export const webhookRegistrationRequestSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an absolute https URL' }).superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `url ${problem}` });
  }),
  secret: policyText(z.string().min(16, 'secret must be at least 16 characters').max(200)),
});
export type WebhookRegistrationRequest = z.input<typeof webhookRegistrationRequestSchema>;

/** Answer of `PUT /api/partner/webhooks` (Partner API spec 2.4): the secret is never echoed. */
export const webhookRegistrationSchema = z.looseObject({
  url: z.string(),
  active: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema.optional(),
});
export type WebhookRegistration = z.infer<typeof webhookRegistrationSchema>;
