/**
 * The partner console on the demo stack (issue 24, must-show 1): every view of `<dk-console>` renders over the
 * sandbox's seeded history, and each figure equals what `@domainkit/client` reads from the sandbox for the same
 * window (the console's default: the whole history): GMV, commission and what is owed; each settlement statement; the
 * transactions' totals and the payouts paid; the commission ledger's totals and running balance; each brokerage case;
 * each referral link's clicks and sales; the funnel; the orders and events listed.
 *
 * The test's own reads share the credential's 30 reporting calls a minute (Partner API spec 8: per credential) with
 * the BFF, so they are made once, before the console opens, one page each, and counted; the sandbox's log then shows
 * that no call of the file was refused 429.
 */
import { type AttemptReport, type Page, PartnerClient } from '@domainkit/client';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import {
  CONSOLE_VIEWS,
  type ConsoleTabName,
  deepText,
  demoLog,
  openTab,
  REPORTING_PATH,
  settledView,
} from './console-page.ts';
import { useDemoStack } from './demo-stack.ts';
import { shot } from './shots.ts';

/** What an English reader sees for each brokerage case status. */
const CASE_LABELS: Readonly<Record<string, string>> = {
  OPEN: 'Open',
  CONTACTING_OWNER: 'Contacting the owner',
  NEGOTIATING: 'Negotiating',
  CLOSED_DEAL: 'Closed with a deal',
  CLOSED_NO_DEAL: 'Closed without a deal',
};

const log = demoLog();
const stack = useDemoStack('domainkit-console-demo-', { demo: { quiet: false, logStream: log.stream } });

/** The test's own reporting calls, at most (6 are made: transactions, settlements, payouts, ledger, brokerage, analytics). */
const OWN_REPORTING_CALLS = 6;

/** The looks of the French and Arabic views: light at a phone's and a desktop's width, and dark on the desktop. */
const LANGUAGE_LOOKS = [
  { name: 'light-390', colorScheme: 'light', width: 390 },
  { name: 'light-1280', colorScheme: 'light', width: 1280 },
  { name: 'dark-1280', colorScheme: 'dark', width: 1280 },
] as const;

const money = (cents: number, currency = 'USD') =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
const count = (value: number) => new Intl.NumberFormat('en').format(value);

/** What the client read from the sandbox, before the console opened. */
let expected: Awaited<ReturnType<typeof readExpected>>;
const attempts: AttemptReport[] = [];

/** One page of everything the console shows, with the page sizes its views ask for. */
async function readExpected(client: PartnerClient) {
  const first = async <T, R>(list: { pages(): AsyncGenerator<Page<T, R>> }): Promise<Page<T, R>> => {
    for await (const page of list.pages()) return page;
    throw new Error('a list answered no page');
  };
  const [transactions, settlements, payouts, ledger, brokerage, analytics, orders, links, events] = await Promise.all([
    first(client.transactions.list({ limit: 50 })),
    first(client.settlements.list({ limit: 50 })),
    first(client.payouts.list({ limit: 50 })),
    first(client.me.commissions({ limit: 100 })),
    first(client.brokerage.list({ limit: 50 })),
    client.analytics.retrieve({}),
    first(client.orders.list({ limit: 20 })),
    first(client.links.list({ limit: 100 })),
    first(client.events.list({ limit: 50 })),
  ]);
  // The list carries no timeline (the spec gives it on GET /brokerage/{case_id}): the closed deal's, read alone.
  const deal = brokerage.items.find((c) => c.status === 'CLOSED_DEAL');
  const dealCase = deal === undefined ? undefined : await client.brokerage.retrieve(deal.case_id);
  return { transactions, settlements, payouts, ledger, brokerage, dealCase, analytics, orders, links, events };
}

beforeAll(async () => {
  const { credential, sandboxUrl } = stack.demo;
  const client = new PartnerClient({
    baseUrl: sandboxUrl,
    keyId: credential.key_id,
    secret: credential.secret,
    maxRetries: 0,
    onAttempt: (attempt) => attempts.push(attempt),
  });
  expected = await readExpected(client);
});

/** `data-cents` of the figure card `part` in `view`. */
const cents = (view: Locator, part: string) =>
  view.locator(`[part="${part}"] dd`).getAttribute('data-cents').then(Number);

describe('the console on the demo shows what the marketplace holds', () => {
  it('the expected figures were read in few calls, one page each, and the history is rich enough to compare', () => {
    const reporting = attempts.filter((a) => a.rateClass === 'reporting');
    expect(reporting.length).toBeLessThanOrEqual(OWN_REPORTING_CALLS);
    expect(attempts.every((a) => a.status === 200 && a.retry === 0)).toBe(true);
    // One page holds each list (so comparing the first page is comparing all of it).
    const { transactions, settlements, ledger, brokerage, links } = expected;
    for (const page of [transactions, settlements, ledger, brokerage, links]) expect(page.nextCursor).toBeNull();
    expect(settlements.items.length).toBeGreaterThan(0);
    expect(ledger.items.length).toBeGreaterThan(1);
    expect(brokerage.items.length).toBe(4);
    expect(links.items.some((l) => l.clicks > 0)).toBe(true);
  });

  it('every view renders the figures the client read', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(stack.demo.consoleUrl);
    // Each view's state once settled: every one must be complete (not an error, not signed out).
    const shown: Array<[string, string | null]> = [];
    const open = async (tab: ConsoleTabName) => {
      const view = await openTab(page, tab);
      shown.push([tab, await view.getAttribute('data-state')]);
      await shot(page, `console-${tab}-en-light-1280`);
      return view;
    };
    const { transactions, settlements, payouts, ledger, brokerage, analytics, orders, links, events } = expected;
    const totals = transactions.raw.totals!;
    const currency = totals.currency ?? 'USD';

    // Overview: GMV, commission, owed for the window (every statement), the funnel.
    const overview = await settledView(page, 'overview');
    shown.push(['overview', await overview.getAttribute('data-state')]);
    await overview.locator('dk-console-chart canvas').waitFor();
    await shot(page, 'console-overview-en-light-1280');
    const owed = settlements.items.reduce((sum, s) => sum + s.amount_owed_cents, 0);
    expect([await cents(overview, 'gmv'), await cents(overview, 'commission'), await cents(overview, 'owed')]).toEqual([
      totals.gmv_cents,
      totals.commission_cents,
      owed,
    ]);
    const overviewText = await deepText(overview);
    for (const figure of [money(totals.gmv_cents, currency), money(totals.commission_cents, currency), money(owed)])
      expect(overviewText).toContain(figure);
    // Sales over time: each day's GMV, adding up to the card's (refunded and cancelled sales add nothing, as in the
    // marketplace's totals).
    const byDay = new Map<string, number>();
    for (const t of transactions.items) {
      const day = t.created_at.slice(0, 10);
      byDay.set(day, (byDay.get(day) ?? 0) + (['REFUNDED', 'CANCELLED'].includes(t.status) ? 0 : t.gmv_cents));
    }
    const days = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b));
    expect(days.reduce((sum, [, gmv]) => sum + gmv, 0)).toBe(totals.gmv_cents);
    const chartRows = await overview
      .locator('dk-console-chart tbody td')
      .evaluateAll((tds) => tds.map((td) => td.textContent?.trim()));
    expect(chartRows).toEqual(days.map(([, gmv]) => money(gmv, currency)));
    expect(await overview.locator('[part="funnel-clicks"] strong').getAttribute('data-value')).toBe(
      String(analytics.clicks),
    );
    expect(await overview.locator('[part="funnel-sales"] strong').getAttribute('data-value')).toBe(
      String(analytics.sales),
    );

    // Orders: the first page, each with its status; Refund only where the status allows it.
    const ordersView = await open('orders');
    const rows = ordersView.locator('tr[data-order]');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => [tr.dataset.order, tr.dataset.status]))).toEqual(
      orders.items.map((o) => [o.public_id, o.status]),
    );
    for (const order of orders.items) {
      const refund = ordersView.locator(`tr[data-order="${order.public_id}"] [part="refund"]`);
      const before = ['EXTERNALLY_PAID', 'HELD_FOR_REVIEW', 'TRANSFER_IN_PROGRESS'].includes(order.status);
      expect([order.status, await refund.count()]).toEqual([order.status, before ? 1 : 0]);
    }

    // Settlements: each statement's figures, the transactions' totals, the payouts paid.
    const settlementsView = await open('settlements');
    for (const s of settlements.items) {
      const cells = await settlementsView
        .locator(`tr[data-settlement="${s.settlement_id}"] td`)
        .evaluateAll((tds) => tds.map((td) => td.textContent?.trim()));
      expect(cells).toEqual([
        money(s.gross_sold_cents, s.currency),
        money(s.commission_retained_cents, s.currency),
        money(s.amount_owed_cents, s.currency),
        count(s.order_count),
      ]);
    }
    const totalsLine = settlementsView.locator('[part="totals"]');
    expect([await totalsLine.getAttribute('data-gmv'), await totalsLine.getAttribute('data-commission')]).toEqual([
      String(totals.gmv_cents),
      String(totals.commission_cents),
    ]);
    expect(await deepText(totalsLine)).toContain(
      `${totals.count} transactions, GMV ${money(totals.gmv_cents, currency)}, commission ${money(totals.commission_cents, currency)}`,
    );
    const paid = (payouts.raw as { total_paid_cents?: number }).total_paid_cents;
    if (paid !== undefined) expect(await deepText(settlementsView)).toContain(`Total paid: ${money(paid)}`);
    expect(await settlementsView.locator('[part="payouts"] tbody tr').count()).toBe(payouts.items.length);

    // Commission ledger: the totals, and the running balance after each line.
    const ledgerView = await open('commissions');
    const ledgerTotals = ledger.raw.totals!;
    expect({
      balance: await cents(ledgerView, 'balance'),
      accrued: await cents(ledgerView, 'accrued'),
      pending: await cents(ledgerView, 'pending'),
      paid: await cents(ledgerView, 'paid-out'),
      reversed: await cents(ledgerView, 'reversed'),
    }).toEqual({
      balance: ledgerTotals.balance_cents,
      accrued: ledgerTotals.accrued_cents,
      pending: ledgerTotals.pending_cents,
      paid: ledgerTotals.paid_out_cents,
      reversed: ledgerTotals.reversed_cents,
    });
    const balances = await ledgerView
      .locator('[part="table"] tbody tr td:last-child')
      .evaluateAll((tds) => tds.map((td) => td.textContent?.trim()));
    expect(balances).toEqual(ledger.items.map((line) => money(line.balance_cents, line.currency)));

    // Brokerage: each case with its status (its label, the code kept in the badge's value) and budget.
    const brokerageView = await open('brokerage');
    for (const c of brokerage.items) {
      const row = brokerageView.locator(`tr[data-case="${c.case_id}"]`);
      const text = await deepText(row);
      expect(text).toContain(CASE_LABELS[c.status] ?? c.status);
      expect(await row.locator('[part="status"] data').getAttribute('value')).toBe(c.status);
      expect(text).toContain(money(c.budget_cents, c.currency));
      if (c.deal_price_cents != null) expect(text).toContain(money(c.deal_price_cents, c.currency));
    }
    // The closed deal's timeline, opened: every step the marketplace lists for it.
    const dealCase = expected.dealCase!;
    expect(dealCase.timeline?.length).toBeGreaterThan(1);
    await brokerageView.getByRole('button', { name: `Timeline of the case for ${dealCase.domain}` }).click();
    const steps = brokerageView.locator(`#tl-${dealCase.case_id} li`);
    await expect.poll(() => steps.count()).toBe(dealCase.timeline!.length);
    expect(await steps.evaluateAll((lis) => lis.map((li) => li.textContent?.split(' · ')[0]?.trim()))).toEqual(
      dealCase.timeline!.map((step) => CASE_LABELS[step.status] ?? step.status),
    );
    expect(await steps.locator('data').evaluateAll((data) => data.map((d) => d.getAttribute('value')))).toEqual(
      dealCase.timeline!.map((step) => step.status),
    );

    // Referral links: each link's clicks and sales.
    const linksView = await open('links');
    for (const link of links.items) {
      const row = linksView.locator(`tr[data-link="${link.link_id}"]`);
      expect([link.link_id, await row.locator('[data-clicks]').getAttribute('data-clicks')]).toEqual([
        link.link_id,
        String(link.clicks),
      ]);
      expect(await row.locator('[data-sales]').getAttribute('data-sales')).toBe(String(link.sales));
    }

    // Events: the history as the marketplace lists it.
    const eventsView = await open('events');
    expect(await eventsView.locator('tr[data-event]').evaluateAll((trs) => trs.map((tr) => tr.dataset.event))).toEqual(
      events.items.map((e) => e.id),
    );

    expect(shown).toEqual(CONSOLE_VIEWS.map((v) => [v.tab, 'complete']));
    expect(errors).toEqual([]);
    await page.close();
  });

  it.each(['fr', 'ar'] as const)(
    'in %s: every view speaks it, with the same figures in its numbers, and axe finds nothing at 390 and 1280 px',
    async (lang) => {
      const page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${stack.demo.consoleUrl}?lang=${lang}`);
      const overview = await settledView(page, 'overview');
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        lang,
        lang === 'ar' ? 'rtl' : 'ltr',
      ]);
      // The same GMV, written as the language writes amounts (the browser's own Intl, as the element uses it; spaces
      // collapsed as deepText reads them, and the bidi isolates that keep `US$` whole in Arabic set aside).
      const totals = expected.transactions.raw.totals!;
      const gmv = await page.evaluate(
        ([cents, currency, locale]) =>
          new Intl.NumberFormat(locale, { style: 'currency', currency })
            .format(Number(cents) / 100)
            .replace(/\s+/g, ' '),
        [String(totals.gmv_cents), totals.currency ?? 'USD', lang] as const,
      );
      const shown = () => deepText(overview.locator('[part="gmv"]')).then((t) => t.replace(/[\u2066-\u2069]/g, ''));
      await expect.poll(shown).toContain(gmv);
      expect((await deepText(page.locator('dk-console').getByRole('tab').first())).trim()).toBe(
        lang === 'fr' ? 'Vue d’ensemble' : 'نظرة عامة',
      );
      for (const { tab } of CONSOLE_VIEWS) {
        const view = tab === 'overview' ? overview : await openTab(page, tab);
        expect([tab, await view.getAttribute('data-state')]).toEqual([tab, 'complete']);
        if (tab === 'overview') await view.locator('dk-console-chart canvas').first().waitFor();
        if (tab === 'brokerage') {
          // The closed deal's timeline open, as a person reads it.
          const deal = expected.dealCase!;
          await view.locator(`button[aria-controls="tl-${deal.case_id}"]`).click();
          await view.locator(`#tl-${deal.case_id} li`).first().waitFor();
        }
        for (const look of LANGUAGE_LOOKS) {
          await page.emulateMedia({ colorScheme: look.colorScheme });
          await page.setViewportSize({ width: look.width, height: 900 });
          const name = `console-${tab}-${lang}-${look.name}`;
          await shot(page, name);
          await expectNoAxeViolations(page, name);
        }
        await page.emulateMedia({ colorScheme: 'light' });
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      await page.close();
    },
  );

  it('the marketplace refused nothing: the test and the console together stayed inside the reporting limit', () => {
    const refused = log.requests.filter((r) => r.status === 429);
    expect(refused).toEqual([]);
    const reporting = log.requests.filter((r) => REPORTING_PATH.test(r.path));
    expect(reporting.length).toBeLessThanOrEqual(30);
  });
});
