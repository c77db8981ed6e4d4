/**
 * The console's read routes (docs/console-api.md "Routes"): each checks its query against protocol's schema (400
 * `validation_error`), then answers from the shared cache (cache.ts) or reads the marketplace's reporting endpoints
 * through the client, and adds `as_of` and `max_age`. Every answer is built field by field from the marketplace's
 * records: nothing of the credential is ever in it.
 */
import { MarketplaceError, type Page } from '@domainkit/client';
import {
  ErrorCode,
  CONSOLE_TRANSACTION_CSV_COLUMNS,
  ORDER_TRANSITIONS,
  consoleBrokerageQuerySchema,
  consoleEventsQuerySchema,
  consoleOrdersQuerySchema,
  consolePageQuerySchema,
  consolePayoutsQuerySchema,
  consoleTransactionsQuerySchema,
  consoleWindowQuerySchema,
  type ConsoleOrder,
  type Order,
  type OrderStatus,
} from '@domainkit/protocol';
import { z } from 'zod';
import { BffHttpError } from '../errors.ts';
import { json } from '../http/index.ts';
import { parseInput } from '../validate.ts';
import type { CachedRead } from './cache.ts';
import { type ConsoleDeps, type ConsoleHandler, guarded } from './guard.ts';
import { eventDeliveries } from './store.ts';

/** Whether an order in `status` may still be refunded: only before `TRANSFER_COMPLETED` (Partner API spec 3, 4.1). */
export function isRefundable(status: string): boolean {
  return (ORDER_TRANSITIONS[status as OrderStatus] ?? []).includes('REFUNDED');
}

/** An order with its `refundable` flag. */
export function consoleOrder(order: Order): ConsoleOrder {
  return { ...order, refundable: isRefundable(order.status) };
}

/** The query without its undefined fields (so the cache key and the upstream query agree). */
function defined<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The first page of a cursor list. */
async function firstPage<T, R>(pages: { pages(): AsyncGenerator<Page<T, R>> }): Promise<Page<T, R>> {
  for await (const page of pages.pages()) return page;
  throw new Error('a cursor list answered no page');
}

/**
 * The shared cache as `req` asks for it: a read sent with `Cache-Control: no-cache` (RFC 9111 5.2.1.4; the console's
 * Refresh) wants what the marketplace has now, so its copy is read again within the reporting budget (cache.ts).
 */
function cacheFor(deps: ConsoleDeps, req: { header(name: string): string | undefined }) {
  const revalidate = /(^|,)\s*no-cache\s*(,|$)/i.test(req.header('cache-control') ?? '');
  return {
    get: <T>(key: string, tags: readonly string[], calls: number, load: () => Promise<T>) =>
      deps.cache.get(key, tags, calls, load, { revalidate }),
  };
}

/** `{...value, as_of, max_age}` of a cached read. */
function fresh<T extends object>(deps: ConsoleDeps, read: CachedRead<T>): T & { as_of: string; max_age: number } {
  const left = deps.settings.freshnessMs - (deps.now() - read.at);
  return { ...read.value, as_of: new Date(read.at).toISOString(), max_age: Math.max(0, Math.round(left / 1000)) };
}

/** Tags of what each view shows: an event or a write drops the views that show what it changed. */
export const TAGS = {
  order: ['orders', 'transactions', 'settlements', 'overview', 'commissions', 'payouts', 'events'],
  brokerage: ['brokerage', 'payouts', 'transactions', 'overview', 'events'],
  link: ['links', 'clicks'],
} as const;

/** A cached list view: `key` and `tags` for the cache, `load` the one upstream page. */
function view<Q extends z.ZodType>(
  deps: ConsoleDeps,
  name: string,
  schema: Q,
  tags: readonly string[],
  load: (query: z.output<Q>) => Promise<object>,
): ConsoleHandler {
  return async (req) => {
    const query = defined(parseInput(schema, req.query, 'query') as object) as z.output<Q>;
    const read = await cacheFor(deps, req).get(`${name}:${JSON.stringify(query)}`, tags, 1, () => load(query));
    return json(fresh(deps, read as CachedRead<object>));
  };
}

const UTC_DAY = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** `GET /console/overview?from&to`: three upstream reads, one cache entry. */
function overview(deps: ConsoleDeps): ConsoleHandler {
  return async (req) => {
    const w = defined(parseInput(consoleWindowQuerySchema, req.query, 'query'));
    const read = await cacheFor(deps, req).get(`overview:${JSON.stringify(w)}`, ['overview'], 3, async () => {
      const [tx, settlements, analytics] = await Promise.all([
        firstPage(deps.client.transactions.list({ ...w, limit: 100 })),
        firstPage(deps.client.settlements.list({ limit: 100 })),
        deps.client.analytics.retrieve(w),
      ]);
      const from = w.from === undefined ? -Infinity : Date.parse(w.from);
      const to = w.to === undefined ? Infinity : Date.parse(w.to);
      const days = new Map<string, { date: string; count: number; gmv_cents: number; commission_cents: number }>();
      for (const t of tx.items) {
        const date = UTC_DAY(t.created_at);
        const day = days.get(date) ?? { date, count: 0, gmv_cents: 0, commission_cents: 0 };
        day.count += 1;
        // As the marketplace's totals: a refunded or cancelled sale is counted but adds nothing to GMV or commission.
        const undone = t.status === 'REFUNDED' || t.status === 'CANCELLED';
        day.gmv_cents += undone ? 0 : t.gmv_cents;
        day.commission_cents += undone ? 0 : t.commission_cents;
        days.set(date, day);
      }
      const totals = tx.raw.totals ?? {
        gmv_cents: tx.items.reduce((s, t) => s + t.gmv_cents, 0),
        commission_cents: tx.items.reduce((s, t) => s + t.commission_cents, 0),
        count: tx.items.length,
      };
      const owed = settlements.items
        .filter((s) => Date.parse(s.period_end) >= from && Date.parse(s.period_start) <= to)
        .reduce((sum, s) => sum + s.amount_owed_cents, 0);
      return {
        from: w.from ?? null,
        to: w.to ?? null,
        currency: tx.raw.totals?.currency ?? analytics.currency,
        gmv_cents: totals.gmv_cents,
        commission_cents: totals.commission_cents,
        sales_count: totals.count,
        owed_cents: owed,
        sales_over_time: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
        funnel: {
          clicks: analytics.clicks,
          sales: analytics.sales,
          conversion_rate: analytics.conversion_rate,
          gmv_cents: analytics.gmv_cents,
          commission_cents: analytics.commission_cents,
        },
      };
    });
    return json(fresh(deps, read));
  };
}

/**
 * `GET /console/clicks?from&to`: the window's click total and each link's (`GET /me/clicks` gives totals for a window,
 * nothing per day: docs/spec-decisions.md "Clicks per day").
 */
function clicks(deps: ConsoleDeps): ConsoleHandler {
  return view(deps, 'clicks', consoleWindowQuerySchema, ['clicks'], async (w) => {
    const report = await deps.client.me.clicks(w);
    return {
      from: report.from,
      to: report.to,
      clicks: report.clicks,
      by_link: report.by_link.map((l) => ({ link_id: l.link_id, clicks: l.clicks })),
    };
  });
}

const orderIdSchema = z.strictObject({ id: z.string().trim().min(1).max(100) });

/** `GET /console/orders/:id`. */
function orderDetail(deps: ConsoleDeps): ConsoleHandler {
  return async (req) => {
    const { id } = parseInput(orderIdSchema, req.params, 'path');
    const read = await cacheFor(deps, req).get(`order:${id}`, ['orders'], 1, async () => ({
      order: consoleOrder(await deps.client.orders.retrieve(id)),
    }));
    return json(fresh(deps, read));
  };
}

/** `GET /console/brokerage/:id`: one case with its timeline (`GET /brokerage/{case_id}`; the list carries none). */
function brokerageCase(deps: ConsoleDeps): ConsoleHandler {
  return async (req) => {
    const { id } = parseInput(orderIdSchema, req.params, 'path'); // a case id has an order id's shape
    const read = await cacheFor(deps, req).get(`case:${id}`, ['brokerage'], 1, async () => ({
      case: await deps.client.brokerage.retrieve(id),
    }));
    return json(fresh(deps, read));
  };
}

/** Quotes a CSV field (RFC 4180), and defuses a leading formula character for spreadsheets. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of the CSV export at most (10 pages of 100). */
export const CSV_MAX_ROWS = 1000;

/** `GET /console/transactions.csv`: every page of the filter (up to {@link CSV_MAX_ROWS} rows), as `text/csv`. */
function transactionsCsv(deps: ConsoleDeps): ConsoleHandler {
  return async (req) => {
    const {
      cursor: _cursor,
      limit: _limit,
      ...filter
    } = defined(parseInput(consoleTransactionsQuerySchema, req.query, 'query'));
    const pages = Math.ceil(CSV_MAX_ROWS / 100);
    const read = await deps.cache.get(`csv:${JSON.stringify(filter)}`, ['transactions'], pages, async () => {
      const rows = await deps.client.transactions.list({ ...filter, limit: 100 }).toArray({ max: CSV_MAX_ROWS });
      const lines = [CONSOLE_TRANSACTION_CSV_COLUMNS.join(',')];
      for (const row of rows) lines.push(CONSOLE_TRANSACTION_CSV_COLUMNS.map((c) => csvField(row[c])).join(','));
      return { text: `${lines.join('\r\n')}\r\n` };
    });
    return new Response(read.value.text, {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="transactions.csv"',
        'Cache-Control': 'no-store',
      },
    });
  };
}

/** `GET /console/events`: the marketplace's history, each event with how this BFF received it. */
function events(deps: ConsoleDeps): ConsoleHandler {
  return async (req) => {
    const query = defined(parseInput(consoleEventsQuerySchema, req.query, 'query'));
    const read = await cacheFor(deps, req).get(`events:${JSON.stringify(query)}`, ['events'], 1, async () => {
      const page = await firstPage(deps.client.events.list(query));
      return { events: page.items, next_cursor: page.nextCursor };
    });
    const deliveries = await eventDeliveries(
      deps,
      read.value.events.map((e) => e.id),
    );
    const list = read.value.events.map((e) => ({
      id: e.id,
      type: e.type,
      created_at: e.created_at,
      data: e.data as Record<string, unknown>,
      delivery: deliveries.get(e.id) ?? null,
    }));
    return json(fresh(deps, { at: read.at, value: { events: list, next_cursor: read.value.next_cursor } }));
  };
}

/**
 * A read whose query the marketplace refused (400 `validation_error`: a `cursor` no page of that list gave, an
 * `after_id` it does not know) is the caller's to fix: 400 `validation_error` saying what to send, not a 502. The
 * marketplace's own words are not passed on (errors.ts: upstream text never reaches a browser).
 */
function refusedQueryIsTheCallers(handler: ConsoleHandler): ConsoleHandler {
  return async (req, claims) => {
    try {
      return await handler(req, claims);
    } catch (error) {
      if (error instanceof MarketplaceError && error.status === 400 && error.code === ErrorCode.ValidationError)
        throw new BffHttpError(
          'validation_error',
          'The marketplace refused this query: pass `cursor` (or `after_id`) exactly as a previous page gave it in `next_cursor`, or leave it out for the first page; dates as ISO 8601.',
          { cause: error },
        );
      throw error;
    }
  };
}

/** The console's read routes, each behind the token guard (scope `read`). */
export function readRoutes(deps: ConsoleDeps): Array<{ path: string; GET: ReturnType<typeof guarded> }> {
  const c = deps.client;
  const page = <T, R>(it: { pages(): AsyncGenerator<Page<T, R>> }) => firstPage(it);
  const routes: Record<string, ConsoleHandler> = {
    '/console/overview': overview(deps),
    '/console/orders': view(deps, 'orders', consoleOrdersQuerySchema, ['orders'], async (q) => {
      const p = await page(c.orders.list(q));
      return { orders: p.items.map(consoleOrder), next_cursor: p.nextCursor };
    }),
    '/console/orders/:id': orderDetail(deps),
    '/console/settlements': view(deps, 'settlements', consolePageQuerySchema, ['settlements'], async (q) => {
      const p = await page(c.settlements.list(q));
      return { settlements: p.items, next_cursor: p.nextCursor };
    }),
    '/console/transactions': view(deps, 'transactions', consoleTransactionsQuerySchema, ['transactions'], async (q) => {
      const p = await page(c.transactions.list(q));
      const t = p.raw.totals;
      return {
        transactions: p.items,
        totals: t ? { gmv_cents: t.gmv_cents, commission_cents: t.commission_cents, count: t.count } : null,
        next_cursor: p.nextCursor,
      };
    }),
    '/console/transactions.csv': transactionsCsv(deps),
    '/console/payouts': view(deps, 'payouts', consolePayoutsQuerySchema, ['payouts'], async ({ kind, ...q }) => {
      const p = await page(kind === 'referral' ? c.me.payouts(q) : c.payouts.list(q));
      const total = (p.raw as { total_paid_cents?: number }).total_paid_cents;
      return { payouts: p.items, total_paid_cents: total ?? null, next_cursor: p.nextCursor };
    }),
    '/console/commissions': view(deps, 'commissions', consolePageQuerySchema, ['commissions'], async (q) => {
      const p = await page(c.me.commissions(q));
      return { commissions: p.items, totals: p.raw.totals ?? null, next_cursor: p.nextCursor };
    }),
    '/console/sales': view(
      deps,
      'sales',
      consolePageQuerySchema.extend(consoleWindowQuerySchema.shape),
      ['transactions'],
      async (q) => {
        const p = await page(c.me.sales(q));
        return { sales: p.items, next_cursor: p.nextCursor };
      },
    ),
    '/console/brokerage': view(deps, 'brokerage', consoleBrokerageQuerySchema, ['brokerage'], async (q) => {
      const p = await page(c.brokerage.list(q));
      return { cases: p.items, next_cursor: p.nextCursor };
    }),
    '/console/brokerage/:id': brokerageCase(deps),
    '/console/links': view(deps, 'links', consolePageQuerySchema, ['links'], async (q) => {
      const p = await page(c.links.list(q));
      return { links: p.items, next_cursor: p.nextCursor };
    }),
    '/console/clicks': clicks(deps),
    '/console/events': events(deps),
  };
  return Object.entries(routes).map(([path, handler]) => ({
    path,
    GET: guarded(deps, 'read', refusedQueryIsTheCallers(handler)),
  }));
}
