/**
 * A typed JavaScript client of the sandbox's admin API (admin/router.ts and the routers it mounts), for a partner's
 * tests and CI jobs: create credentials, move orders through their lifecycle, put records in any state in one call
 * (fixtures), inject faults, move prices, watch events and deliveries, ping a webhook endpoint, reset the world.
 *
 * ```ts
 * import { createSandboxAdmin } from '@domainkit/sandbox';
 *
 * const admin = createSandboxAdmin({ url: 'http://127.0.0.1:4010', adminToken: process.env.SANDBOX_ADMIN_TOKEN! });
 * // or, next to a sandbox started with --data-dir .data/ci: createSandboxAdmin({ dataDir: '.data/ci' })
 * const { order, events } = await admin.fixtures.order({ status: 'SETTLED' });
 * await admin.faults.set({ error_rate: 0.5 });
 * ```
 *
 * Every refusal raises {@link SandboxAdminError}, whose message names the method, the URL called and the sandbox's
 * reason. The client needs only `fetch` (injectable): it never touches the sandbox's database.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OrderStatus } from '@domainkit/protocol';
import type { brokerageFixtureSchema, orderFixtureSchema, referralSaleFixtureSchema } from './admin/fixtures.ts';
import type { toCaseWire } from './brokerage/cases.ts';
import { readDemoCredential } from './credentials/demo-credential.ts';
import type { Environment, Scope } from './scopes.ts';
import type { WireEvent } from './events/store.ts';
import type { FaultSettings, FaultSettingsPatch } from './faults/faults.ts';
import type { toOrderWire } from './mor/orders.ts';
import type { toLinkWire } from './referral/links.ts';
import type { toPayoutWire, toSettlementWire } from './settlement/run.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from './options.ts';
import type { z } from 'zod';

/** The file a listening sandbox writes in its data folder: `{url, pid, started_at}` (removed when it stops). */
export const SERVER_FILE = 'server.json';

/** An order as the admin API answers it (the Partner API's order plus its `timeline` when moved). */
export type AdminOrder = ReturnType<typeof toOrderWire>;
/** A brokerage case as the admin API answers it. */
export type AdminBrokerageCase = ReturnType<typeof toCaseWire>;
/** A referral link as the admin API answers it. */
export type AdminReferralLink = ReturnType<typeof toLinkWire>;
/** An event (Partner API spec 2.5) as the admin API lists it: with the `key_id` of its credential. */
export type AdminEvent = WireEvent & { readonly key_id?: string };

/** An admin move of an order: the order and the events it caused, in order. */
export type OrderMove = { readonly order: AdminOrder; readonly events: WireEvent[] };
/** An admin move of a brokerage case. */
export type CaseMove = { readonly case: AdminBrokerageCase; readonly events: WireEvent[] };

/** The order triggers of the admin API (Partner API spec 3 moves made by the marketplace's back office). */
export const ORDER_TRIGGERS = [
  'hold',
  'clear-review',
  'start-transfer',
  'confirm-delivery',
  'refund',
  'cancel',
] as const;
export type OrderTrigger = (typeof ORDER_TRIGGERS)[number];

/** A referral sale as the admin API answers it. */
export interface AdminReferralSale {
  readonly sale_id: string;
  readonly link_id: string | null;
  readonly domain: string;
  readonly amount_cents: number;
  readonly commission_cents: number;
  readonly currency: string;
  readonly status: 'COMPLETED' | 'REFUNDED';
  readonly created_at: string;
}

/** A webhook delivery with every attempt. */
export interface AdminDelivery {
  readonly delivery_id: number;
  readonly event_id: string;
  readonly event_type: string;
  readonly event: WireEvent;
  readonly key_id: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly max_attempts: number;
  readonly next_attempt_at: string | null;
  readonly delivered_at: string | null;
  readonly last_status_code: number | null;
  readonly last_error: string | null;
  readonly duplicate: boolean;
  readonly created_at: string;
  readonly attempt_log: ReadonlyArray<{
    attempt: number;
    started_at: string;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
    outcome: string;
  }>;
}

/** A new credential: its secret is shown this once. */
export interface AdminCredential {
  readonly key_id: string;
  readonly secret?: string;
  readonly environment: Environment;
  readonly scopes: Scope[];
  readonly approved: boolean;
  readonly partner_id: string;
  readonly affiliate_id: string | null;
  /** The shop's name buyers see on the hosted checkout, or null. */
  readonly display_name: string | null;
  readonly created_at: string;
}

/** A hosted checkout and the sale that paid it (`GET /admin/checkout-sessions/{id}`). */
export interface AdminCheckoutSession {
  readonly checkout_session: {
    readonly id: string;
    readonly key_id: string;
    readonly domain: string;
    readonly price_cents: number;
    readonly currency: string;
    readonly status: 'open' | 'paid';
    readonly created_at: string;
    readonly expires_at: string;
    readonly paid_at: string | null;
  };
  /** Null while the checkout is open. */
  readonly sale: {
    readonly sale_id: string;
    readonly domain: string;
    readonly price_cents: number;
    readonly currency: string;
    /** The e-mail the buyer gave on the hosted checkout. */
    readonly buyer_email: string | null;
    readonly status: 'COMPLETED' | 'REFUNDED';
    readonly created_at: string;
  } | null;
}

/** The answer of a webhook test ping. */
export interface WebhookPingResult {
  readonly url: string;
  readonly event_id: string;
  readonly status_code: number | null;
  readonly ok: boolean;
  readonly duration_ms: number;
  readonly error: string | null;
}

/** Raised when the admin API refuses a call or cannot be reached. */
export class SandboxAdminError extends Error {
  override readonly name = 'SandboxAdminError';
  /** The HTTP status, or 0 when the sandbox could not be reached. */
  readonly status: number;
  /** The sandbox's error code (`unauthorized`, `conflict`, `not_found`…), or `unreachable`. */
  readonly code: string;
  /** The URL called. */
  readonly url: string;
  /** The sandbox's request id (`X-Request-Id`), when it answered. */
  readonly requestId: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    url: string;
    requestId?: string | undefined;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.url = init.url;
    this.requestId = init.requestId;
  }
}

/** Options of {@link createSandboxAdmin}. */
export interface SandboxAdminOptions {
  /**
   * The sandbox's base URL (`http://127.0.0.1:4010`). Default: the URL the sandbox wrote in `{dataDir}/server.json`
   * when it started, else `SANDBOX_URL`, else http://127.0.0.1:4010.
   */
  url?: string | undefined;
  /** The admin token. Default: `SANDBOX_ADMIN_TOKEN`, else the `admin_token` of `{dataDir}/credentials.json`. */
  adminToken?: string | undefined;
  /** The sandbox's data folder, to find the URL and the token there. */
  dataDir?: string | undefined;
  /** The fetch to use (tests inject one). Default: the global fetch. */
  fetch?: typeof fetch;
}

/**
 * The URL a sandbox listening on this data folder wrote in `server.json`, or undefined when none is running there
 * (the file is missing, or names a process that no longer exists).
 */
export function readSandboxUrl(dataDir: string): string | undefined {
  const path = join(dataDir, SERVER_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as { url?: unknown; pid?: unknown };
    if (typeof info.url !== 'string') return undefined;
    if (typeof info.pid === 'number') {
      try {
        process.kill(info.pid, 0);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
      }
    }
    return info.url;
  } catch {
    return undefined;
  }
}

/**
 * Where the admin API is and its token, from the options, the environment and the data folder (in that order).
 * @throws {Error} when no token is given and the data folder holds no credentials.json.
 */
export function resolveSandboxTarget(options: SandboxAdminOptions): { url: string; adminToken: string } {
  const fromDir = options.dataDir !== undefined ? readSandboxUrl(options.dataDir) : undefined;
  const url = (options.url ?? fromDir ?? process.env.SANDBOX_URL ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).replace(
    /\/+$/,
    '',
  );
  const adminToken =
    options.adminToken ??
    process.env.SANDBOX_ADMIN_TOKEN ??
    (options.dataDir !== undefined ? readDemoCredential(options.dataDir).admin_token : undefined);
  if (adminToken === undefined)
    throw new TypeError('createSandboxAdmin needs adminToken (or dataDir, to read it from credentials.json).');
  return { url, adminToken };
}

type EventPage = { events: AdminEvent[]; next_cursor: string | null };
type Query = Record<string, string | number | undefined>;

/** The admin client returned by {@link createSandboxAdmin}. */
export type SandboxAdmin = ReturnType<typeof createSandboxAdmin>;

/**
 * Creates an admin client.
 * @throws {TypeError} when no admin token can be found (see {@link SandboxAdminOptions}).
 */
export function createSandboxAdmin(options: SandboxAdminOptions = {}) {
  const { url, adminToken } = resolveSandboxTarget(options);
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function call<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.set(k, String(v));
    const target = `${url}${path}${search.size > 0 ? `?${search}` : ''}`;
    let res: Response;
    try {
      res = await fetchImpl(target, {
        method,
        headers: {
          authorization: `Bearer ${adminToken}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (cause) {
      const reason =
        cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
      throw new SandboxAdminError({
        status: 0,
        code: 'unreachable',
        url: target,
        message: `${method} ${target}: cannot reach the sandbox (${reason}). Is it running there? (url option, SANDBOX_URL, or the data folder's server.json)`,
        cause,
      });
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const requestId = res.headers.get('x-request-id') ?? undefined;
    if (!res.ok) {
      const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
      const code = error?.code ?? `http_${res.status}`;
      const hint =
        res.status === 401 ? " Check the admin token: it is admin_token in the data folder's credentials.json." : '';
      throw new SandboxAdminError({
        status: res.status,
        code,
        url: target,
        requestId,
        message: `${method} ${target} answered ${res.status} ${code}: ${error?.message ?? (text.slice(0, 200) || res.statusText)}${hint}`,
      });
    }
    if (json === undefined)
      throw new SandboxAdminError({
        status: res.status,
        code: 'not_json',
        url: target,
        requestId,
        message: `${method} ${target} answered ${res.status} without JSON: is this URL a domainkit sandbox?`,
      });
    return json as T;
  }

  const id = encodeURIComponent;
  const orderMove =
    (trigger: OrderTrigger) =>
    (orderId: string, body: { reason?: string; note?: string } = {}) =>
      call<OrderMove>('POST', `/admin/orders/${id(orderId)}/${trigger}`, body);

  return {
    /** The base URL this client calls. */
    url,

    /**
     * Any admin call by path (`/admin/…`): the typed methods below cover every one; this is for the CLI and for
     * calls added after this client.
     * @throws {SandboxAdminError} on a refusal, an answer that is not JSON, or when the sandbox cannot be reached.
     */
    request: <T = unknown>(method: string, path: string, body?: unknown, query?: Query): Promise<T> =>
      call<T>(method, path, body, query),

    /** `GET /healthz`: true when the sandbox answers. Never throws. */
    async healthy(): Promise<boolean> {
      try {
        const res = await fetchImpl(`${url}/healthz`);
        await res.body?.cancel().catch(() => undefined);
        return res.ok;
      } catch {
        return false;
      }
    },

    /**
     * Polls `GET /healthz` until the sandbox answers (a fresh PGlite data folder takes a few seconds).
     * @param options.timeoutMs - give up after this long (default 60 000 ms); options.intervalMs - poll interval (250).
     * @throws {SandboxAdminError} `unreachable` when it did not answer in time.
     */
    async waitUntilReady(options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<void> {
      const deadline = Date.now() + (options.timeoutMs ?? 60_000);
      while (!(await this.healthy())) {
        if (Date.now() >= deadline)
          throw new SandboxAdminError({
            status: 0,
            code: 'unreachable',
            url: `${url}/healthz`,
            message: `GET ${url}/healthz: the sandbox did not answer within ${options.timeoutMs ?? 60_000} ms.`,
          });
        await new Promise((r) => setTimeout(r, options.intervalMs ?? 250));
      }
    },

    credentials: {
      /** `POST /admin/credentials`: a new credential; its `secret` is answered this once. */
      create: (body: {
        scopes: Scope[];
        environment: Environment;
        affiliate?: boolean;
        label?: string;
        display_name?: string;
      }) => call<AdminCredential & { secret: string }>('POST', '/admin/credentials', body),
      /** `PATCH /admin/credentials/{key_id}`: names the shop buyers see on the hosted checkout (`null` clears it). */
      update: (keyId: string, body: { display_name: string | null }) =>
        call<AdminCredential>('PATCH', `/admin/credentials/${id(keyId)}`, body),
      /** `POST /admin/credentials/{key_id}/approve`: switches a LIVE credential on. */
      approve: (keyId: string) => call<AdminCredential>('POST', `/admin/credentials/${id(keyId)}/approve`, {}),
    },

    checkoutSessions: {
      /** `GET /admin/checkout-sessions/{id}`: a hosted checkout and its sale (with the buyer's e-mail), if paid. */
      get: (sessionId: string) => call<AdminCheckoutSession>('GET', `/admin/checkout-sessions/${id(sessionId)}`),
    },

    orders: {
      /** `GET /admin/orders`: every credential's orders, newest first. */
      list: (query: { key_id?: string; status?: OrderStatus; limit?: number } = {}) =>
        call<{ orders: Array<AdminOrder & { key_id: string }> }>('GET', '/admin/orders', undefined, query),
      /** Any trigger by name. */
      trigger: (orderId: string, trigger: OrderTrigger, body: { reason?: string; note?: string } = {}) =>
        orderMove(trigger)(orderId, body),
      /** `EXTERNALLY_PAID` → `HELD_FOR_REVIEW` (`order.held_for_review`). */
      hold: orderMove('hold'),
      /** `HELD_FOR_REVIEW` → `EXTERNALLY_PAID` (`order.manual_review_cleared`). */
      clearReview: orderMove('clear-review'),
      /** → `TRANSFER_IN_PROGRESS` (`order.transfer_started`). */
      startTransfer: orderMove('start-transfer'),
      /** → `TRANSFER_COMPLETED` (`order.transfer_completed`). */
      confirmDelivery: orderMove('confirm-delivery'),
      /** → `REFUNDED` (`order.refunded`), only before `TRANSFER_COMPLETED`. */
      refund: orderMove('refund'),
      /** → `CANCELLED` (`order.refunded`), only before `TRANSFER_COMPLETED`. */
      cancel: orderMove('cancel'),
    },

    settlements: {
      /**
       * `POST /admin/settlements/run`: closes the period (`order.settled` per completed order, payouts); `at` (RFC
       * 3339, with `key_id`) dates the run in the past as fixtures are dated (admin/fixtures.ts).
       */
      run: (body: { key_id?: string; at?: string } = {}) =>
        call<{
          settlements: Array<ReturnType<typeof toSettlementWire> & { key_id: string }>;
          payouts: Array<ReturnType<typeof toPayoutWire> & { key_id: string }>;
          events: WireEvent[];
        }>('POST', '/admin/settlements/run', body),
    },

    brokerage: {
      /** `OPEN` → `CONTACTING_OWNER` → `NEGOTIATING`. */
      advance: (caseId: string, body: { note?: string } = {}) =>
        call<CaseMove>('POST', `/admin/brokerage/${id(caseId)}/advance`, body),
      /** Closes with a deal (`brokerage.case_completed`) or without. */
      close: (
        caseId: string,
        body: { deal: true; price_cents: number; note?: string } | { deal: false; note?: string },
      ) => call<CaseMove>('POST', `/admin/brokerage/${id(caseId)}/close`, body),
    },

    referral: {
      /** Records clicks on a tracked link. */
      click: (linkId: string, body: { count?: number } = {}) =>
        call<{ link_id: string; recorded: number; clicks: number }>('POST', `/admin/links/${id(linkId)}/clicks`, body),
      /** Records a sale through a tracked link (accrues its commission). */
      sale: (linkId: string, body: { domain: string; price_cents?: number; buyer_email?: string }) =>
        call<{ sale: AdminReferralSale; commission: { entry_id: string; amount_cents: number; status: string } }>(
          'POST',
          `/admin/links/${id(linkId)}/sales`,
          body,
        ),
      /** Refunds a sale and reverses its commission. */
      refund: (saleId: string) =>
        call<{ sale: { sale_id: string; status: string; refunded_at: string | null } }>(
          'POST',
          `/admin/sales/${id(saleId)}/refund`,
          {},
        ),
    },

    domains: {
      /** Reprices a listing (quotes issued before then answer `price_mismatch`). */
      setPrice: (domain: string, body: { price_cents: number; environment?: Environment }) =>
        call<{ domain: string; environment: Environment; price_cents: number; currency: string; status: string }>(
          'POST',
          `/admin/domains/${id(domain)}/price`,
          body,
        ),
    },

    fixtures: {
      /** An MoR order in any state of Partner API spec 3, with every event of its history (admin/fixtures.ts). */
      order: (body: z.input<typeof orderFixtureSchema>) => call<OrderMove>('POST', '/admin/fixtures/orders', body),
      /** A brokerage case in any status, `brokerage.case_completed` for a deal. */
      brokerageCase: (body: z.input<typeof brokerageFixtureSchema>) =>
        call<CaseMove>('POST', '/admin/fixtures/brokerage-cases', body),
      /** A domain link with clicks and a sale through it (`COMPLETED` or `REFUNDED`). */
      referralSale: (body: z.input<typeof referralSaleFixtureSchema> = {}) =>
        call<{ link: AdminReferralLink; sale: AdminReferralSale; events: WireEvent[] }>(
          'POST',
          '/admin/fixtures/referral-sales',
          body,
        ),
    },

    faults: {
      /** The current fault settings. */
      get: () => call<FaultSettings>('GET', '/admin/faults'),
      /** Changes the given settings only. */
      set: (patch: FaultSettingsPatch) => call<FaultSettings>('PUT', '/admin/faults', patch),
      /** Turns every fault off. */
      off: () =>
        call<FaultSettings>('PUT', '/admin/faults', {
          error_rate: 0,
          latency_ms: 0,
          rate_limit_burst: 0,
          duplicate_rate: 0,
          out_of_order_rate: 0,
        }),
    },

    events: {
      /** Every credential's events after `after_id`, in creation order. */
      list: (query: { after_id?: string; key_id?: string; limit?: number } = {}) =>
        call<{ events: AdminEvent[]; next_cursor: string | null }>('GET', '/admin/events', undefined, query),
      /**
       * Yields events as they are emitted, from after `after_id` (default: from now on), polling every
       * `intervalMs` (default 500) until `signal` aborts.
       */
      async *follow(
        options: { after_id?: string; key_id?: string; intervalMs?: number; signal?: AbortSignal } = {},
      ): AsyncGenerator<AdminEvent> {
        let cursor = options.after_id;
        if (cursor === undefined) {
          // Start at the end of the history.
          for (;;) {
            const page: EventPage = await call<EventPage>('GET', '/admin/events', undefined, {
              after_id: cursor,
              key_id: options.key_id,
              limit: 500,
            });
            cursor = page.events.at(-1)?.id ?? cursor;
            if (page.next_cursor === null) break;
          }
        }
        while (options.signal?.aborted !== true) {
          const page: EventPage = await call<EventPage>('GET', '/admin/events', undefined, {
            after_id: cursor,
            key_id: options.key_id,
            limit: 100,
          });
          for (const event of page.events) {
            cursor = event.id;
            yield event;
          }
          if (page.next_cursor !== null) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, options.intervalMs ?? 500);
            options.signal?.addEventListener(
              'abort',
              () => {
                clearTimeout(timer);
                resolve();
              },
              { once: true },
            );
          });
        }
      },
    },

    deliveries: {
      /** Webhook deliveries with every attempt. */
      list: (
        query: { key_id?: string; status?: 'pending' | 'delivered' | 'failed'; event_id?: string; limit?: number } = {},
      ) => call<{ deliveries: AdminDelivery[] }>('GET', '/admin/deliveries', undefined, query),
    },

    webhooks: {
      /** Sends one signed `webhook.ping` to the credential's endpoint now and reports its answer. */
      ping: (body: { key_id?: string } = {}) => call<WebhookPingResult>('POST', '/admin/webhooks/ping', body),
    },

    /** `POST /admin/reset`: deletes orders, events, deliveries…, restores the inventory and turns faults off. */
    reset: () => call<{ reset: true } & Record<string, unknown>>('POST', '/admin/reset', {}),
  };
}
