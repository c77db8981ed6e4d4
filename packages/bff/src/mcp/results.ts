/**
 * What the shop's MCP tools share with the rest of the feature without loading the MCP SDK: the tools' names and
 * descriptions (`tools/list` and `GET /llms.txt` give the same), their context, and their results (structured
 * content plus its JSON text; busy as a result with the seconds to wait, never an error).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** One answer of a shop route: its HTTP status and JSON body. */
export interface ShopAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What the tools call: the shop's own routes (see `ShopCaller` in index.ts), already bound to the MCP request. */
export type BoundShopCall = (
  method: 'GET' | 'POST',
  path: string,
  options?: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> },
) => Promise<ShopAnswer>;

/** A WHOIS/RDAP record as a tool gives it (RFC 9083 terms; no registrant's personal name). */
export interface WhoisSummary {
  readonly registered: boolean;
  readonly registrar: string | null;
  readonly status: readonly string[];
  readonly registered_at: string | null;
  readonly expires_at: string | null;
}

/** What the tools need for one MCP request. */
export interface ToolContext {
  readonly shopName: string;
  readonly shop: BoundShopCall;
  /** WHOIS of a domain through the Public API; undefined when the shop has none (a ready `client`). */
  readonly whois: ((domain: string) => Promise<WhoisSummary>) | undefined;
  /** Whether `GET /siblings` (alternate TLDs) is served. */
  readonly siblings: boolean;
  /** Whether `GET /orders/:id` (the shop sells as merchant of record) is served. */
  readonly orders: boolean;
  /**
   * The brokerage tools (option `brokerage`): a consent link for the person (consent.ts), or undefined when the
   * shop offers no brokerage.
   */
  readonly consentLink:
    | ((domain: string, budgetCents: number) => Promise<{ url: string; expiresAt: string }>)
    | undefined;
  /**
   * Runs one tool call: counts it against the agent's allowance (a busy result past it), records its metric and
   * log line under the request id.
   */
  readonly guard: (tool: string, run: () => Promise<CallToolResult>) => Promise<CallToolResult>;
}

/** Fields every tool's output carries: `outcome`, and when busy the seconds to wait. */
export const outcomeShape = {
  outcome: z
    .enum(['ok', 'busy'])
    .describe('`ok`: the answer is here. `busy`: the shop cannot answer now; call again after `retry_after_seconds`.'),
  retry_after_seconds: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('When busy: seconds to wait before calling again.'),
  message: z.string().optional().describe('When busy: what to tell the person.'),
};

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/** The tools' names and one-line descriptions (`tools/list` and `GET /llms.txt` both give these). */
export const TOOL_DESCRIPTIONS = {
  search_domains:
    'Search the shop for domain names: up to 5 results with price and availability exactly as the shop shows them, plus the same word under alternate TLDs.',
  domain_details:
    'One domain: whether it can be bought here and its price; when it is taken, why (its WHOIS/RDAP record: registrar, status, dates).',
  checkout_link:
    'Create a hosted checkout link for one domain. Give the link to the person: they open it and pay themselves. Nothing is charged by this tool and nothing is bought until the person pays.',
  order_status:
    'The status of an order the person placed in this shop, given its order id and the order token they were given.',
  brokerage_eligibility:
    "Whether the shop's brokers can try to acquire a domain that is not for sale here (and why not), with the smallest budget they accept.",
  brokerage_request:
    'Prepare a request for brokers to acquire a domain for the person. Creates nothing: it answers a consent link the person must open to type their e-mail address and agree; only then is the request sent.',
} as const;

/** The names of the tools this shop serves, in `tools/list` order. */
export function toolNames(ctx: {
  readonly orders: boolean;
  readonly brokerage: boolean;
}): (keyof typeof TOOL_DESCRIPTIONS)[] {
  return [
    'search_domains',
    'domain_details',
    'checkout_link',
    ...(ctx.orders ? (['order_status'] as const) : []),
    ...(ctx.brokerage ? (['brokerage_eligibility', 'brokerage_request'] as const) : []),
  ];
}

/** A result carrying `structured` both as structured content and as its JSON text (MCP "Structured content"). */
export function ok(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** The busy result: a result with the seconds to wait, never an error. */
export function busyResult(retryAfterSeconds: number, message: string): CallToolResult {
  return ok({ outcome: 'busy', retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)), message });
}

/** A tool error the agent can read and act on (MCP "tool execution errors"): the shop's own error message. */
export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}
