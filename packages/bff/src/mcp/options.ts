/**
 * The MCP feature's option (`mcp`: the shop's tools for AI agents at `POST /mcp`, and `GET /llms.txt` describing
 * them) and its defaults: off unless asked for.
 */
import { z } from 'zod';
import { httpUrl, perMinute } from '../config/kit.ts';

/** Default tool calls one agent (client address) may make per minute. */
export const DEFAULT_MCP_TOOL_CALLS_PER_MINUTE = 10;

/** The host names every shop answers its MCP endpoint on (a local agent, a test). */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** Option `mcp` as an object: the endpoint is on, with these settings. */
export interface McpOptions {
  /**
   * Tool calls one agent may make per minute (by client address through the trusted proxies); default 10. Over it,
   * a tool answers `{"status": "busy", "retry_after_seconds"}` (a result, not an error), so agents never use up
   * the upstream budget the shop's visitors share.
   */
  readonly toolCallsPerMinute?: number | undefined;
  /**
   * Host names the endpoint answers on (DNS-rebinding protection, MCP "Streamable HTTP: security warning"), such as
   * `["shop.example"]`; default the hosts of `allowedOrigins`, `returnUrl`, `cancelUrl`, `checkoutReturnOrigins`,
   * `webhook.publicUrl`, and the loopback names. A request addressed to any other host answers 403 `forbidden`.
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /** The shop's name, as `initialize`, `GET /llms.txt` and the brokerage consent page give it; default "Domain shop". */
  readonly shopName?: string | undefined;
  /**
   * The shop's page where a person searches and buys (absolute http(s) URL), such as `https://shop.example/`: the
   * brokerage consent page links a name that is listed for sale there. Default none: the page tells the person to
   * ask the assistant for a checkout link.
   */
  readonly shopUrl?: string | undefined;
}

/** The `createBff` options of the MCP feature, as checked at creation. */
export const mcpOptionsShape = {
  mcp: z
    .union(
      [
        z.boolean(),
        z.strictObject({
          toolCallsPerMinute: perMinute.optional(),
          allowedHosts: z
            .array(
              z
                .string()
                .regex(
                  /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i,
                  'must be a host name such as "shop.example", without a port',
                ),
            )
            .optional(),
          shopName: z.string().min(1).max(100).optional(),
          shopUrl: httpUrl.optional(),
        }),
      ],
      { error: 'must be true, false, or { toolCallsPerMinute, allowedHosts, shopName, shopUrl }' },
    )
    .optional(),
};

/** The MCP endpoint's settings once resolved; `undefined` when it is off. */
export interface ResolvedMcp {
  readonly toolCallsPerMinute: number;
  /** Host names (lower case, no port) the endpoint answers on. */
  readonly allowedHosts: ReadonlySet<string>;
  readonly shopName: string;
  /** The shop's page where a person buys, if given. */
  readonly shopUrl: string | undefined;
}

/** What the MCP feature reads of the options. */
interface McpInput {
  readonly mcp?: boolean | McpOptions | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly returnUrl?: string | undefined;
  readonly cancelUrl?: string | undefined;
  readonly checkoutReturnOrigins?: readonly string[] | undefined;
  readonly webhook?: { readonly publicUrl?: string | undefined } | undefined;
}

/** The endpoint's settings, or `undefined` when option `mcp` is absent or false. */
export function resolveMcp(o: McpInput): ResolvedMcp | undefined {
  if (o.mcp === undefined || o.mcp === false) return undefined;
  const given = typeof o.mcp === 'object' ? o.mcp : {};
  const urls = [
    ...(o.allowedOrigins ?? []),
    ...(o.checkoutReturnOrigins ?? []),
    o.returnUrl,
    o.cancelUrl,
    o.webhook?.publicUrl,
  ].filter((u): u is string => u !== undefined);
  const hosts = given.allowedHosts ?? [...LOOPBACK_HOSTS, ...urls.map((u) => new URL(u).hostname)];
  return Object.freeze({
    toolCallsPerMinute: given.toolCallsPerMinute ?? DEFAULT_MCP_TOOL_CALLS_PER_MINUTE,
    allowedHosts: new Set(hosts.map((h) => h.toLowerCase())),
    shopName: given.shopName ?? 'Domain shop',
    shopUrl: given.shopUrl,
  });
}
