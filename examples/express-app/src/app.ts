/**
 * "Acme Domains", a partner's existing Express app, with the domainkit BFF mounted under `/shop/api`.
 *
 * The app keeps its own routes, JSON parser and error pages; the BFF adds only its fixed routes under the mount
 * path (search, checkout, MoR quotes and orders, webhooks) and holds the Partner API secret. When the marketplace
 * reports `order.settled`, the app logs it and lists the domain on its own home page.
 */
import express, { type Express } from 'express';
import { pino, type Logger } from 'pino';
import {
  createBff,
  type BffDatabase,
  type BffDatabaseOptions,
  type BffRouter,
  type MarketplaceOptions,
  type PaymentAdapter,
} from '@domainkit/bff';

/** Where the BFF is mounted in this app. */
export const BFF_MOUNT_PATH = '/shop/api';

/** A sale the app learned of through `order.settled`. */
export interface SettledSale {
  readonly orderId: string;
  readonly domain: string;
  readonly salePriceCents: number;
  readonly currency: string;
  readonly settledAt: string;
}

/** Options of {@link createShopApp}. */
export interface ShopOptions {
  /** The Partner API credential (from the environment, never from code). */
  readonly marketplace: MarketplaceOptions;
  /** The webhook signing secret; with `publicUrl`, the BFF registers its webhook at start. */
  readonly webhook: { readonly secret: string; readonly publicUrl?: string | undefined };
  /**
   * Your payment provider's adapter; enables the MoR routes (quotes and orders). None by default: without it the
   * shop sells through the hosted checkout only. `testCardPayments()` is for a SANDBOX credential (start.ts uses
   * it with the local sandbox); the BFF refuses it with a LIVE one.
   */
  readonly payments?: PaymentAdapter | undefined;
  /** Where the BFF keeps its state; default embedded PGlite in `.data/bff`. */
  readonly database?: BffDatabase | BffDatabaseOptions | undefined;
  /** Origins allowed to call the BFF from a browser (a widget served elsewhere). */
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly logger?: Logger | undefined;
}

/** The app, the mounted BFF, and the app's own record of settled sales. */
export interface ShopApp {
  readonly app: Express;
  readonly bff: BffRouter;
  readonly settled: SettledSale[];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}

/** Builds the app. Call `shop.bff.close()` when the server stops. */
export function createShopApp(options: ShopOptions): ShopApp {
  const logger = options.logger ?? pino({ name: 'acme-domains' });
  const settled: SettledSale[] = [];
  const app = express();
  app.disable('x-powered-by');

  // 1. The BFF first: its webhook route must read the raw bytes before any JSON parser touches them.
  const bff = createBff({
    marketplace: options.marketplace,
    payments: options.payments,
    webhook: options.webhook,
    database: options.database,
    allowedOrigins: options.allowedOrigins,
    logger: logger.child({ module: 'domainkit' }),
    onEvent: {
      // Runs once per event, after the BFF stored it and applied it to the order (even if delivered twice).
      'order.settled': (event, context) => {
        const order = event.data.order;
        if (order === undefined) return;
        settled.push({
          orderId: order.public_id,
          domain: order.domain,
          salePriceCents: order.sale_price_cents,
          currency: order.currency,
          settledAt: event.created_at,
        });
        logger.info(
          { order: order.public_id, domain: order.domain, firstDelivery: context.applied },
          'order settled: the domain is paid out',
        );
      },
    },
  });
  app.use(BFF_MOUNT_PATH, bff);

  // 2. The app's own routes, with their own JSON parser, untouched by the BFF.
  app.get('/', (_req, res) => {
    const rows = settled
      .map(
        (s) =>
          `<li><strong>${escapeHtml(s.domain)}</strong>: ${escapeHtml(money(s.salePriceCents, s.currency))} (order ${escapeHtml(s.orderId)})</li>`,
      )
      .join('');
    res
      .type('html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Domains</title></head><body><h1>Acme Domains</h1>` +
          `<p>Search and buy through <code>${BFF_MOUNT_PATH}</code>.</p><h2>Settled sales</h2>${rows ? `<ul>${rows}</ul>` : '<p>None yet.</p>'}</body></html>`,
      );
  });
  app.get('/sales/settled.json', (_req, res) => {
    res.json({ settled });
  });
  app.post('/newsletter', express.json(), (req, res) => {
    const email = typeof req.body?.email === 'string' ? req.body.email : undefined;
    if (!email) return void res.status(400).json({ error: 'email is required' });
    res.status(201).json({ subscribed: true });
  });
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Acme Domains: page not found');
  });
  return { app, bff, settled };
}
