/**
 * The admin commands of the sandbox CLI: each calls the admin API of a running sandbox (admin/router.ts,
 * admin/lifecycle-router.ts) and prints its JSON answer on stdout. Trigger commands name, in their help, the event
 * they cause, and print it (the answer's `events`). A refused call prints the error message on stderr and exits 1.
 *
 * Where the sandbox is: `--url` [`SANDBOX_URL`], else the URL the sandbox wrote in `{--data-dir}/server.json` when
 * it started, else http://127.0.0.1:4010. The admin token: `--admin-token` [`SANDBOX_ADMIN_TOKEN`], else read from
 * `{--data-dir}/credentials.json` [`SANDBOX_DATA_DIR`, default `.data/sandbox`]. Every error names the URL called.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { BROKERAGE_CASE_STATUSES, ORDER_STATUSES } from '@domainkit/protocol';
import { createSandboxAdmin, readSandboxUrl, type SandboxAdmin, SERVER_FILE } from './admin-client.ts';
import { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT } from './options.ts';

interface Target {
  url?: string;
  adminToken?: string;
  dataDir?: string;
}

function withTarget(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--url <url>',
        `the running sandbox (default: the URL it wrote in {data-dir}/${SERVER_FILE}, else http://${DEFAULT_HOST}:${DEFAULT_PORT})`,
      ).env('SANDBOX_URL'),
    )
    .addOption(
      new Option('--admin-token <token>', 'admin token (default: read from the data folder)').env(
        'SANDBOX_ADMIN_TOKEN',
      ),
    )
    .addOption(
      new Option('--data-dir <dir>', 'data folder holding credentials.json')
        .env('SANDBOX_DATA_DIR')
        .default(DEFAULT_DATA_DIR),
    );
}

function numberIn(name: string, min: number, max: number, integer = true) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)))
      throw new InvalidArgumentError(`${name} must be ${integer ? 'a whole number' : 'a number'}.`);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} must be between ${min} and ${max}.`);
    return n;
  };
}

/**
 * Calls the admin API and prints the answer; a refusal raises a {@link SandboxAdminError} whose message names the URL
 * called (the program prints it on stderr and exits 1).
 */
async function call(target: Target, method: string, path: string, body?: unknown): Promise<void> {
  const json = await adminFor(target).request(method, `/admin${path}`, body);
  process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
}

/** The admin client of a target: `--url`, else the URL the sandbox wrote in its data folder, else the default. */
export function adminFor(target: Target): SandboxAdmin {
  return createSandboxAdmin({
    url: target.url,
    adminToken: target.adminToken,
    dataDir: target.dataDir ?? DEFAULT_DATA_DIR,
  });
}

const ORDER_TRIGGERS: ReadonlyArray<[string, string]> = [
  ['hold', 'EXTERNALLY_PAID → HELD_FOR_REVIEW; emits order.held_for_review'],
  ['clear-review', 'HELD_FOR_REVIEW → EXTERNALLY_PAID; emits order.manual_review_cleared'],
  ['start-transfer', 'EXTERNALLY_PAID → TRANSFER_IN_PROGRESS; emits order.transfer_started'],
  ['confirm-delivery', 'TRANSFER_IN_PROGRESS → TRANSFER_COMPLETED; emits order.transfer_completed'],
  ['refund', '→ REFUNDED (only before TRANSFER_COMPLETED); emits order.refunded'],
  ['cancel', '→ CANCELLED (only before TRANSFER_COMPLETED); emits order.refunded'],
];

/** Adds the admin commands to the program. */
export function addAdminCommands(program: Command): void {
  withTarget(program.command('orders').description('list orders of every credential (newest first)'))
    .option('--key-id <key_id>', 'only this credential')
    .option('--status <status>', 'only this status')
    .action((o: Target & { keyId?: string; status?: string }) => {
      const q = new URLSearchParams({
        ...(o.keyId ? { key_id: o.keyId } : {}),
        ...(o.status ? { status: o.status } : {}),
      }).toString();
      return call(o, 'GET', `/orders${q ? `?${q}` : ''}`);
    });

  const trigger = program.command('trigger').description('move the world on: each command prints the events it causes');
  for (const [name, effect] of ORDER_TRIGGERS) {
    withTarget(trigger.command(`${name} <order_id>`).description(effect))
      .option('--reason <text>', 'a reason recorded in the timeline')
      .action((orderId: string, o: Target & { reason?: string }) =>
        call(o, 'POST', `/orders/${encodeURIComponent(orderId)}/${name}`, o.reason ? { reason: o.reason } : {}),
      );
  }
  withTarget(
    trigger
      .command('settle')
      .description(
        'run settlement: TRANSFER_COMPLETED → SETTLED, statements and payouts; emits order.settled per order',
      ),
  )
    .option('--key-id <key_id>', 'only this credential')
    .option('--at <time>', 'close the period then (RFC 3339; needs --key-id)')
    .action((o: Target & { keyId?: string; at?: string }) =>
      call(o, 'POST', '/settlements/run', {
        ...(o.keyId ? { key_id: o.keyId } : {}),
        ...(o.at ? { at: o.at } : {}),
      }),
    );
  withTarget(
    trigger
      .command('advance-case <case_id>')
      .description('brokerage: OPEN → CONTACTING_OWNER → NEGOTIATING (no event)'),
  ).action((caseId: string, o: Target) => call(o, 'POST', `/brokerage/${encodeURIComponent(caseId)}/advance`, {}));
  withTarget(
    trigger
      .command('close-case <case_id>')
      .description('brokerage: close with a deal (--price, emits brokerage.case_completed) or --no-deal'),
  )
    .option('--price <cents>', 'the agreed price in minor units', numberIn('price', 1, 1e12))
    .option('--no-deal', 'close without a deal')
    .action((caseId: string, o: Target & { price?: number; deal: boolean }) => {
      if (o.deal && o.price === undefined)
        throw new InvalidArgumentError('close-case needs --price <cents> for a deal, or --no-deal.');
      return call(
        o,
        'POST',
        `/brokerage/${encodeURIComponent(caseId)}/close`,
        o.deal ? { deal: true, price_cents: o.price } : { deal: false },
      );
    });

  const referral = program.command('referral').description('record referral activity');
  withTarget(referral.command('click <link_id>').description('record clicks on a tracked link'))
    .option('--count <n>', 'how many clicks', numberIn('count', 1, 10_000), 1)
    .action((linkId: string, o: Target & { count: number }) =>
      call(o, 'POST', `/links/${encodeURIComponent(linkId)}/clicks`, { count: o.count }),
    );
  withTarget(
    referral
      .command('sale <link_id>')
      .description('record a sale attributed to a tracked link (accrues its commission)'),
  )
    .requiredOption('--domain <domain>', 'the domain sold (a listed one is marked sold at its price)')
    .option('--price <cents>', 'the sale price in minor units (default: the listing price)', numberIn('price', 1, 1e12))
    .option('--buyer <email>', 'the buyer')
    .action((linkId: string, o: Target & { domain: string; price?: number; buyer?: string }) =>
      call(o, 'POST', `/links/${encodeURIComponent(linkId)}/sales`, {
        domain: o.domain,
        ...(o.price !== undefined ? { price_cents: o.price } : {}),
        ...(o.buyer ? { buyer_email: o.buyer } : {}),
      }),
    );
  withTarget(
    referral.command('refund <sale_id>').description('refund a sale; reverses its referral commission'),
  ).action((saleId: string, o: Target) => call(o, 'POST', `/sales/${encodeURIComponent(saleId)}/refund`, {}));

  withTarget(
    program
      .command('set-price <domain> <cents>')
      .description('reprice a listing (quotes issued before answer price_mismatch)'),
  )
    .option('--environment <env>', 'SANDBOX or LIVE', 'SANDBOX')
    .action((domain: string, cents: string, o: Target & { environment: string }) =>
      call(o, 'POST', `/domains/${encodeURIComponent(domain)}/price`, {
        price_cents: numberIn('cents', 1, 1e12)(cents),
        environment: o.environment,
      }),
    );

  withTarget(program.command('deliveries').description('list webhook deliveries with every attempt'))
    .option('--key-id <key_id>', 'only this credential')
    .option('--status <status>', 'pending, delivered or failed')
    .option('--event-id <id>', 'only this event')
    .action((o: Target & { keyId?: string; status?: string; eventId?: string }) => {
      const q = new URLSearchParams({
        ...(o.keyId ? { key_id: o.keyId } : {}),
        ...(o.status ? { status: o.status } : {}),
        ...(o.eventId ? { event_id: o.eventId } : {}),
      }).toString();
      return call(o, 'GET', `/deliveries${q ? `?${q}` : ''}`);
    });

  withTarget(program.command('faults').description('show fault injection, or change it with the options'))
    .option(
      '--error-rate <share>',
      'share of Partner API requests answering 500 (0–1)',
      numberIn('error-rate', 0, 1, false),
    )
    .option('--latency-ms <ms>', 'latency added to every Partner API answer', numberIn('latency-ms', 0, 60_000))
    .option('--burst <n>', 'the next n Partner API requests answer 429', numberIn('burst', 0, 100_000))
    .option('--retry-after <s>', 'Retry-After of the burst', numberIn('retry-after', 1, 3600))
    .option(
      '--duplicate-rate <share>',
      'share of webhook events delivered twice (0–1)',
      numberIn('duplicate-rate', 0, 1, false),
    )
    .option(
      '--out-of-order-rate <share>',
      'share of webhook events held back (0–1)',
      numberIn('out-of-order-rate', 0, 1, false),
    )
    .option('--off', 'turn every fault off')
    .action(
      (
        o: Target & {
          errorRate?: number;
          latencyMs?: number;
          burst?: number;
          retryAfter?: number;
          duplicateRate?: number;
          outOfOrderRate?: number;
          off?: boolean;
        },
      ) => {
        const patch = o.off
          ? { error_rate: 0, latency_ms: 0, rate_limit_burst: 0, duplicate_rate: 0, out_of_order_rate: 0 }
          : {
              ...(o.errorRate !== undefined ? { error_rate: o.errorRate } : {}),
              ...(o.latencyMs !== undefined ? { latency_ms: o.latencyMs } : {}),
              ...(o.burst !== undefined ? { rate_limit_burst: o.burst } : {}),
              ...(o.retryAfter !== undefined ? { rate_limit_retry_after: o.retryAfter } : {}),
              ...(o.duplicateRate !== undefined ? { duplicate_rate: o.duplicateRate } : {}),
              ...(o.outOfOrderRate !== undefined ? { out_of_order_rate: o.outOfOrderRate } : {}),
            };
        return Object.keys(patch).length === 0 ? call(o, 'GET', '/faults') : call(o, 'PUT', '/faults', patch);
      },
    );

  withTarget(
    program
      .command('reset')
      .description('reset the world: orders, events, deliveries, settlements, cases, links, sales; inventory restored'),
  ).action((o: Target) => call(o, 'POST', '/reset', {}));

  const fixture = program
    .command('fixture')
    .description('create a record directly in any state, emitting every event of its history');
  withTarget(fixture.command('order <status>').description(`an MoR order in <status> (${ORDER_STATUSES.join(', ')})`))
    .option('--domain <domain>', 'the domain sold (default: a random ordinary listing)')
    .option('--key-id <key_id>', 'the credential (default: the demo credential)')
    .option('--via-review', 'hold and clear a manual review first')
    .option('--at <time>', 'date its history then (RFC 3339, e.g. 2026-10-16T09:30:00Z; oldest first)')
    .action((status: string, o: Target & { domain?: string; keyId?: string; viaReview?: boolean; at?: string }) =>
      call(o, 'POST', '/fixtures/orders', {
        status,
        ...(o.at ? { at: o.at } : {}),
        ...(o.domain ? { domain: o.domain } : {}),
        ...(o.keyId ? { key_id: o.keyId } : {}),
        ...(o.viaReview ? { via_review: true } : {}),
      }),
    );
  withTarget(
    fixture
      .command('brokerage-case <status>')
      .description(`a brokerage case in <status> (${BROKERAGE_CASE_STATUSES.join(', ')})`),
  )
    .option('--domain <domain>', 'the domain (default: a fresh unlisted name)')
    .option('--key-id <key_id>', 'the credential (default: the demo credential)')
    .option('--price <cents>', 'the deal price of CLOSED_DEAL in minor units', numberIn('price', 1, 1e12))
    .option('--at <time>', 'date its history then (RFC 3339, e.g. 2026-10-16T09:30:00Z; oldest first)')
    .action((status: string, o: Target & { domain?: string; keyId?: string; price?: number; at?: string }) =>
      call(o, 'POST', '/fixtures/brokerage-cases', {
        status,
        ...(o.at ? { at: o.at } : {}),
        ...(o.domain ? { domain: o.domain } : {}),
        ...(o.keyId ? { key_id: o.keyId } : {}),
        ...(o.price !== undefined ? { deal_price_cents: o.price } : {}),
      }),
    );
  withTarget(fixture.command('referral-sale').description('a domain link, its clicks and a sale through it'))
    .option('--domain <domain>', 'the domain sold (default: a random ordinary listing)')
    .option('--key-id <key_id>', 'the credential (default: the demo credential)')
    .option('--clicks <n>', 'clicks recorded before the sale', numberIn('clicks', 0, 10_000))
    .option('--refunded', 'refund the sale (reverses the commission)')
    .option('--at <time>', 'date its history then (RFC 3339, e.g. 2026-10-16T09:30:00Z; oldest first)')
    .action((o: Target & { domain?: string; keyId?: string; clicks?: number; refunded?: boolean; at?: string }) =>
      call(o, 'POST', '/fixtures/referral-sales', {
        ...(o.at ? { at: o.at } : {}),
        ...(o.domain ? { domain: o.domain } : {}),
        ...(o.keyId ? { key_id: o.keyId } : {}),
        ...(o.clicks !== undefined ? { clicks: o.clicks } : {}),
        ...(o.refunded ? { status: 'REFUNDED' } : {}),
      }),
    );

  withTarget(
    program.command('events').description("list every credential's events; --follow prints them as they happen"),
  )
    .option('--key-id <key_id>', 'only this credential')
    .option('--after-id <id>', 'only events after this one')
    .option('--follow', 'keep running and print each new event as one JSON line')
    .action(async (o: Target & { keyId?: string; afterId?: string; follow?: boolean }) => {
      const admin = adminFor(o);
      if (!o.follow) {
        const page = await admin.events.list({ key_id: o.keyId, after_id: o.afterId });
        process.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
        return;
      }
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      for await (const event of admin.events.follow({ key_id: o.keyId, after_id: o.afterId, signal: stop.signal }))
        process.stdout.write(`${JSON.stringify(event)}\n`);
    });

  withTarget(
    program
      .command('webhook-ping')
      .description("send one signed webhook.ping to a credential's endpoint now and print its answer"),
  )
    .option('--key-id <key_id>', 'the credential (default: the demo credential)')
    .action(async (o: Target & { keyId?: string }) => {
      const result = await adminFor(o).webhooks.ping(o.keyId ? { key_id: o.keyId } : {});
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      if (!result.ok) process.exitCode = 1;
    });

  withTarget(
    program.command('wait').description('wait until the sandbox answers GET /healthz (exit 1 after --timeout seconds)'),
  )
    .option('--timeout <seconds>', 'give up after this long', numberIn('timeout', 1, 3600), 60)
    .action(async (o: Target & { timeout: number }) => {
      const deadline = Date.now() + o.timeout * 1000;
      const dataDir = o.dataDir ?? DEFAULT_DATA_DIR;
      // The URL is looked up again on every round: a sandbox started with --port 0 writes it once it listens.
      for (;;) {
        const url = (o.url ?? readSandboxUrl(dataDir) ?? `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).replace(/\/+$/, '');
        const admin = createSandboxAdmin({ url, adminToken: 'not-needed-for-healthz' });
        if (await admin.healthy()) {
          process.stdout.write(`${url}\n`);
          return;
        }
        if (Date.now() >= deadline)
          throw new Error(`the sandbox at ${url} did not answer GET /healthz within ${o.timeout} s`);
        await new Promise((r) => setTimeout(r, 250));
      }
    });
}
