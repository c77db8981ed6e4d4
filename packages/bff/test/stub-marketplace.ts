/**
 * A stub marketplace for the BFF tests: a small Express app on 127.0.0.1:0 that checks every request's signature
 * with the protocol's verifier (as the real service would) and implements just enough of the Partner API to drive
 * the BFF: discovery, checkout sessions, quotes, orders with Idempotency-Key replay and conflicts, the event
 * history (`GET /events?after_id=`), webhook registration and signed webhook deliveries.
 *
 * Tests queue exact answers per route (`enqueue`), hold a request without answering (`hold`), and move orders
 * through their lifecycle (`advance`), which emits events and delivers them to the registered webhook.
 *
 * It also serves the Public API's `POST /api/domain/search` (Public API spec 4.2, unsigned, route `public-search`) for an
 * anonymous caller: siblings under {@link PUBLIC_TLDS}, listing prices masked.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtocolError, readSignatureHeaders, signWebhookPayload, verifySignature } from '@domainkit/protocol';
import express from 'express';

export const KEY_ID = 'pk_test_bff0001';
export const SECRET = 'sk_test_BffS3cretNeverInTheBrowser42';
/**
 * A LIVE credential the stub knows too (spec 1 "Environments": one base URL, the credential selects the inventory):
 * it answers from {@link LIVE_INVENTORY}, never the SANDBOX one.
 */
export const LIVE_KEY_ID = 'pk_live_bff0001';
export const LIVE_SECRET = 'sk_live_BffLiveS3cretNeverInTheBrowser7';

/** The stub's inventory (with extra fields the BFF must not pass on). */
const INVENTORY = [
  {
    domain: 'coffeehouse.com',
    tld: 'com',
    available: true,
    price_cents: 250000,
    currency: 'USD',
    score: 0.91,
    words: ['coffee', 'house'],
    status: 'listed',
  },
  {
    domain: 'coffeeshop.io',
    tld: 'io',
    available: true,
    price_cents: 120000,
    currency: 'USD',
    score: 0.88,
    words: ['coffee', 'shop'],
    status: 'listed',
  },
  {
    domain: 'coffee.net',
    tld: 'net',
    available: false,
    price_cents: 990000,
    currency: 'USD',
    score: 0.8,
    words: ['coffee'],
    status: 'sold',
  },
];

/** The LIVE credential's inventory: real names and prices, none of the SANDBOX test domains but one name in both. */
const LIVE_INVENTORY: typeof INVENTORY = [
  {
    domain: 'coffeehouse.com',
    tld: 'com',
    available: true,
    price_cents: 410000,
    currency: 'USD',
    score: 0.9,
    words: ['coffee', 'house'],
    status: 'listed',
  },
  {
    domain: 'espressobar.com',
    tld: 'com',
    available: true,
    price_cents: 180000,
    currency: 'USD',
    score: 0.85,
    words: ['espresso', 'bar'],
    status: 'listed',
  },
];

/** Each credential the stub accepts: its secret and the inventory it answers from (each stub reprices its own copy). */
const CREDENTIALS = new Map([
  [KEY_ID, { secret: SECRET, inventory: INVENTORY }],
  [LIVE_KEY_ID, { secret: LIVE_SECRET, inventory: LIVE_INVENTORY }],
]);

/** The inventory of the credential a verified request was signed with. */
function inventoryOf(res: express.Response): typeof INVENTORY {
  return res.locals.inventory as typeof INVENTORY;
}

/**
 * The Public API's TLDs in the stub, most popular first, with how a label stands under each: `registered`, a
 * marketplace listing (`for_sale`, price masked for anonymous callers), or `available` at the registry price
 * (cents, for `period_years`).
 */
export const PUBLIC_TLDS: ReadonlyArray<{
  tld: string;
  standing: 'registered' | 'for_sale' | 'available';
  cents?: number;
  years?: number;
}> = [
  { tld: 'com', standing: 'registered' },
  { tld: 'net', standing: 'for_sale' },
  { tld: 'org', standing: 'available', cents: 1099, years: 1 },
  { tld: 'io', standing: 'available', cents: 3900, years: 1 },
  { tld: 'co', standing: 'registered' },
  { tld: 'ai', standing: 'available', cents: 16000, years: 2 },
  { tld: 'dev', standing: 'for_sale' },
  { tld: 'app', standing: 'available', cents: 1400, years: 1 },
  { tld: 'xyz', standing: 'available', cents: 200, years: 1 },
  { tld: 'shop', standing: 'available', cents: 2900, years: 1 },
  { tld: 'store', standing: 'available', cents: 4900, years: 1 },
  { tld: 'cafe', standing: 'available', cents: 3100, years: 1 },
  { tld: 'club', standing: 'available', cents: 1500, years: 1 },
];

/** Routes the stub knows, for `calls`, `enqueue` and `hold`. */
export type StubRoute =
  | 'search'
  | 'domain'
  | 'checkout'
  | 'quote'
  | 'order'
  | 'refund'
  | 'order-get'
  | 'orders-list'
  | 'events'
  | 'webhook-register'
  | 'brokerage-eligibility'
  | 'brokerage-create'
  | 'public-search'
  | 'public-whois';

/** An answer the stub gives instead of its default; a function may wait before answering. */
export type StubAnswer =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | (() => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>);

/** A request the stub accepted (its signature verified). */
export interface StubCall {
  readonly route: StubRoute;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** An order the stub recorded. */
export interface StubOrder {
  public_id: string;
  domain: string;
  status: string;
  sale_price_cents: number;
  currency: string;
  quote_id: string | null;
  external_payment_ref: string | null;
  idempotency_key: string;
  created_at: string;
}

/** An event the stub emitted. */
export interface StubEvent {
  id: string;
  type: string;
  created_at: string;
  partner_id: string;
  data: { order: { public_id: string; domain: string; status: string; sale_price_cents: number; currency: string } };
}

/** One webhook delivery attempt. */
export interface StubDelivery {
  readonly eventId: string;
  readonly status: number | 'error';
}

export interface StubMarketplace {
  readonly url: string;
  readonly calls: StubCall[];
  /** Requests refused for their signature, with the code. */
  readonly rejected: string[];
  readonly orders: Map<string, StubOrder>;
  readonly events: StubEvent[];
  readonly deliveries: StubDelivery[];
  /** The registered webhook, if any. */
  webhook: { url: string; secret: string } | undefined;
  /** Deliver each new event to the registered webhook at once (default true). */
  autoDeliver: boolean;
  callsTo(route: StubRoute): StubCall[];
  /** Queues answers for the next calls to `route`, used in order before the default. */
  enqueue(route: StubRoute, ...answers: StubAnswer[]): void;
  /**
   * Holds the next call to `route` without ever answering it; `commit` decides whether its effect happens first
   * (an order recorded whose answer is lost) or not. Resolves when the call arrives.
   */
  hold(route: StubRoute, commit: boolean): Promise<StubCall>;
  /**
   * Changes the buy-now price of a listed domain of the SANDBOX inventory (no event: the marketplace sends none for
   * a reprice); every later search, detail, quote and checkout session of this stub answers it.
   */
  reprice(domain: string, priceCents: number): void;
  /** Moves an order to a status and emits the event (delivered if a webhook is registered and autoDeliver). */
  advance(orderId: string, type: string, status: string): StubEvent;
  /** Posts one event to the registered webhook, signed; answers the HTTP status. */
  deliver(event: StubEvent, options?: { secret?: string; body?: string }): Promise<number>;
  /** Resolves when every delivery started so far has finished. */
  deliveriesSettled(): Promise<void>;
  close(): Promise<void>;
}

function errorBody(code: string, message: string) {
  return { error: { code, message, request_id: 'req_stub0001' } };
}

/**
 * Starts the stub marketplace on 127.0.0.1:0.
 * @param options.undeclaredFields - send `score`, a field the Partner API's OpenAPI document does not declare, with
 *   every domain (default true: the BFF must neither choke on nor pass on fields a marketplace adds later). The
 *   Partner API contract turns it off: it checks that every field the stub sends is declared.
 */
export async function startStubMarketplace(options: { undeclaredFields?: boolean } = {}): Promise<StubMarketplace> {
  const undeclared = options.undeclaredFields ?? true;
  const declaredOnly = <T extends { score: number }>({ score: _score, ...rest }: T) => rest;
  const calls: StubCall[] = [];
  const rejected: string[] = [];
  const queues = new Map<StubRoute, StubAnswer[]>();
  const holds = new Map<StubRoute, Array<{ commit: boolean; arrived: (call: StubCall) => void }>>();
  const quotes = new Map<string, { domain: string; price_cents: number; currency: string; expires_at: number }>();
  const orders = new Map<string, StubOrder>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const events: StubEvent[] = [];
  const deliveries: StubDelivery[] = [];
  const inFlightDeliveries = new Set<Promise<unknown>>();
  // Automatic deliveries go out one at a time, in the order the events were emitted, as the sandbox's outbox sends
  // them; tests of out-of-order arrival deliver by hand.
  let deliveryChain: Promise<unknown> = Promise.resolve();
  const heldResponses = new Set<express.Response>();
  let eventClock = Date.UTC(2030, 0, 1);
  // This stub's own copy of each credential's inventory, so a reprice stays within it.
  const inventories = new Map(
    [...CREDENTIALS].map(([keyId, c]) => [keyId, { secret: c.secret, inventory: c.inventory.map((d) => ({ ...d })) }]),
  );

  const app = express();
  app.disable('x-powered-by');
  app.use(express.raw({ type: () => true }));

  const stub: StubMarketplace = {
    url: '',
    calls,
    rejected,
    orders,
    events,
    deliveries,
    webhook: undefined,
    autoDeliver: true,
    callsTo: (route) => calls.filter((c) => c.route === route),
    reprice(domain, priceCents) {
      const listed = inventories.get(KEY_ID)!.inventory.find((d) => d.domain === domain);
      if (listed === undefined) throw new Error(`stub: ${domain} is not listed`);
      listed.price_cents = priceCents;
    },
    enqueue(route, ...answers) {
      queues.set(route, [...(queues.get(route) ?? []), ...answers]);
    },
    hold(route, commit) {
      return new Promise<StubCall>((arrived) => holds.set(route, [...(holds.get(route) ?? []), { commit, arrived }]));
    },
    advance(orderId, type, status) {
      const order = orders.get(orderId);
      if (order === undefined) throw new Error(`stub: no order ${orderId}`);
      order.status = status;
      return emit(order, type);
    },
    async deliver(event, options = {}) {
      const target = stub.webhook;
      if (target === undefined) throw new Error('stub: no webhook registered');
      const body = options.body ?? JSON.stringify(event);
      let status: number | 'error';
      try {
        const res = await fetch(target.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-service-signature': await signWebhookPayload(options.secret ?? target.secret, body),
          },
          body,
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 'error';
      }
      deliveries.push({ eventId: event.id, status });
      return status === 'error' ? 0 : status;
    },
    async deliveriesSettled() {
      while (inFlightDeliveries.size > 0) await Promise.allSettled([...inFlightDeliveries]);
    },
    close: async () => {
      await stub.deliveriesSettled();
      for (const res of heldResponses) res.destroy();
      await new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      });
    },
  };

  function emit(order: StubOrder, type: string): StubEvent {
    eventClock += 1000;
    const event: StubEvent = {
      id: `evt_${String(events.length + 1).padStart(5, '0')}`,
      type,
      created_at: new Date(eventClock).toISOString(),
      partner_id: 'prt_stub',
      data: {
        order: {
          public_id: order.public_id,
          domain: order.domain,
          status: order.status,
          sale_price_cents: order.sale_price_cents,
          currency: order.currency,
        },
      },
    };
    events.push(event);
    if (stub.autoDeliver && stub.webhook !== undefined) {
      const p = deliveryChain.then(() => stub.deliver(event)).finally(() => inFlightDeliveries.delete(p));
      deliveryChain = p;
      inFlightDeliveries.add(p);
    }
    return event;
  }

  /** Records a call to `route` (checking its signature unless `signed` is false), then holds, queues or goes on. */
  const verify =
    (route: StubRoute, signed = true): express.RequestHandler =>
    async (req, res, next) => {
      const [path = '', query = ''] = req.originalUrl.split('?', 2) as [string, string?];
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        if (signed) {
          const signature = readSignatureHeaders(req.headers);
          const credential = inventories.get(signature.keyId);
          if (credential === undefined) throw new ProtocolError('invalid_signature', 'Unknown key id.');
          await verifySignature({ key: credential.secret, method: req.method, path, query, body, ...signature });
          res.locals.inventory = credential.inventory;
        }
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        rejected.push(error.code);
        res.status(error.status).set('x-request-id', 'req_stub0001').json(errorBody(error.code, error.message));
        return;
      }
      const call: StubCall = {
        route,
        method: req.method,
        path,
        query,
        headers: req.headers,
        body: body.toString('utf8'),
      };
      calls.push(call);
      const held = holds.get(route)?.shift();
      if (held !== undefined) {
        heldResponses.add(res);
        if (held.commit) res.locals.holdAfterCommit = () => held.arrived(call);
        else {
          held.arrived(call);
          return; // never answered, nothing done
        }
        next();
        return;
      }
      const queued = queues.get(route)?.shift();
      if (queued === undefined) {
        next();
        return;
      }
      void (typeof queued === 'function' ? queued() : Promise.resolve(queued)).then((answer) => {
        res
          .status(answer.status)
          .set(answer.headers ?? {})
          .json(answer.body);
      });
    };

  /** Answers, or (for a held call that commits) stays silent after the effect. */
  const answer = (res: express.Response, status: number, body: unknown) => {
    const held = res.locals.holdAfterCommit as (() => void) | undefined;
    if (held !== undefined) {
      held();
      return;
    }
    res.status(status).json(body);
  };

  const json = (req: express.Request): Record<string, unknown> =>
    JSON.parse(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '{}') as Record<string, unknown>;

  app.get('/api/partner/v1/domains/search', verify('search'), (req, res) => {
    const q = String(req.query.q ?? '').toLowerCase();
    const domains = inventoryOf(res)
      .filter((d) => q.split(' ').some((word) => d.domain.includes(word)))
      .slice(0, 5);
    res.json({
      domains: domains.map(({ words: _w, status: _s, ...d }) => (undeclared ? d : declaredOnly(d))),
      next_cursor: null,
    });
  });
  app.get('/api/partner/v1/domains/:name', verify('domain'), (req, res) => {
    const found = inventoryOf(res).find((d) => d.domain === req.params.name);
    if (!found) {
      res.status(404).json(errorBody('not_found', `${req.params.name} is not listed`));
      return;
    }
    res.json({ ...(undeclared ? found : declaredOnly(found)), listed_at: '2025-01-02T03:04:05Z' });
  });
  app.post('/api/partner/v1/checkout-session', verify('checkout'), (req, res) => {
    const { domain } = json(req) as { domain: string };
    const listed = inventoryOf(res).find((d) => d.domain === domain);
    res.status(201).json({
      checkout_url: `http://127.0.0.1/checkout?pt=tok_${domain}`,
      domain,
      price_cents: listed?.price_cents ?? 250000,
      currency: 'USD',
      expires_at: '2030-01-08T00:00:00Z',
    });
  });
  // Brokerage (Partner API spec 4.1): `live-site.com` runs a live site; a listed name or one with a case is not eligible.
  const brokered = new Set<string>();
  const eligibility = (res: express.Response, domain: string) =>
    inventoryOf(res).some((d) => d.domain === domain)
      ? { domain, eligible: false, reason: 'listed', message: `${domain} is listed` }
      : domain === 'live-site.com'
        ? { domain, eligible: false, reason: 'live_site', message: `${domain} runs a live site` }
        : brokered.has(domain)
          ? { domain, eligible: false, reason: 'open_case', message: `${domain} is in a case` }
          : { domain, eligible: true, reason: null, message: `${domain} can be brokered` };
  app.get('/api/partner/v1/brokerage/eligibility', verify('brokerage-eligibility'), (req, res) => {
    res.json(eligibility(res, String(req.query.domain)));
  });
  app.post('/api/partner/v1/brokerage', verify('brokerage-create'), (req, res) => {
    const body = json(req) as { domain: string; tier: string; buyer_email: string; budget: number };
    if (!eligibility(res, body.domain).eligible)
      return void answer(res, 409, errorBody('conflict', `${body.domain} is not eligible`));
    brokered.add(body.domain);
    const case_id = `brk_${brokered.size}`;
    answer(res, 201, {
      case_id,
      domain: body.domain,
      tier: body.tier,
      status: 'OPEN',
      budget_cents: body.budget,
      currency: 'USD',
      buyer_email: body.buyer_email,
      progress_url: `http://127.0.0.1/brokerage/progress?t=tok_${case_id}`,
      created_at: '2025-01-02T03:04:05.000Z',
      timeline: [{ status: 'OPEN', at: '2025-01-02T03:04:05.000Z', note: null }],
    });
  });
  app.post('/api/partner/v1/quotes', verify('quote'), (req, res) => {
    const { domain } = json(req) as { domain: string };
    const listed = inventoryOf(res).find((d) => d.domain === domain);
    if (!listed) return void answer(res, 404, errorBody('not_found', `${domain} is not listed`));
    if (!listed.available || [...orders.values()].some((o) => o.domain === domain))
      return void answer(res, 409, errorBody('conflict', `${domain} is sold`));
    const quote_id = `qt_${quotes.size + 1}.sig`;
    const expires = Date.now() + 600_000;
    quotes.set(quote_id, { domain, price_cents: listed.price_cents, currency: listed.currency, expires_at: expires });
    answer(res, 201, {
      quote_id,
      domain,
      price_cents: listed.price_cents,
      currency: listed.currency,
      expires_at: new Date(expires).toISOString(),
    });
  });
  app.post('/api/partner/v1/refunds', verify('refund'), (req, res) => {
    const { order_id, reason } = json(req) as { order_id: string; reason?: string };
    const order = orders.get(order_id);
    if (!order) return void answer(res, 404, errorBody('not_found', `No order ${order_id}`));
    order.status = 'REFUNDED';
    emit(order, 'order.refunded');
    answer(res, 201, {
      refund_id: `re_${order_id}`,
      order_id,
      amount_cents: order.sale_price_cents,
      currency: order.currency,
      status: 'REFUNDED',
      reason: reason ?? null,
      created_at: new Date().toISOString(),
    });
  });
  app.post('/api/partner/v1/orders', verify('order'), (req, res) => {
    const key = req.get('idempotency-key');
    if (!key) return void answer(res, 400, errorBody('missing_idempotency_key', 'Idempotency-Key is required'));
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const fingerprint = createHash('sha256').update(raw).digest('hex');
    const stored = idempotency.get(key);
    if (stored !== undefined) {
      if (stored.fingerprint !== fingerprint)
        return void answer(res, 409, errorBody('conflict', 'Idempotency-Key reused with a different body'));
      return void answer(res, stored.status, stored.body);
    }
    const body = json(req) as {
      domain: string;
      quote_id?: string;
      expected_price?: number;
      currency?: string;
      external_payment_ref?: string;
    };
    const quote = body.quote_id === undefined ? undefined : quotes.get(body.quote_id);
    let status = 201;
    let out: unknown;
    if (body.quote_id !== undefined && quote === undefined)
      [status, out] = [422, errorBody('quote_expired', 'Unknown or expired quote')];
    else if (quote !== undefined && quote.expires_at < Date.now())
      [status, out] = [422, errorBody('quote_expired', 'The quote expired')];
    else if (quote !== undefined && body.expected_price !== undefined && body.expected_price !== quote.price_cents)
      [status, out] = [422, errorBody('price_mismatch', 'The price changed')];
    else if ([...orders.values()].some((o) => o.domain === body.domain))
      [status, out] = [409, errorBody('conflict', `${body.domain} is sold`)];
    else {
      const order: StubOrder = {
        public_id: `ord_${String(orders.size + 1).padStart(4, '0')}`,
        domain: body.domain,
        status: 'EXTERNALLY_PAID',
        sale_price_cents: quote?.price_cents ?? body.expected_price ?? 0,
        currency: quote?.currency ?? body.currency ?? 'USD',
        quote_id: body.quote_id ?? null,
        external_payment_ref: body.external_payment_ref ?? null,
        idempotency_key: key,
        created_at: new Date().toISOString(),
      };
      orders.set(order.public_id, order);
      const { idempotency_key: _k, ...wire } = order;
      out = wire;
      emit(order, 'order.recorded');
    }
    // A request refused before it runs stores nothing; a processed one (success or business refusal) is replayable.
    idempotency.set(key, { fingerprint, status, body: out });
    answer(res, status, out);
  });
  app.get('/api/partner/v1/orders', verify('orders-list'), (_req, res) => {
    // Newest first, one page (the BFF's readiness probe reads it to prove the `buy` scope).
    const wire = [...orders.values()].reverse().map(({ idempotency_key: _k, ...order }) => order);
    res.json({ orders: wire, next_cursor: null });
  });
  app.get('/api/partner/v1/orders/:id', verify('order-get'), (req, res) => {
    const order = orders.get(String(req.params.id));
    if (!order) return void res.status(404).json(errorBody('not_found', 'No such order'));
    const { idempotency_key: _k, ...wire } = order;
    res.json(wire);
  });
  app.get('/api/partner/v1/events', verify('events'), (req, res) => {
    const after = typeof req.query.after_id === 'string' ? req.query.after_id : undefined;
    const limit = Number(req.query.limit ?? 50);
    const start = after === undefined ? 0 : events.findIndex((e) => e.id === after) + 1;
    const page = events.slice(start, start + limit);
    const more = start + limit < events.length;
    res.json({ events: page, next_cursor: more ? (page.at(-1)?.id ?? null) : null });
  });
  app.put('/api/partner/webhooks', verify('webhook-register'), (req, res) => {
    const { url, secret } = json(req) as { url: string; secret: string };
    stub.webhook = { url, secret };
    res.json({ url, active: true, created_at: new Date().toISOString() });
  });

  // The Public API (unsigned): a label or a domain under a PUBLIC_TLDS TLD, as an anonymous caller sees it.
  app.post('/api/domain/search', verify('public-search', false), (req, res) => {
    const q = String(json(req).q ?? '')
      .trim()
      .toLowerCase();
    const [label = '', tld] = q.split('.', 2);
    if (
      !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) ||
      (tld !== undefined && !PUBLIC_TLDS.some((t) => t.tld === tld))
    ) {
      res
        .status(400)
        .json(errorBody('validation_error', 'q must be a label such as "coffee" or a domain such as "coffee.io"'));
      return;
    }
    const result = (t: (typeof PUBLIC_TLDS)[number]) => ({
      domain: `${label}.${t.tld}`,
      tld: t.tld,
      status: t.standing,
      available: t.standing !== 'registered',
      registration:
        t.standing === 'available' ? { price_cents: t.cents, currency: 'USD', period_years: t.years } : null,
      listing: t.standing === 'for_sale' ? { price_cents: null, currency: 'USD', price_masked: true } : null,
    });
    const exact = PUBLIC_TLDS.find((t) => t.tld === tld);
    res.json({
      query: q,
      label,
      domain: exact ? result(exact) : null,
      siblings: PUBLIC_TLDS.filter((t) => t !== exact).map(result),
      prices_masked: true,
    });
  });

  // The Public API's WHOIS (unsigned): `coffee.com` is held by a fictional registrar, anything else is unregistered.
  app.post('/api/tools/whois', verify('public-whois', false), (req, res) => {
    const domain = String(json(req).domain ?? '');
    const held = domain === 'coffee.com';
    res.json({
      domain,
      registered: held,
      status: held ? ['active'] : [],
      registrar: held ? { name: 'Harborline Registrar, LLC', iana_id: 9101, url: 'https://harborline.example' } : null,
      registrant: held ? { name: 'REDACTED FOR PRIVACY', organization: null, country: 'US' } : null,
      dates: held
        ? {
            registered: '2004-03-17T09:30:00.000Z',
            updated: '2024-01-01T00:00:00.000Z',
            expires: '2031-03-17T09:30:00.000Z',
          }
        : { registered: null, updated: null, expires: null },
      nameservers: held ? ['ns1.harborline.example'] : [],
      dnssec: false,
      source: 'sandbox',
    });
  });

  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  (stub as { url: string }).url = `http://127.0.0.1:${port}`;
  return stub;
}
