/**
 * The demo stack in one process: the sandbox marketplace, a partner server that mounts the BFF at `/dk`, serves
 * the widget's script-tag build at `/widget/`, the script-tag example page at `/`, the built React SPA example
 * at `/spa/` and the partner console (`@domainkit/console`) at `/console/`. `pnpm start` runs this; the end-to-end tests start exactly the same stack on free ports.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { constants } from 'node:zlib';
import compression from 'compression';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { createBff, testCardPayments, type BffOptions, type BffRouter, type McpOptions } from '@domainkit/bff';
import { createSandboxAdmin, startSandbox, type DemoCredential } from '@domainkit/sandbox';
import { seedConsoleHistory } from './seed-history.ts';

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Port of the partner page and BFF; 0 picks a free one. Default 8080. */
  readonly port?: number;
  /** Port of the sandbox marketplace; 0 picks a free one. Default 4010. */
  readonly sandboxPort?: number;
  /** Interface to bind; default 127.0.0.1. */
  readonly host?: string;
  /** Data folder (embedded databases and the generated demo credential). Default `.data` under the working directory. */
  readonly dataDir?: string;
  /** Seed the demo partner's history for the console (once per data folder); default true. */
  readonly seedHistory?: boolean | undefined;
  /** Where the JSON log lines of the sandbox and the BFF go; default standard output. */
  readonly logStream?: NodeJS.WritableStream;
  /** Clock of the BFF's search cache (milliseconds since the epoch), so tests can step past its TTL. */
  readonly bffClock?: () => number;
  /** No logs at all. */
  readonly quiet?: boolean;
  /** The partner's event handlers (the BFF's `onEvent`), such as `brokerage.case_completed`. */
  readonly onEvent?: BffOptions['onEvent'];
  /** The shop's tools for AI agents at `/dk/mcp` (the BFF's option `mcp`); default on with its defaults. */
  readonly mcp?: McpOptions | undefined;
  /** Told of each hosted-checkout sale the buyer came back from (the BFF's option `onCheckoutCompleted`). */
  readonly onCheckoutCompleted?: BffOptions['onCheckoutCompleted'];
}

/** The demo partner's shop (the script-tag page's brand), named on the hosted checkout. */
export const SHOP_NAME = 'Acme Domains';

/** A running demo stack. */
export interface Demo {
  /** The partner page to open. */
  readonly url: string;
  /** The partner console (`/console/`), signed in as the demo partner. */
  readonly consoleUrl: string;
  /** The sandbox marketplace. */
  readonly sandboxUrl: string;
  /** The generated SANDBOX credential (the secret stays server-side). */
  readonly credential: DemoCredential;
  /** Resolves when the BFF has no background work running (stored webhook events handled). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const examplePage = resolve(here, '../../script-tag');
const spaDist = resolve(here, '../../spa/dist');
const widgetDist = dirname(fileURLToPath(import.meta.resolve('@domainkit/widget/domainkit.min.js')));
const consolePage = resolve(here, '../console');
const orderPage = resolve(here, '../order');
// The console's browser bundle (`pnpm --filter @domainkit/console build`), found through its package.json, so the
// stack starts even before it is built (then /console/ says so).
const consoleDist = join(dirname(fileURLToPath(import.meta.resolve('@domainkit/console/package.json'))), 'dist/bundle');

/**
 * The version of the widget's script-tag files: the first 12 hex digits of the SHA-256 of every
 * `domainkit*.min.js` in `dist/`. They are served under `/widget/<version>/`, cacheable for a year (a rebuilt
 * widget gets a new path, so no visitor ever runs a stale mix of entry and chunks).
 */
export function widgetVersion(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(widgetDist)
    .filter((f) => /^domainkit.*\.min\.js$/.test(f))
    .sort()) {
    hash.update(file).update(readFileSync(join(widgetDist, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** Long-lived caching for content-versioned files (RFC 9111 `max-age`, RFC 8246 `immutable`). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The example page, pointing at the versioned widget. */
function examplePageHtml(version: string): string {
  return readFileSync(join(examplePage, 'index.html'), 'utf8').replaceAll(
    '/widget/domainkit.min.js',
    `/widget/${version}/domainkit.min.js`,
  );
}

function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return fail(new Error('server has no TCP address'));
      ok(`http://${host}:${address.port}`);
    });
  });
}

/**
 * Starts the sandbox and the partner server.
 * @throws when a port is taken or the data folder cannot be opened.
 */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const host = options.host ?? '127.0.0.1';
  const dataDir = resolve(options.dataDir ?? '.data');
  // A person watches the demo: human-readable lines (pino-pretty) unless a stream is given (tests read JSON).
  const logger = options.quiet
    ? (false as const)
    : pino(
        { level: 'info' },
        options.logStream ??
          PinoPretty({
            colorize: process.stdout.isTTY === true,
            translateTime: 'SYS:HH:MM:ss',
            ignore: 'pid,hostname',
          }),
      );
  const sandbox = await startSandbox({
    port: options.sandboxPort ?? 4010,
    host,
    dataDir: resolve(dataDir, 'sandbox'),
    logger: logger === false ? false : logger.child({ service: 'sandbox' }),
  });
  // The shop's name, as its buyers see it on the marketplace's hosted checkout (set in the back office).
  const admin = createSandboxAdmin({ url: sandbox.url, adminToken: sandbox.demo.admin_token });
  await admin.credentials
    .update(sandbox.demo.key_id, { display_name: SHOP_NAME })
    // The partner console has a business to show: orders in every state, settlements, referrals, brokerage.
    .then(() => (options.seedHistory === false ? false : seedConsoleHistory(admin, sandbox.demo.key_id)))
    .catch(async (error: unknown) => {
      await sandbox.close();
      throw error;
    });
  const partner = express();
  partner.disable('x-powered-by');
  // The pages and the widget compressed (brotli when the browser takes it, else gzip), at their best ratio;
  // the BFF's answers are left as the BFF sends them.
  const compress = compression({ level: 9, brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } } });
  partner.use((req, res, next) => (req.path.startsWith('/dk/') ? next() : compress(req, res, next)));
  const version = widgetVersion();
  partner.use(
    `/widget/${version}`,
    express.static(widgetDist, {
      index: false,
      cacheControl: false,
      setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
    }),
  );
  // The unversioned path (what the static example page names) is revalidated on every use.
  partner.use(
    '/widget',
    express.static(widgetDist, {
      index: false,
      cacheControl: false,
      setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
    }),
  );
  // The demo shop has no icon: said with 204, so the browser asks no more and logs no failed load on every page.
  partner.get('/favicon.ico', (_req, res) => res.status(204).end());
  partner.use('/spa', express.static(spaDist));
  // The partner console (@domainkit/console): its page and its browser bundle, revalidated on every use.
  partner.get(['/console', '/console/', '/console/index.html'], (req, res) => {
    if (!req.path.endsWith('/') && !req.path.endsWith('.html')) return res.redirect(301, '/console/');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(consolePage, 'index.html'));
  });
  partner.use(
    '/console',
    express.static(consoleDist, {
      index: false,
      cacheControl: false,
      setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
    }),
  );
  // The buyer's order page the shop links from its confirmation e-mail: /order/#order=<id>&token=<order token>.
  partner.get(['/order', '/order/', '/order/index.html'], (req, res) => {
    if (!req.path.endsWith('/') && !req.path.endsWith('.html')) return res.redirect(301, '/order/');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(orderPage, 'index.html'));
  });
  partner.get(['/', '/index.html'], (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(examplePageHtml(version));
  });
  partner.use(express.static(examplePage));
  // The BFF is mounted once the server listens: it registers its own webhook URL, which needs the port.
  let bff: BffRouter | undefined;
  partner.use('/dk', (req, res, next) =>
    bff
      ? bff(req, res, next)
      : res.status(503).json({ error: { code: 'busy', message: 'Starting; retry in a moment.', retry_after: 1 } }),
  );
  const server = createServer(partner);
  let url: string;
  try {
    url = await listen(server, options.port ?? 8080, host);
    bff = createBff({
      marketplace: { baseUrl: sandbox.url, keyId: sandbox.demo.key_id, secret: sandbox.demo.secret },
      database: { dataDir: resolve(dataDir, 'bff') },
      payments: testCardPayments(),
      webhook: { secret: sandbox.demo.webhook_secret, publicUrl: `${url}/dk/webhooks` },
      // Back to the partner page from the hosted checkout: after paying (with the signed result
      // <dk-checkout-return> asks the BFF to verify), or after cancelling.
      returnUrl: `${url}/`,
      cancelUrl: `${url}/`,
      // Visitors may ask the marketplace's brokers for a name that is not listed here (tier managed, from 100 USD).
      brokerage: true,
      // The partner console at /console/: the demo has no sign-in of its own, so whoever opens it is the demo
      // partner. A real shop's hook checks its own admin session (docs/console-api.md).
      console: { authorize: () => ({ actor: 'demo-partner' }) },
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      // Agents shop here too: MCP at /dk/mcp, described at /dk/llms.txt.
      // The brokerage consent page sends a person to this page for a name that is listed for sale here.
      mcp: { shopName: SHOP_NAME, shopUrl: `${url}/`, ...options.mcp },
      ...(options.onCheckoutCompleted && { onCheckoutCompleted: options.onCheckoutCompleted }),
      logger: logger === false ? false : logger.child({ service: 'bff' }),
      ...(options.bffClock ? { now: options.bffClock } : {}),
    });
    await bff.ready;
  } catch (error) {
    server.closeAllConnections();
    server.close();
    await bff?.close();
    await sandbox.close();
    throw error;
  }
  return {
    url: `${url}/`,
    consoleUrl: `${url}/console/`,
    sandboxUrl: sandbox.url,
    credential: sandbox.demo,
    idle: async () => bff?.idle(),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await bff?.close();
      await sandbox.close();
    },
  };
}
