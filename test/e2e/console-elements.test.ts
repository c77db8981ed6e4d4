/**
 * The console elements (`@domainkit/console`) in headless Chromium on the demo's `/console/` page, against a BFF
 * that answers the console API (docs/console-api.md) with fixed figures: every view renders those figures, Refund
 * shows only on orders before `TRANSFER_COMPLETED`, asks first and says what happens to the money, a marketplace
 * refusal is shown in its words, a refused session says so with an action, and axe finds nothing in any view in any
 * look (light, dark, right to left, 390 and 1280 px). `DK_SHOTS=<folder>` saves the screenshots.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { deepText } from './console-page.ts';
import { launchChromium } from './browser.ts';
import { inEveryLook } from './shots.ts';

const root = join(import.meta.dirname, '../..');
const bundle = join(root, 'packages/console/dist/bundle');
const pageHtml = join(root, 'examples/demo/console/index.html');

const NOW = '2026-11-20T10:00:00Z';
const fresh = { as_of: NOW, max_age: 30 };
const order = (public_id: string, domain: string, status: string, refundable: boolean, cents: number) => ({
  public_id,
  domain,
  status,
  refundable,
  sale_price_cents: cents,
  currency: 'USD',
  created_at: '2026-11-18T09:30:00Z',
  timeline: [
    { status: 'EXTERNALLY_PAID', at: '2026-11-18T09:30:00Z', event_type: 'order.recorded' },
    ...(status === 'EXTERNALLY_PAID' ? [] : [{ status, at: '2026-11-19T12:00:00Z' }]),
  ],
});

/** What the stub BFF holds; tests change it. */
interface Stub {
  signedIn: boolean;
  orders: Array<ReturnType<typeof order>>;
  refunds: Array<{ id: string; key: string | undefined; reason?: string }>;
  links: Array<Record<string, unknown>>;
  calls: string[];
  /** When set, `GET /console/orders` with a status filter answers 400 with this message (a filter the BFF refuses). */
  refuseStatus?: string;
}

function freshStub(): Stub {
  return {
    signedIn: true,
    orders: [
      order('ord_paid', 'coffeehouse.com', 'EXTERNALLY_PAID', true, 250000),
      order('ord_done', 'bakery.io', 'TRANSFER_COMPLETED', false, 120000),
      order('ord_moving', 'teashop.net', 'TRANSFER_IN_PROGRESS', true, 90000),
    ],
    refunds: [],
    links: [
      {
        link_id: 'lnk_1',
        kind: 'domain',
        url: 'https://market.example/r/abc123',
        domain: 'coffeehouse.com',
        label: 'Newsletter',
        clicks: 42,
        sales: 3,
        created_at: '2026-11-01T08:00:00Z',
      },
    ],
    calls: [],
  };
}

let stub = freshStub();

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** The console API with fixed figures (shapes of protocol's console-api schemas). */
async function consoleApi(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  stub.calls.push(`${req.method} ${path}`);
  if (path === '/console/session' && req.method === 'POST') {
    if (!stub.signedIn) return json(res, 401, { error: { code: 'unauthorized', message: 'Sign in first.' } });
    return json(res, 200, {
      token: 'cst_test',
      token_type: 'Bearer',
      expires_in: 300,
      expires_at: new Date(Date.now() + 300_000).toISOString(),
      scopes: ['read', 'refund', 'create_link'],
      actor: 'demo-partner',
    });
  }
  if (req.headers.authorization !== 'Bearer cst_test' || !stub.signedIn)
    return json(res, 401, { error: { code: 'unauthorized', message: 'No console session.' } });
  const refund = /^\/console\/orders\/([^/]+)\/refund$/.exec(path);
  if (refund && req.method === 'POST') {
    const body = await readBody(req);
    const target = stub.orders.find((o) => o.public_id === refund[1]);
    if (!target) return json(res, 404, { error: { code: 'not_found', message: 'No such order.' } });
    if (target.public_id === 'ord_moving')
      return json(res, 409, {
        error: {
          code: 'not_refundable',
          message: 'The order cannot be refunded.',
          status: 'TRANSFER_COMPLETED',
          detail: 'Refunds are only possible before TRANSFER_COMPLETED; this order completed its transfer.',
        },
      });
    stub.refunds.push({
      id: target.public_id,
      key: req.headers['idempotency-key'] as string | undefined,
      ...(typeof body.reason === 'string' ? { reason: body.reason } : {}),
    });
    target.status = 'REFUNDED';
    target.refundable = false;
    target.timeline.push({ status: 'REFUNDED', at: NOW });
    return json(res, 200, {
      refund: {
        refund_id: 'ref_1',
        order_id: target.public_id,
        amount_cents: target.sale_price_cents,
        currency: 'USD',
        status: 'SUCCEEDED',
        created_at: NOW,
      },
      order: target,
    });
  }
  const detail = /^\/console\/orders\/([^/]+)$/.exec(path);
  if (detail) {
    const found = stub.orders.find((o) => o.public_id === detail[1]);
    return found ? json(res, 200, { order: found, ...fresh }) : json(res, 404, { error: { code: 'not_found' } });
  }
  switch (path) {
    case '/console/overview':
      return json(res, 200, {
        from: null,
        to: null,
        currency: 'USD',
        gmv_cents: 460000,
        commission_cents: 46000,
        sales_count: 3,
        owed_cents: 414000,
        sales_over_time: [
          { date: '2026-11-16', count: 1, gmv_cents: 120000, commission_cents: 12000 },
          { date: '2026-11-17', count: 0, gmv_cents: 0, commission_cents: 0 },
          { date: '2026-11-18', count: 2, gmv_cents: 340000, commission_cents: 34000 },
        ],
        funnel: { clicks: 42, sales: 3, conversion_rate: 3 / 42, gmv_cents: 460000, commission_cents: 46000 },
        ...fresh,
      });
    case '/console/orders': {
      // As the BFF: a domain filter must be a whole domain name (protocol domainNameSchema).
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const domain = query.get('domain');
      if (domain !== null && !/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]*$/.test(domain))
        return json(res, 400, {
          error: {
            code: 'validation_error',
            message:
              '`domain` must be a domain name such as "example.com" (letters, digits and inner hyphens, labels of at most 63 characters).',
          },
        });
      if (stub.refuseStatus && query.has('status'))
        return json(res, 400, { error: { code: 'validation_error', message: stub.refuseStatus } });
      return json(res, 200, { orders: stub.orders, next_cursor: null, ...fresh });
    }
    case '/console/settlements':
      return json(res, 200, {
        settlements: [
          {
            settlement_id: 'stl_1',
            period_start: '2026-11-01T00:00:00Z',
            period_end: '2026-11-15T23:59:59Z',
            currency: 'USD',
            gross_sold_cents: 120000,
            commission_retained_cents: 12000,
            amount_owed_cents: 108000,
            order_count: 1,
          },
        ],
        next_cursor: null,
        ...fresh,
      });
    case '/console/transactions':
      return json(res, 200, {
        transactions: [
          {
            transaction_id: 'txn_1',
            domain: 'bakery.io',
            payment_model: 'mor',
            status: 'TRANSFER_COMPLETED',
            gmv_cents: 120000,
            commission_cents: 12000,
            currency: 'USD',
            created_at: '2026-11-16T10:00:00Z',
          },
        ],
        totals: { gmv_cents: 120000, commission_cents: 12000, count: 1 },
        next_cursor: null,
        ...fresh,
      });
    case '/console/payouts':
      return json(res, 200, {
        payouts: [
          {
            payout_id: 'po_1',
            amount_cents: 5000,
            currency: 'USD',
            status: 'PAID',
            created_at: '2026-11-10T00:00:00Z',
            paid_at: '2026-11-11T00:00:00Z',
          },
        ],
        total_paid_cents: 5000,
        next_cursor: null,
        ...fresh,
      });
    case '/console/commissions':
      return json(res, 200, {
        commissions: [
          {
            entry_id: 'ce_1',
            type: 'accrued',
            status: 'pending',
            amount_cents: 7500,
            balance_cents: 7500,
            currency: 'USD',
            created_at: '2026-11-02T00:00:00Z',
          },
          {
            entry_id: 'ce_2',
            type: 'paid_out',
            amount_cents: -5000,
            balance_cents: 2500,
            currency: 'USD',
            created_at: '2026-11-11T00:00:00Z',
          },
        ],
        totals: {
          accrued_cents: 7500,
          pending_cents: 2500,
          paid_out_cents: 5000,
          reversed_cents: 0,
          balance_cents: 2500,
          currency: 'USD',
        },
        next_cursor: null,
        ...fresh,
      });
    case '/console/brokerage':
      return json(res, 200, {
        cases: [
          {
            case_id: 'brk_1',
            domain: 'dream.com',
            tier: 'managed',
            status: 'CLOSED_DEAL',
            budget_cents: 500000,
            currency: 'USD',
            progress_url: 'https://market.example/brokerage/brk_1',
            created_at: '2026-11-03T00:00:00Z',
            deal_price_cents: 450000,
            commission_cents: 45000,
            timeline: [
              { status: 'OPEN', at: '2026-11-03T00:00:00Z' },
              { status: 'CLOSED_DEAL', at: '2026-11-09T00:00:00Z' },
            ],
          },
        ],
        next_cursor: null,
        ...fresh,
      });
    case '/console/links':
      if (req.method === 'POST') {
        const body = await readBody(req);
        const link = {
          link_id: `lnk_${stub.links.length + 1}`,
          kind: body.kind,
          url: `https://market.example/r/new${stub.links.length + 1}`,
          domain: body.domain ?? null,
          label: body.label ?? null,
          clicks: 0,
          sales: 0,
          created_at: NOW,
        };
        stub.links.push(link);
        return json(res, 201, { link });
      }
      return json(res, 200, { links: stub.links, next_cursor: null, ...fresh });
    case '/console/clicks':
      return json(res, 200, {
        from: null,
        to: null,
        clicks: 42,
        by_link: [{ link_id: 'lnk_1', clicks: 42 }],
        ...fresh,
      });
    case '/console/events':
      return json(res, 200, {
        events: [
          {
            id: 'evt_1',
            type: 'order.recorded',
            created_at: '2026-11-18T09:30:00Z',
            data: { order: { public_id: 'ord_paid', domain: 'coffeehouse.com', status: 'EXTERNALLY_PAID' } },
            delivery: {
              received_at: '2026-11-18T09:30:01Z',
              state: 'done',
              attempts: 1,
              handled_at: null,
              last_error: null,
            },
          },
          {
            id: 'evt_2',
            type: 'order.transfer_completed',
            created_at: '2026-11-19T12:00:00Z',
            data: { order: { public_id: 'ord_done', domain: 'bakery.io', status: 'TRANSFER_COMPLETED' } },
            delivery: null,
          },
        ],
        next_cursor: 'evt_2',
        ...fresh,
      });
    default:
      return json(res, 404, { error: { code: 'not_found', message: `No route ${path}` } });
  }
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };
let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(bundle, 'console.min.js')))
    throw new Error('packages/console is not built: run `pnpm --filter @domainkit/console build` first.');
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/dk/')) {
      consoleApi(req, res, path.slice(3)).catch((error: unknown) => json(res, 500, { error: String(error) }));
      return;
    }
    if (path === '/console/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(readFileSync(pageHtml));
      return;
    }
    const file = join(bundle, path.replace(/^\/console\//, ''));
    if (path.startsWith('/console/') && !path.includes('..') && existsSync(file)) {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((ok) => server?.close(() => ok()));
});

/** Opens the console page on `tab` (query `extra` too) and waits until the view settled. */
async function open(tab: string, extra = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/console/?tab=${tab}${extra}`);
  await page.locator(`dk-console-${tab}[data-state="complete"], dk-console-${tab}[data-state="signed-out"]`).waitFor();
  return page;
}

const VIEWS = ['overview', 'orders', 'settlements', 'commissions', 'brokerage', 'links', 'events'] as const;

describe('console elements', () => {
  it('every view shows the figures the BFF answered', async () => {
    stub = freshStub();
    const expectations: Record<(typeof VIEWS)[number], string[]> = {
      overview: ['$4,600.00', '$460.00', '$4,140.00', '42', 'Sales over time'],
      orders: ['coffeehouse.com', 'bakery.io', '$2,500.00', 'Transfer completed'],
      settlements: ['$1,080.00', '1 transactions, GMV $1,200.00, commission $120.00', 'Total paid: $50.00'],
      commissions: ['$25.00', '$75.00', '-$50.00'],
      brokerage: ['dream.com', 'Deal at $4,500.00, your cut $450.00'],
      links: ['https://market.example/r/abc123', '42', 'No chart of clicks per day'],
      events: ['order.recorded', 'Not received'],
    };
    for (const view of VIEWS) {
      const page = await open(view);
      const text = await deepText(page.locator(`dk-console-${view}`));
      for (const figure of expectations[view]) expect(text, `${view} shows ${figure}`).toContain(figure);
      await page.close();
    }
    // The token went as Bearer; the session was minted once per page.
    expect(stub.calls.filter((c) => c === 'POST /console/session')).toHaveLength(VIEWS.length);
  });

  it('links: the click total of the window, and why there is no per-day chart instead of an empty one', async () => {
    stub = freshStub();
    const page = await open('links');
    const view = page.locator('dk-console-links');
    expect(await view.locator('[part="clicks"] dd[data-clicks]').getAttribute('data-clicks')).toBe('42');
    expect(await deepText(view.locator('[part="clicks"]'))).toContain(
      'the marketplace reports clicks as a total for a date range, not day by day',
    );
    expect(await view.locator('dk-console-chart').count()).toBe(0);
    await page.close();
  });

  it('filters: orders and transactions ask the BFF for what was chosen, trimmed, the window by whole days', async () => {
    stub = freshStub();
    const submit = async (page: Page, tab: string, path: string): Promise<URLSearchParams> => {
      const asked = page.waitForRequest((r) => new URL(r.url()).pathname === path);
      await page.locator(`dk-console-${tab} form[part="filters"] button[type="submit"]`).click();
      return new URL((await asked).url()).searchParams;
    };
    const orders = await open('orders');
    const form = orders.locator('dk-console-orders form[part="filters"]');
    await form.locator('select[name="status"]').selectOption('HELD_FOR_REVIEW');
    await form.locator('input[name="domain"]').fill('  CoffeeHouse.com ');
    await form.locator('input[name="from"]').fill('2026-11-01');
    const query = await submit(orders, 'orders', '/dk/console/orders');
    expect(query.get('status')).toBe('HELD_FOR_REVIEW');
    expect(query.get('domain')).toBe('coffeehouse.com');
    expect(query.get('from')).toBe('2026-11-01T00:00:00Z');
    expect(query.has('to')).toBe(false);
    await orders.close();

    const settlements = await open('settlements');
    const filters = settlements.locator('dk-console-settlements form[part="filters"]');
    await filters.locator('select[name="payment_model"]').selectOption('mor');
    await filters.locator('input[name="status"]').fill(' ');
    await filters.locator('input[name="to"]').fill('2026-11-20');
    const tx = await submit(settlements, 'settlements', '/dk/console/transactions');
    expect(tx.get('payment_model')).toBe('mor');
    expect(tx.has('status')).toBe(false);
    expect(tx.has('from')).toBe(false);
    expect(tx.get('to')).toBe('2026-11-20T23:59:59Z');
    await settlements.close();
  });

  it('orders: a domain that is not a full name is refused in the form, before anything is asked', async () => {
    stub = freshStub();
    const page = await open('orders');
    const view = page.locator('dk-console-orders');
    const form = view.locator('form[part="filters"]');
    const input = form.locator('input[name="domain"]');
    const asked = () => stub.calls.filter((c) => c === 'GET /console/orders').length;
    const before = asked();
    expect(await deepText(form)).toContain('A full domain name, such as example.com');
    for (const typed of ['forest', 'fore', '🌲', 'x'.repeat(200), '  forest  ']) {
      await input.fill(typed);
      await form.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => input.getAttribute('aria-invalid'), { message: typed }).toBe('true');
      const described = (await input.getAttribute('aria-describedby')) ?? '';
      const message = await view.evaluate(
        (el, ids) =>
          ids
            .split(' ')
            .map((id) => el.shadowRoot?.getElementById(id)?.textContent ?? '')
            .join(' '),
        described,
      );
      expect(message, typed).toContain('Type a full domain name such as example.com');
      expect(await view.evaluate((el) => el.shadowRoot?.activeElement?.getAttribute('name')), typed).toBe('domain');
      // The table and the form stay; nothing was asked.
      expect(await deepText(view.locator('[part="table"]')), typed).toContain('coffeehouse.com');
      expect(await input.inputValue(), typed).toBe(typed);
      expect(await view.getAttribute('data-state')).toBe('complete');
    }
    expect(asked()).toBe(before);
    // Trimmed and lower-cased, a full name is asked for and the field is no longer marked.
    const request = page.waitForRequest((r) => new URL(r.url()).pathname === '/dk/console/orders');
    await input.fill('  Forest.COM ');
    await form.getByRole('button', { name: 'Apply' }).click();
    expect(new URL((await request).url()).searchParams.get('domain')).toBe('forest.com');
    await expect.poll(() => input.getAttribute('aria-invalid')).toBe('false');
    await page.close();
  });

  it('orders and transactions: "From" after "To" is refused in the form, before anything is asked', async () => {
    for (const [tab, table, row] of [
      ['orders', 'table', 'coffeehouse.com'],
      ['settlements', 'transactions', 'bakery.io'],
    ] as const) {
      stub = freshStub();
      const page = await open(tab);
      const view = page.locator(`dk-console-${tab}`);
      const form = view.locator('form[part="filters"]');
      const before = stub.calls.length;
      await form.locator('input[name="from"]').fill('2026-11-20');
      await form.locator('input[name="to"]').fill('2026-11-01');
      await form.getByRole('button', { name: 'Apply' }).click();
      const from = form.locator('input[name="from"]');
      await expect.poll(() => from.getAttribute('aria-invalid'), { message: tab }).toBe('true');
      const id = (await from.getAttribute('aria-describedby')) ?? '';
      expect(await view.evaluate((el, id) => el.shadowRoot?.getElementById(id)?.textContent, id), tab).toContain(
        '“From” is after “To”',
      );
      expect(await view.evaluate((el) => el.shadowRoot?.activeElement?.getAttribute('name')), tab).toBe('from');
      expect(await deepText(view.locator(`[part="${table}"]`)), tab).toContain(row);
      expect(stub.calls.slice(before), tab).toEqual([]);
      // Put right, the window is asked for and the fields are no longer marked.
      const asked = page.waitForRequest((r) => new URL(r.url()).searchParams.get('from') === '2026-11-01T00:00:00Z');
      await form.locator('input[name="from"]').fill('2026-11-01');
      await form.getByRole('button', { name: 'Apply' }).click();
      expect(new URL((await asked).url()).searchParams.get('to'), tab).toBe('2026-11-01T23:59:59Z');
      await expect.poll(() => from.getAttribute('aria-invalid'), { message: tab }).toBe('false');
      await page.close();
    }
  });

  it('orders: a filter the BFF refuses keeps the form, with the refusal next to it and no retry of it', async () => {
    stub = freshStub();
    stub.refuseStatus = '`status` is not a status this marketplace reports.';
    const page = await open('orders');
    const view = page.locator('dk-console-orders');
    const form = view.locator('form[part="filters"]');
    await form.locator('select[name="status"]').selectOption('HELD_FOR_REVIEW');
    await form.getByRole('button', { name: 'Apply' }).click();
    await page.locator('dk-console-orders[data-state="error"]').waitFor();
    expect(await form.count()).toBe(1);
    const alert = view.getByRole('alert');
    expect(await deepText(alert)).toContain(
      'This filter was not accepted: status is not a status this marketplace reports. Change it and apply again.',
    );
    expect(await view.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await inEveryLook(page, 'console-orders-filter-refused', (name) => expectNoAxeViolations(page, name));
    // The person changes the filter and applies it: the orders are back.
    stub.refuseStatus = undefined;
    await form.locator('select[name="status"]').selectOption('');
    await form.getByRole('button', { name: 'Apply' }).click();
    await page.locator('dk-console-orders[data-state="complete"]').waitFor();
    expect(await deepText(view.locator('[part="table"]'))).toContain('coffeehouse.com');
    await page.close();
  });

  it('axe finds nothing in the refused domain filter, in every look', async () => {
    stub = freshStub();
    const page = await open('orders');
    const form = page.locator('dk-console-orders form[part="filters"]');
    await form.locator('input[name="domain"]').fill('forest');
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => form.locator('input[name="domain"]').getAttribute('aria-invalid')).toBe('true');
    await inEveryLook(page, 'console-orders-domain-refused', (name) => expectNoAxeViolations(page, name));
    await page.close();
  });

  it('a chart loads uPlot on first use and keeps its figures in a data table', async () => {
    stub = freshStub();
    const page = await open('overview');
    const chart = page.locator('dk-console-chart');
    await chart.locator('canvas').first().waitFor();
    await chart.getByText('Show the figures as a table').click();
    const rows = chart.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await deepText(rows.nth(2))).toContain('$3,400.00');
    await page.close();
  });

  it('Refund only before TRANSFER_COMPLETED, after a confirmation that says where the money goes', async () => {
    stub = freshStub();
    const page = await open('orders');
    const view = page.locator('dk-console-orders');
    await expect.poll(() => view.locator('tr[data-order="ord_done"] [part="refund"]').count()).toBe(0);
    expect(await deepText(view.locator('tr[data-order="ord_done"]'))).toContain(
      'No refund: the domain has been transferred to the buyer.',
    );
    await view.getByRole('button', { name: 'Refund the order for coffeehouse.com' }).click();
    const dialog = view.getByRole('dialog');
    await expect.poll(() => deepText(dialog)).toContain('Refund $2,500.00 to the buyer through your own payment');
    expect(stub.refunds).toHaveLength(0);
    await dialog.getByLabel('Reason (optional, kept with the refund)').fill('Buyer changed their mind');
    await dialog.getByRole('button', { name: 'Refund the order' }).click();
    await expect.poll(() => view.locator('tr[data-order="ord_paid"]').getAttribute('data-status')).toBe('REFUNDED');
    expect(stub.refunds).toEqual([
      { id: 'ord_paid', key: expect.stringMatching(/^[0-9a-f-]{36}$/), reason: 'Buyer changed their mind' },
    ]);
    expect(await deepText(view)).toContain('Refunded. Return $2,500.00 to the buyer');
    await page.close();
  });

  it("a refusal by the marketplace is shown in the marketplace's words", async () => {
    stub = freshStub();
    const page = await open('orders');
    const view = page.locator('dk-console-orders');
    await view.getByRole('button', { name: 'Refund the order for teashop.net' }).click();
    await view.getByRole('dialog').getByRole('button', { name: 'Refund the order' }).click();
    await expect
      .poll(() => deepText(view.getByRole('alert')))
      .toContain('The marketplace refused the refund: Refunds are only possible before TRANSFER_COMPLETED');
    expect(stub.refunds).toHaveLength(0);
    await page.close();
  });

  it('a link created in the console is listed with its URL', async () => {
    stub = freshStub();
    const page = await open('links');
    const view = page.locator('dk-console-links');
    await view.getByLabel('Kind').selectOption('domain');
    await view.getByRole('textbox', { name: 'Domain' }).fill('Teashop.net');
    await view.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => view.locator('tr[data-link="lnk_2"]').count()).toBe(1);
    expect(stub.links[1]).toMatchObject({ kind: 'domain', domain: 'teashop.net' });
    expect(await deepText(view)).toContain('Link created: https://market.example/r/new2');
    await page.close();
  });

  it('a long label without spaces wraps: every column of the links table stays in the card', async () => {
    stub = freshStub();
    stub.links[0] = { ...stub.links[0], label: 'L'.repeat(100) };
    const page = await open('links');
    const view = page.locator('dk-console-links');
    const fit = await view.locator('table').evaluate((table) => {
      const box = table.parentElement!;
      const sales = table.querySelector('tbody tr td:last-child')!.getBoundingClientRect();
      return {
        table: table.scrollWidth,
        box: box.clientWidth,
        salesEnd: sales.right,
        boxEnd: box.getBoundingClientRect().right,
      };
    });
    expect(fit.table, 'the table is no wider than its box').toBeLessThanOrEqual(fit.box);
    expect(fit.salesEnd, 'the Sales column is in view').toBeLessThanOrEqual(fit.boxEnd + 0.5);
    await page.close();
  });

  it('a refused session says so, with a way to sign in again', async () => {
    stub = freshStub();
    stub.signedIn = false;
    const page = await open('orders');
    const alert = page.locator('dk-console-orders').getByRole('alert');
    expect(await deepText(alert)).toContain('Your console session has ended or you are not signed in.');
    expect(await alert.getByRole('button', { name: 'Sign in again' }).count()).toBe(1);
    expect(stub.calls.filter((c) => c !== 'POST /console/session')).toEqual([]);
    await page.close();
  });

  it('speaks French and Arabic', async () => {
    stub = freshStub();
    for (const [lang, word] of [
      ['fr', 'Rembourser'],
      ['ar', 'استرداد'],
    ] as const) {
      const page = await open('orders', `&lang=${lang}`);
      await expect.poll(() => deepText(page.locator('dk-console-orders'))).toContain(word);
      await page.close();
    }
  });

  it("shows each status by its label in the reader's language, the code kept, an unknown code as it is", async () => {
    // A newer marketplace may answer a status the console does not know: it is shown as it came, never blank.
    stub = freshStub();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.route('**/dk/console/orders?**', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { orders: Array<Record<string, unknown>> };
      body.orders.push(order('ord_new', 'newer.dev', 'ESCROW_HOLD', false, 1000));
      await route.fulfill({ response: answer, json: body });
    });
    await page.goto(`${base}/console/?tab=orders&lang=fr`);
    const view = page.locator('dk-console-orders');
    await page.locator('dk-console-orders[data-state="complete"]').waitFor();
    const status = (id: string) => deepText(view.locator(`tr[data-order="${id}"] [part="status"]`));
    expect(await status('ord_done')).toBe('Transfert terminé');
    expect(await status('ord_paid')).toBe('Payée, encaissée par vous');
    expect(await status('ord_new')).toBe('ESCROW_HOLD');
    expect(await view.locator('tr[data-order="ord_done"] [part="status"] data').getAttribute('value')).toBe(
      'TRANSFER_COMPLETED',
    );
    // The filter reads in French; what is sent stays the code.
    const option = view.locator('select[name="status"] option[value="TRANSFER_IN_PROGRESS"]');
    expect(await option.textContent()).toBe('Transfert en cours');
    await view.getByRole('button', { name: 'Historique de la commande ord_done' }).click();
    await expect.poll(() => deepText(view.locator('[part="timeline"]'))).toContain('Transfert terminé');
    await page.close();
    const cases = await open('brokerage', '&lang=ar');
    const row = cases.locator('dk-console-brokerage tr[data-case="brk_1"]');
    await expect.poll(() => deepText(row)).toContain('أُغلق بصفقة');
    expect(await deepText(row)).toContain('مُدار');
    expect(await deepText(row)).not.toContain('CLOSED_DEAL');
    expect(await deepText(row)).not.toContain('managed');
    await cases.close();
    // A shop that relabels one status keeps the labels of the others.
    const relabelled = await open('orders');
    const orders = relabelled.locator('dk-console-orders');
    await orders.evaluate((el) => {
      (el as HTMLElement & { strings: unknown }).strings = { orderStatuses: { EXTERNALLY_PAID: 'Paid to us' } };
    });
    const label = (id: string) => deepText(orders.locator(`tr[data-order="${id}"] [part="status"]`));
    await expect.poll(() => label('ord_paid')).toBe('Paid to us');
    expect(await label('ord_done')).toBe('Transfer completed');
    await relabelled.close();
  });

  it('the ledger, transactions, payouts, deliveries and links read their codes as labels in French', async () => {
    stub = freshStub();
    const ledger = await open('commissions', '&lang=fr');
    const lines = ledger.locator('dk-console-commissions [part="table"] tbody');
    await expect.poll(() => deepText(lines)).toContain('Acquise En attente');
    expect(await deepText(lines)).toContain('Versée');
    expect(await deepText(lines)).not.toMatch(/accrued|pending|paid_out/);
    await ledger.close();
    const money = await open('settlements', '&lang=fr');
    const rows = money.locator('dk-console-settlements [part="transactions"] tbody');
    await expect.poll(() => deepText(rows)).toContain('Marchand officiel (vous encaissez) Transfert terminé');
    const model = money.locator('dk-console-settlements select[name="payment_model"] option[value="non_mor"]');
    expect(await model.textContent()).toBe('Paiement hébergé');
    // A payout's status, written in capitals by this marketplace, reads as its label; the code stays in the markup.
    const payout = money.locator('dk-console-settlements [part="payouts"] tbody .badge');
    expect(await deepText(payout)).toBe('Payé');
    expect(await payout.locator('data').getAttribute('value')).toBe('PAID');
    await money.close();
    const events = await open('events', '&lang=fr');
    const delivered = events.locator('dk-console-events tr[data-event="evt_1"] .badge');
    await expect.poll(() => deepText(delivered)).toBe('Traité');
    await events.close();
    const links = await open('links', '&lang=fr');
    await expect.poll(() => deepText(links.locator('dk-console-links tbody'))).toContain('Domaine');
    await links.close();
  });

  it('says which commissions each payout figure covers, in every locale the console ships', async () => {
    // The referral ledger (GET /me/commissions, /me/payouts) and the partner payouts (GET /payouts: hosted checkout
    // and brokerage) are two ledgers (Partner API spec 4.1): each view names its own and points at the other.
    stub = freshStub();
    const words = {
      en: {
        settlements: ['Payouts for hosted-checkout sales and brokerage', 'referral-link sales are paid separately'],
        commissions: ['Referral commission ledger', 'hosted-checkout sales and brokerage deals are paid at settlement'],
      },
      fr: {
        settlements: [
          'Versements des ventes en paiement hébergé et du courtage',
          'liens de parrainage sont versées à part',
        ],
        commissions: ['Grand livre des commissions de parrainage', 'affaires de courtage sont versées au règlement'],
      },
      ar: {
        settlements: ['دفعات مبيعات الدفع المستضاف والوساطة', 'روابط الإحالة بشكل منفصل'],
        commissions: ['دفتر عمولات الإحالة', 'وصفقات الوساطة عند التسوية'],
      },
    } as const;
    for (const [lang, views] of Object.entries(words)) {
      for (const [view, phrases] of Object.entries(views)) {
        const page = await open(view, lang === 'en' ? '' : `&lang=${lang}`);
        const text = () => deepText(page.locator(`dk-console-${view}`));
        for (const phrase of phrases)
          await expect.poll(text, { message: `${lang} ${view}: ${phrase}` }).toContain(phrase);
        await page.close();
      }
    }
  });

  it.each(VIEWS)(
    'axe finds nothing in the %s view, light, dark and right to left, at 390 and 1280 px',
    async (view) => {
      stub = freshStub();
      const page = await open(view);
      if (view === 'overview') await page.locator('dk-console-chart canvas').first().waitFor();
      await inEveryLook(page, `console-${view}`, (name) => expectNoAxeViolations(page, name));
      await page.close();
    },
  );

  it('axe finds nothing in the refund confirmation, in every look', async () => {
    stub = freshStub();
    const page = await open('orders');
    await page
      .locator('dk-console-orders')
      .getByRole('button', { name: 'Refund the order for coffeehouse.com' })
      .click();
    await page.locator('dk-console-orders').getByRole('dialog').waitFor();
    await inEveryLook(page, 'console-refund-confirm', (name) => expectNoAxeViolations(page, name));
    await page.close();
  });
});
