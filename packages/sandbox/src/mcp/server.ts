/**
 * The sandbox's Model Context Protocol server (Streamable HTTP, official TypeScript SDK; Public API spec 5.2 "the MCP
 * server"): the Public API's batchable reads as tools — `search_domain`, `tld_registration_price`,
 * `whois_lookup` — for AI agents.
 *
 * - `POST {base}/mcp`: anonymous calls are served with masked marketplace prices; calls with
 *   `Authorization: Bearer <access token>` (scope `pricing:read`) see real prices.
 * - `POST {base}/mcp/signed-in`: the same server, but a call without a token answers 401 with `WWW-Authenticate:
 *   Bearer scope="pricing:read", resource_metadata="{base}/.well-known/oauth-protected-resource/mcp/signed-in"`
 *   (the endpoint's own metadata, whose `resource` is `{base}/mcp/signed-in`: RFC 9728 3.1, 3.3),
 *   which is what makes a standard MCP client run discovery, dynamic registration and the PKCE sign-in by itself
 *   (MCP authorization, RFC 9728). Point a client there to sign in.
 * - On either path an unknown, expired or revoked token answers 401 `invalid_token` (the client refreshes or signs
 *   in again); it never silently becomes anonymous.
 *
 * DNS-rebinding protection (MCP "Streamable HTTP: security warning"): a request whose `Host` is not one of the
 * sandbox's own names ({@link MCP_LOOPBACK_HOSTNAMES}, the bind address, the `publicUrl`'s host), or whose `Origin`
 * is a foreign site (any other host, or `null`), answers 403 before it reaches the MCP server. Clients that send no
 * `Origin` (agents, the SDK in Node) and local tools on a loopback origin (any port) are served.
 *
 * Stateless: each POST gets a fresh server and transport (no session id, JSON answers); `GET` and `DELETE` answer
 * 405. Each POST spends one unit of the caller's rate budget.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from '@domainkit/protocol';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { ApiError } from '../http/api-error.ts';
import { sendError } from '../http/errors.ts';
import { bearerChallenge, resolveAccess } from '../public-api/access.ts';
import { BATCH_OPERATIONS } from '../public-api/batch.ts';
import type { PublicContext } from '../public-context.ts';
import { ipSubject } from '../limits/public.ts';
import {
  publicDomainSearchResponseSchema,
  publicSearchDomainParamsSchema,
  publicTldPriceParamsSchema,
  publicTldPriceSchema,
  publicWhoisParamsSchema,
  publicWhoisRecordSchema,
} from '@domainkit/protocol';
import type { Viewer } from '../public-api/search.ts';
import { MAX_DECLARED_BODY_BYTES, refuseBodyOverLimit, withTextPolicy } from '../http/hardening.ts';

/** The MCP server's name and version, as `initialize` reports them. */
export const MCP_SERVER_INFO = { name: 'marketplace-sandbox', version: '1.0.0' } as const;

/** A tool outcome: the structured result, or a tool error the agent can read (MCP "tool execution errors"). */
async function toolResult(run: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    const result = await run();
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    if (err instanceof ProtocolError || err instanceof ApiError)
      return { isError: true, content: [{ type: 'text', text: `${err.code}: ${err.message}` }] };
    throw err;
  }
}

/** A server exposing the three tools for one caller. */
export function createMcpServer(ctx: PublicContext, viewer: Viewer): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      'Domain marketplace tools (sandbox). search_domain checks a domain or label with its alternate-TLD siblings; marketplace prices are masked unless the client signed in (scope pricing:read).',
  });
  const batch = { db: ctx.db, clock: ctx.clock, logger: ctx.logger, viewer };
  const annotations = {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  } as const;

  server.registerTool(
    'search_domain',
    {
      title: 'Search a domain',
      description: `${BATCH_OPERATIONS.search_domain.description} Pass q: a domain such as "coffee.io" or a label such as "coffee".`,
      inputSchema: publicSearchDomainParamsSchema,
      outputSchema: publicDomainSearchResponseSchema,
      annotations,
    },
    (args) => toolResult(() => BATCH_OPERATIONS.search_domain.run(batch, args as never)),
  );
  server.registerTool(
    'tld_registration_price',
    {
      title: 'TLD price',
      description: `${BATCH_OPERATIONS.tld_registration_price.description} Pass tld (such as "com") and op (register, renew, transfer or restore; default register).`,
      inputSchema: publicTldPriceParamsSchema,
      outputSchema: publicTldPriceSchema,
      annotations,
    },
    (args) => toolResult(() => BATCH_OPERATIONS.tld_registration_price.run(batch, args as never)),
  );
  server.registerTool(
    'whois_lookup',
    {
      title: 'WHOIS lookup',
      description: `${BATCH_OPERATIONS.whois_lookup.description} Pass domain, such as "coffee.io".`,
      inputSchema: publicWhoisParamsSchema,
      outputSchema: publicWhoisRecordSchema,
      annotations,
    },
    (args) => toolResult(() => BATCH_OPERATIONS.whois_lookup.run(batch, args as never)),
  );
  return server;
}

function methodNotAllowed(_req: Request, res: Response): void {
  res.setHeader('Allow', 'POST');
  res.status(405).json({
    jsonrpc: '2.0',
    error: {
      code: -32000,
      message: 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.',
    },
    id: null,
  });
}

/** Host names a sandbox always answers to: the loopback names (the SDK's `localhostHostValidation` list). */
export const MCP_LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Refuses a request whose `Origin` header names a host outside `hostnames` (port-agnostic, like the SDK's Host
 * check), or is `null` (a sandboxed or privacy-stripped page): 403 with a JSON-RPC error. No `Origin` passes.
 */
function originValidation(hostnames: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    let hostname: string | undefined;
    try {
      hostname = new URL(origin).hostname;
    } catch {
      hostname = undefined;
    }
    if (hostname !== undefined && hostnames.includes(hostname)) return next();
    res.status(403).json({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `Invalid Origin: ${origin.slice(0, 200)} is not this sandbox (DNS-rebinding protection); MCP clients outside a browser send no Origin.`,
      },
      id: null,
    });
  };
}

/**
 * Builds the MCP router (mounted at the app root: `/mcp`, `/mcp/signed-in`).
 * @param ownHostnames - the host names (no port; IPv6 in brackets) the sandbox is reached by, besides
 *   {@link MCP_LOOPBACK_HOSTNAMES}: a `Host` or `Origin` naming anything else is refused with 403.
 */
export function mcpRouter(ctx: PublicContext, ownHostnames: readonly string[] = []): Router {
  const router = express.Router();
  const hostnames = [...new Set([...MCP_LOOPBACK_HOSTNAMES, ...ownHostnames.map((h) => h.toLowerCase())])];
  router.use(['/mcp', '/mcp/signed-in'], hostHeaderValidation(hostnames), originValidation(hostnames));

  async function handle(req: Request, res: Response, signInRequired: boolean): Promise<void> {
    const base = ctx.baseUrl(req);
    // Each endpoint is a protected resource of its own: its challenges point at its own metadata (RFC 9728 3.1).
    const resource = signInRequired ? '/mcp/signed-in' : '/mcp';
    const access = await resolveAccess(req, { db: ctx.db, clock: ctx.clock, base, resource });
    if (access === undefined && signInRequired) {
      throw new ApiError(
        401,
        'unauthorized',
        `Sign in to use this endpoint (or use ${base}/mcp anonymously): see ${base}/auth.md.`,
        {
          'WWW-Authenticate': bearerChallenge(base, { scope: 'pricing:read' }, resource),
        },
      );
    }
    const decision = await ctx.limiter.consume(
      access ? 'signedIn' : 'anonymous',
      access ? `user:${access.userId}` : ipSubject(req),
    );
    if (!decision.allowed) {
      throw new ApiError(429, 'rate_limited', `Too many requests: retry in ${decision.resetSeconds} seconds.`, {
        'Retry-After': String(decision.resetSeconds),
      });
    }
    const server = createMcpServer(ctx, { pricesVisible: access?.scopes.includes('pricing:read') ?? false });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  const json = withTextPolicy(
    refuseBodyOverLimit(express.json({ limit: MAX_DECLARED_BODY_BYTES }), MAX_DECLARED_BODY_BYTES),
  );
  router.post('/mcp', json, (req, res) => handle(req, res, false));
  router.post('/mcp/signed-in', json, (req, res) => handle(req, res, true));
  router.get(['/mcp', '/mcp/signed-in'], methodNotAllowed);
  router.delete(['/mcp', '/mcp/signed-in'], methodNotAllowed);

  router.use(
    ['/mcp', '/mcp/signed-in'],
    function answerMcpError(err: unknown, _req: Request, res: Response, next: (err?: unknown) => void): void {
      if (res.headersSent) {
        next(err);
        return;
      }
      if (err instanceof ApiError || err instanceof ProtocolError) {
        sendError(res, err.status, err.code, err.message, err instanceof ApiError ? err.headers : {});
        return;
      }
      const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
      if (typeof type === 'string' && 'expose' in (err as object)) {
        res.status(400).json({
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error: the body is not valid JSON.' },
          id: null,
        });
        return;
      }
      ctx.logger.error({ err }, 'MCP request failed');
      res
        .status(500)
        .json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error on the sandbox.' }, id: null });
    },
  );
  return router;
}
