/**
 * The MCP feature (option `mcp`): the shop's tools for AI agents over MCP Streamable HTTP at `POST /mcp`, through
 * the official TypeScript SDK's web-standard transport (stateless, JSON answers), so it runs wherever the BFF runs;
 * and `GET /llms.txt`, a page describing the shop's tools for agents and their builders. The entry every other module
 * of the BFF imports it through.
 *
 * Guards, before anything reaches the MCP server:
 * - DNS-rebinding protection (MCP "Streamable HTTP: security warning"): the host the request was addressed to
 *   (through the trusted proxies) must be one of `mcp.allowedHosts`; else 403 `forbidden`.
 * - Origin: a request with an `Origin` must come from this shop's own origin or one of `allowedOrigins`; else 403
 *   `forbidden`. Agents (no `Origin`) are served.
 * - Each tool call counts against the agent's allowance (`mcp.toolCallsPerMinute`, by client address); past it the
 *   tool answers busy with the seconds to wait. The tools then go through the shop's own routes (validation, caches,
 *   the upstream budget shared with visitors), without counting against the visitors' limits.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PublicClient, type PublicClientOptions } from '@domainkit/client';
import type { Logger } from 'pino';
import { BffHttpError } from '../errors.ts';
import { type BffRequest, JSON_BODY_LIMIT_BYTES, readJson, type RouteSpec } from '../http/index.ts';
import { addressKey, type VisitorHitStore } from '../http/visitor-limits.ts';
import type { BffMetrics } from '../metrics.ts';
import { BFF_VERSION } from '../version.ts';
import { ConsentTokens, consentErrorPage, consentPageRoute, consentSubmitRoute } from './consent.ts';
import type { ResolvedMcp } from './options.ts';
import { TOOL_DESCRIPTIONS, busyResult, toolNames, type ShopAnswer, type WhoisSummary } from './results.ts';

export {
  DEFAULT_MCP_TOOL_CALLS_PER_MINUTE,
  mcpOptionsShape,
  resolveMcp,
  type McpOptions,
  type ResolvedMcp,
} from './options.ts';
export type { ShopAnswer, WhoisSummary } from './results.ts';

/**
 * The shop routes a tool may call, by method and route pattern: reads, and `POST /checkout` (a hosted checkout
 * session a person pays). Never `POST /quotes` or `POST /orders` (MoR: money moves there) nor anything else;
 * the composition builds the tools' route table from this list alone.
 */
export const MCP_SHOP_ROUTES = [
  'GET /search',
  'GET /siblings',
  'GET /domains/:name',
  'GET /orders/:id',
  'POST /checkout',
  'GET /brokerage/eligibility',
] as const;

/**
 * The shop routes the consent page (consent.ts) calls: the eligibility as the page opens, and `POST /brokerage` once
 * the person has agreed. No tool reaches `POST /brokerage`; the composition gives the page a caller of its own.
 */
export const MCP_CONSENT_ROUTES = ['GET /brokerage/eligibility', 'POST /brokerage'] as const;

/**
 * Calls one of the shop's own routes for a tool, as the visitor's browser would call it (its validation, caches and
 * upstream budget) but without the visitor limits: `parent` is the MCP request (its request id, client address
 * and origin carry over). Only the routes of {@link MCP_SHOP_ROUTES} are reachable.
 */
export type ShopCaller = (
  parent: BffRequest,
  method: 'GET' | 'POST',
  path: string,
  options?: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> },
) => Promise<ShopAnswer>;

/** What the MCP feature uses. */
export interface McpFeatureDeps {
  readonly settings: ResolvedMcp;
  readonly shop: ShopCaller;
  /** How to reach the Public API for WHOIS/RDAP (Public API spec 4.2); undefined with a ready `client`. */
  readonly publicApi: PublicClientOptions | undefined;
  /** Whether `GET /siblings`, `GET /orders/:id` and the brokerage routes are served. */
  readonly siblings: boolean;
  readonly orders: boolean;
  readonly brokerage: boolean;
  /** The shop's API secret: consent links are signed under a key derived from it (undefined: no brokerage tools). */
  readonly consentSecret: string | undefined;
  /** Calls {@link MCP_CONSENT_ROUTES} for the consent page, with the attempt key in `Idempotency-Key`. */
  readonly consentShop: ShopCaller;
  /** The shop's brokerage offer (option `brokerage`), shown on the consent page. */
  readonly brokerageOffer: { readonly currency: string; readonly tier: string } | undefined;
  /** Where each agent's tool calls are counted (shared by the processes on PostgreSQL). */
  readonly hits: VisitorHitStore;
  /** Origins allowed to call the BFF from a browser (option `allowedOrigins`). */
  readonly allowedOrigins: readonly string[];
  readonly metrics: Pick<BffMetrics, 'mcpToolCalled'>;
  readonly now: () => number;
  readonly logger: Logger;
}

/** What the handler composes of the MCP feature. */
export interface McpFeature {
  /** `POST /mcp` (MCP Streamable HTTP) and `GET /llms.txt`. */
  readonly routes: readonly RouteSpec[];
}

/** The window an agent's allowance counts in (ms). */
const WINDOW_MS = 60_000;

/**
 * Refuses a request addressed to a host the shop does not answer on (DNS rebinding) or sent from a foreign origin.
 * @throws {BffHttpError} 403 `forbidden` naming what was refused.
 */
export function refuseForeignRequest(
  req: Pick<BffRequest, 'ownOrigin' | 'header'>,
  allowedHosts: ReadonlySet<string>,
  allowedOrigins: readonly string[],
): void {
  const host = new URL(req.ownOrigin).hostname.toLowerCase();
  if (!allowedHosts.has(host))
    throw new BffHttpError(
      'forbidden',
      `This MCP endpoint does not answer on the host ${JSON.stringify(host.slice(0, 100))}: add it to mcp.allowedHosts if the shop is reached there.`,
    );
  const origin = req.header('origin');
  if (origin !== undefined && origin !== req.ownOrigin && !allowedOrigins.includes(origin))
    throw new BffHttpError(
      'forbidden',
      `MCP requests from the origin ${JSON.stringify(origin.slice(0, 100))} are refused: only this shop's own pages and allowedOrigins may call it from a browser.`,
    );
}

/** The MCP feature's routes, made once per BFF. */
export function mcpFeature(deps: McpFeatureDeps): McpFeature {
  const { settings, hits } = deps;
  hits.init?.({ windowMs: WINDOW_MS });
  const tokens =
    deps.brokerage && deps.brokerageOffer !== undefined && deps.consentSecret !== undefined
      ? new ConsentTokens(deps.consentSecret, deps.now)
      : undefined;
  const llms = llmsText(settings.shopName, toolNames({ orders: deps.orders, brokerage: tokens !== undefined }));
  const publicClient = deps.publicApi && new PublicClient(deps.publicApi);
  const whois =
    publicClient &&
    (async (domain: string): Promise<WhoisSummary> => {
      const record = await publicClient.whois(domain);
      return {
        registered: record.registered,
        registrar: record.registrar?.name ?? null,
        status: record.status,
        registered_at: record.dates.registered,
        expires_at: record.dates.expires,
      };
    });

  async function mcp(req: BffRequest): Promise<Response> {
    refuseForeignRequest(req, settings.allowedHosts, deps.allowedOrigins);
    const parsedBody = await readJson(req, JSON_BODY_LIMIT_BYTES);
    const agent = `mcp:${addressKey(req.clientAddress)}`;
    const guard = async (tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> => {
      const started = deps.now();
      const { totalHits, resetTime } = await hits.increment(agent);
      let result: CallToolResult;
      let outcome: string;
      if (totalHits > settings.toolCallsPerMinute) {
        const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? started + WINDOW_MS) - deps.now()) / 1000));
        result = busyResult(
          seconds,
          `This agent has used its ${settings.toolCallsPerMinute} tool calls for this minute; call again in ${seconds} s.`,
        );
        outcome = 'over_allowance';
      } else {
        try {
          result = await run();
        } catch (error) {
          req.logger.error({ err: error, tool }, 'mcp tool failed');
          result = {
            isError: true,
            content: [{ type: 'text', text: 'The shop could not answer; try again shortly.' }],
          };
        }
        outcome = result.isError ? 'error' : ((result.structuredContent?.outcome as string | undefined) ?? 'ok');
      }
      deps.metrics.mcpToolCalled(tool, outcome);
      req.logger.info({ req_id: req.id, tool, outcome, ms: deps.now() - started }, 'mcp tool call');
      return result;
    };
    // The SDK is loaded on the first MCP request only: a BFF without agents never loads it.
    const [{ createShopServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import('./tools.ts'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ]);
    const server = createShopServer(
      {
        shopName: settings.shopName,
        shop: (method, path, options) => deps.shop(req, method, path, options),
        whois,
        siblings: deps.siblings,
        orders: deps.orders,
        consentLink:
          tokens &&
          (async (domain, budgetCents) => {
            const { token, expiresAt } = await tokens.sign(domain, budgetCents);
            return { url: `${req.ownOrigin}${req.mountPath}/mcp/consent?t=${token}`, expiresAt };
          }),
        guard,
      },
      BFF_VERSION,
    );
    // Stateless (a fresh server and transport per request, no session id), JSON answers: any runtime, any replica.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(req.request, { parsedBody });
    } finally {
      void server.close().catch(() => {});
    }
  }

  return {
    routes: [
      { path: '/mcp', POST: mcp },
      ...(tokens === undefined || deps.brokerageOffer === undefined
        ? []
        : [consentRoute(deps, tokens, deps.brokerageOffer)]),
      {
        path: '/llms.txt',
        GET: () => new Response(llms, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } }),
        deadline: false,
      },
    ],
  };
}

/**
 * `GET /mcp/consent` (the page, opened from anywhere: a link in the person's assistant) and `POST /mcp/consent` (the
 * person's form: only from this shop's own page, its `Origin`; a visitor write). Every refusal is a page in the
 * person's language, never JSON.
 */
function consentRoute(
  deps: McpFeatureDeps,
  tokens: ConsentTokens,
  offer: { readonly currency: string; readonly tier: string },
): RouteSpec {
  const page = {
    tokens,
    shopName: deps.settings.shopName,
    shopUrl: deps.settings.shopUrl,
    offer,
    now: deps.now,
    eligibility: (req: BffRequest, domain: string) =>
      deps.consentShop(req, 'GET', `/brokerage/eligibility?domain=${encodeURIComponent(domain)}`),
    openCase: (req: BffRequest, body: Record<string, unknown>, attemptKey: string) =>
      deps.consentShop(req, 'POST', '/brokerage', { body, headers: { 'Idempotency-Key': attemptKey } }),
  };
  const submit = consentSubmitRoute(page);
  return {
    path: '/mcp/consent',
    GET: consentPageRoute(page),
    POST: (req) => {
      // The page answers `Referrer-Policy: no-referrer`, so a browser sends `Origin: null` with its form: then its
      // `Sec-Fetch-Site` says whether the form was this shop's own page.
      const origin = req.header('origin');
      const ownPage =
        origin === req.ownOrigin ||
        ((origin === undefined || origin === 'null') && req.header('sec-fetch-site') === 'same-origin');
      if (!ownPage) throw new BffHttpError('forbidden', "The consent form is sent from this shop's own page only.");
      return submit(req);
    },
    errorPage: consentErrorPage(page),
    limit: 'write',
  };
}

/** The `llms.txt`-style page (llmstxt.org: a title, a summary, then sections of links and notes) of the shop. */
export function llmsText(shopName: string, tools: readonly (keyof typeof TOOL_DESCRIPTIONS)[]): string {
  return [
    `# ${shopName}`,
    '',
    `> ${shopName} sells domain names. AI agents can search it and hand a person a checkout link to pay, over MCP (Streamable HTTP) at \`mcp\` beside this page.`,
    '',
    'Agents never pay and never buy: the person opens the checkout link and pays on the hosted checkout page.',
    'Prices are in cents of the currency given, exactly as the shop shows them. When a tool answers `"outcome": "busy"`, wait `retry_after_seconds` before calling again.',
    '',
    '## MCP endpoint',
    '',
    "- [mcp](mcp): POST JSON-RPC here (MCP Streamable HTTP, no session). Browsers may call it only from this shop's own pages.",
    '',
    '## Tools',
    '',
    ...tools.map((name) => `- \`${name}\`: ${TOOL_DESCRIPTIONS[name]}`),
    '',
  ].join('\n');
}
