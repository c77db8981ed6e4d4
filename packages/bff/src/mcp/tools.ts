/**
 * The shop's MCP tools (MCP "Tools": input and output schemas, structured content, annotations). Each tool answers
 * through the shop's own routes (`GET /search`, `GET /siblings`, `GET /domains/:name`, `POST /checkout`,
 * `GET /orders/:id`), so an agent sees exactly the names and prices a visitor sees, after the same validation and
 * from the same caches and upstream budget. No tool moves money or records an order: `checkout_link` only creates
 * a hosted checkout session (non-MoR, Partner API spec 2.3) whose URL a person opens and pays.
 *
 * When the shop cannot answer now (the agent's allowance, or the upstream budget the visitors share, is spent) a
 * tool answers `{"outcome": "busy", "retry_after_seconds", "message"}`: a result the agent can act on, not an error.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  domainNameSchema,
  widgetDomainSchema,
  widgetOrderStatusSchema,
  widgetSiblingSchema,
} from '@domainkit/protocol';
import { z } from 'zod';
import {
  READ_ONLY,
  TOOL_DESCRIPTIONS,
  busyResult,
  ok,
  outcomeShape,
  toolError,
  type ShopAnswer,
  type ToolContext,
} from './results.ts';

interface ShopError {
  readonly code: string;
  readonly message: string;
  readonly retry_after?: number;
}

function errorOf(answer: ShopAnswer): ShopError {
  const e = (answer.body as { error?: Partial<ShopError> } | null)?.error;
  return { code: e?.code ?? 'upstream_error', message: e?.message ?? 'The shop could not answer.', ...e };
}

/** A shop answer that is not a success, as a tool result: busy (503/429) or a readable tool error. */
function failure(answer: ShopAnswer): CallToolResult {
  const error = errorOf(answer);
  if (error.code === 'busy' || error.code === 'rate_limited') return busyResult(error.retry_after ?? 5, error.message);
  return toolError(`${error.code}: ${error.message}`);
}

/** The MCP server of one request, with the shop's tools. */
export function createShopServer(ctx: ToolContext, version: string): McpServer {
  const server = new McpServer(
    { name: 'domainkit-shop', title: ctx.shopName, version },
    {
      instructions: `${ctx.shopName}: find a domain name for a person and hand them a checkout link to pay. Prices are in cents of the currency given. Tools never charge anyone: the person pays on the hosted checkout page.`,
    },
  );

  server.registerTool(
    'search_domains',
    {
      title: 'Search domain names',
      description: TOOL_DESCRIPTIONS.search_domains,
      inputSchema: {
        query: z
          .string({ error: 'query is required' })
          .trim()
          .min(1, 'query is required: a word or a domain to search for')
          .max(100, 'query must be at most 100 characters')
          .describe('A word, phrase or domain to look for, such as "bakery" or "bakery.com".'),
      },
      outputSchema: {
        ...outcomeShape,
        query: z.string().optional().describe('The query as the shop read it (trimmed, lower case).'),
        results: z
          .array(widgetDomainSchema)
          .optional()
          .describe('Up to 5 domains: `price_cents` in cents of `currency`, as the shop shows them.'),
        alternatives: z
          .array(widgetSiblingSchema)
          .optional()
          .describe(
            'The word under other TLDs; a marketplace listing there has `price_cents` null (ask domain_details).',
          ),
      },
      annotations: { title: 'Search domain names', ...READ_ONLY },
    },
    ({ query }) =>
      ctx.guard('search_domains', async () => {
        const q = `q=${encodeURIComponent(query)}`;
        const [search, siblings] = await Promise.all([
          ctx.shop('GET', `/search?${q}`),
          ctx.siblings ? ctx.shop('GET', `/siblings?${q}`) : undefined,
        ]);
        if (search.status !== 200) return failure(search);
        const found = search.body as { query: string; results: unknown[] };
        const alternatives =
          siblings?.status === 200 ? (siblings.body as { siblings: unknown[] }).siblings : ([] as unknown[]);
        return ok({ outcome: 'ok', query: found.query, results: found.results, alternatives });
      }),
  );

  server.registerTool(
    'domain_details',
    {
      title: 'One domain: price, availability, WHOIS',
      description: TOOL_DESCRIPTIONS.domain_details,
      inputSchema: { domain: domainNameSchema.describe('The domain name, such as "bakery.com".') },
      outputSchema: {
        ...outcomeShape,
        domain: z.string().optional(),
        listed: z.boolean().optional().describe('Whether this shop offers the domain at all.'),
        available: z.boolean().optional().describe('Whether the person can buy it here now.'),
        price_cents: z.number().int().nullable().optional().describe('The price in cents of `currency`.'),
        currency: z.string().nullable().optional(),
        whois: z
          .object({
            registered: z.boolean(),
            registrar: z.string().nullable(),
            status: z.array(z.string()).describe('RDAP status values (RFC 9083 10.2.2).'),
            registered_at: z.string().nullable(),
            expires_at: z.string().nullable(),
          })
          .nullable()
          .optional()
          .describe('When the domain is taken: its WHOIS/RDAP record, which says who holds it and until when.'),
      },
      annotations: { title: 'One domain', ...READ_ONLY },
    },
    ({ domain }) =>
      ctx.guard('domain_details', async () => {
        const answer = await ctx.shop('GET', `/domains/${encodeURIComponent(domain)}`);
        if (answer.status !== 200 && answer.status !== 404) return failure(answer);
        const listed = answer.status === 200;
        const detail = listed
          ? (answer.body as { domain: string; available: boolean; price_cents: number; currency: string })
          : undefined;
        if (detail?.available === true) return ok({ outcome: 'ok', listed, ...detail, whois: null });
        const whois = ctx.whois === undefined ? null : await ctx.whois(domain).catch(() => null);
        return ok({
          outcome: 'ok',
          domain,
          listed,
          available: false,
          price_cents: null,
          currency: detail?.currency ?? null,
          whois,
        });
      }),
  );

  server.registerTool(
    'checkout_link',
    {
      title: 'Checkout link for a person to pay',
      description: TOOL_DESCRIPTIONS.checkout_link,
      inputSchema: {
        domain: domainNameSchema.describe('The domain the person chose, such as "bakery.com".'),
        locale: z
          .string()
          .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as "fr-FR"')
          .max(35)
          .optional()
          .describe('The person\'s language (BCP 47), such as "fr-FR"; the checkout page speaks it.'),
      },
      outputSchema: {
        ...outcomeShape,
        domain: z.string().optional(),
        checkout_url: z
          .string()
          .optional()
          .describe('Give this link to the person: they open it and pay there. Valid until `expires_at`.'),
        expires_at: z.string().optional(),
        price_cents: z.number().int().optional().describe('The price the checkout charges, in cents of `currency`.'),
        currency: z.string().optional(),
      },
      annotations: {
        title: 'Checkout link',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    ({ domain, locale }) =>
      ctx.guard('checkout_link', async () => {
        const answer = await ctx.shop('POST', '/checkout', {
          body: { domain, ...(locale !== undefined && { locale }) },
        });
        if (answer.status !== 201) return failure(answer);
        const session = answer.body as {
          checkout_url: string;
          expires_at: string;
          price_cents: number;
          currency: string;
        };
        return ok({
          outcome: 'ok',
          domain,
          checkout_url: session.checkout_url,
          expires_at: session.expires_at,
          price_cents: session.price_cents,
          currency: session.currency,
        });
      }),
  );

  if (ctx.orders) {
    server.registerTool(
      'order_status',
      {
        title: 'Status of an order',
        description: TOOL_DESCRIPTIONS.order_status,
        inputSchema: {
          order_id: z.string().min(1).max(100).describe('The order id the person was given.'),
          order_token: z.string().min(1).max(200).describe('The order token the person was given with it.'),
        },
        outputSchema: {
          ...outcomeShape,
          order: widgetOrderStatusSchema.optional().describe('The order: its status, domain and price.'),
        },
        annotations: { title: 'Order status', ...READ_ONLY, openWorldHint: false },
      },
      ({ order_id, order_token }) =>
        ctx.guard('order_status', async () => {
          const answer = await ctx.shop('GET', `/orders/${encodeURIComponent(order_id)}`, {
            headers: { 'X-Order-Token': order_token },
          });
          if (answer.status !== 200) return failure(answer);
          return ok({ outcome: 'ok', order: answer.body });
        }),
    );
  }
  if (ctx.consentLink !== undefined) registerBrokerageTools(server, ctx, ctx.consentLink);
  return server;
}

const eligibilityShape = {
  domain: z.string().optional(),
  eligible: z.boolean().optional(),
  reason: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Why not: `listed` (buy it here), `live_site` (its owner is not approached), `open_case`; null when eligible.',
    ),
  currency: z.string().optional(),
  min_budget_cents: z
    .number()
    .int()
    .optional()
    .describe('The smallest budget the brokers accept, in cents of `currency`.'),
};

/** `brokerage_eligibility` and `brokerage_request` (option `brokerage`): nothing is opened without the person. */
function registerBrokerageTools(
  server: McpServer,
  ctx: ToolContext,
  consentLink: NonNullable<ToolContext['consentLink']>,
): void {
  const eligibility = async (domain: string) => {
    const answer = await ctx.shop('GET', `/brokerage/eligibility?domain=${encodeURIComponent(domain)}`);
    return answer;
  };
  const pick = (body: unknown) => {
    const e = body as {
      domain: string;
      eligible: boolean;
      reason: string | null;
      currency: string;
      min_budget_cents: number;
    };
    return {
      domain: e.domain,
      eligible: e.eligible,
      reason: e.reason,
      currency: e.currency,
      min_budget_cents: e.min_budget_cents,
    };
  };
  server.registerTool(
    'brokerage_eligibility',
    {
      title: 'Can brokers try for this domain?',
      description: TOOL_DESCRIPTIONS.brokerage_eligibility,
      inputSchema: { domain: domainNameSchema.describe('The domain the person wants, such as "bakery.com".') },
      outputSchema: { ...outcomeShape, ...eligibilityShape },
      annotations: { title: 'Brokerage eligibility', ...READ_ONLY },
    },
    ({ domain }) =>
      ctx.guard('brokerage_eligibility', async () => {
        const answer = await eligibility(domain);
        if (answer.status !== 200) return failure(answer);
        return ok({ outcome: 'ok', ...pick(answer.body) });
      }),
  );
  server.registerTool(
    'brokerage_request',
    {
      title: 'Prepare a brokerage request (the person consents)',
      description: TOOL_DESCRIPTIONS.brokerage_request,
      inputSchema: {
        domain: domainNameSchema.describe('The domain the person wants, such as "bakery.com".'),
        budget_cents: z
          .number()
          .int('must be a whole number of cents')
          .positive('must be more than 0 cents')
          .max(2_147_483_647)
          .describe("The person's budget, in cents of the shop's currency (see brokerage_eligibility)."),
      },
      outputSchema: {
        ...outcomeShape,
        ...eligibilityShape,
        consent_url: z
          .string()
          .optional()
          .describe(
            "Give this link to the person: they type their e-mail address and agree there. Nothing is sent before. The page speaks English, French or Arabic: add `&lang=fr` or `&lang=ar` for the person's language, else their browser's decides.",
          ),
        expires_at: z.string().optional().describe('The consent link works until then.'),
      },
      annotations: {
        title: 'Brokerage request',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    ({ domain, budget_cents }) =>
      ctx.guard('brokerage_request', async () => {
        const answer = await eligibility(domain);
        if (answer.status !== 200) return failure(answer);
        const offer = pick(answer.body);
        if (!offer.eligible) return ok({ outcome: 'ok', ...offer });
        if (budget_cents < offer.min_budget_cents)
          return toolError(
            `validation_error: budget_cents must be at least ${offer.min_budget_cents} (cents of ${offer.currency}).`,
          );
        const link = await consentLink(domain, budget_cents);
        return ok({ outcome: 'ok', ...offer, consent_url: link.url, expires_at: link.expiresAt });
      }),
  );
}
