/**
 * The marketplace's public pages that partners' buyers see (no login, no script; the app's CSP applies):
 *
 * - `GET /r/{code}`: a tracked referral link (Partner API spec 2.7). Records a click, sets the cookie `dk_ref={code}` (30 days)
 *   and redirects (302) to the storefront: `/market/{domain}?ref={code}` for a domain link, `/market?ref={code}`
 *   otherwise (`&product=` for a product link). An unknown code answers a 404 page.
 * - `GET /market?q=&ref=`: the storefront: a search form and up to 5 listed domains.
 * - `GET /market/{domain}?ref=`: one domain with its price and a "Buy now" button (`data-testid="market-buy"`).
 * - `POST /market/buy` (form: `domain`, `ref`): opens a checkout session attributed to the referral link (the `ref`
 *   field or the `dk_ref` cookie) and redirects (303) to the hosted lander; paying there records a sale attributed
 *   to the link. Without a referral link: 400 page.
 * - `GET /brokerage/progress?t={token}`: a brokerage case's no-login progress page for the buyer (Partner API spec 2.6):
 *   domain, status (`data-testid="case-status"`), steps and timeline. The token rides in the query, which the access
 *   log never records (as the lander's `pt`).
 */
import type { KeyObject } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { caseTimeline } from '../brokerage/cases.ts';
import { createCheckoutSession } from '../checkout/sessions.ts';
import { signCheckoutToken } from '../checkout/token.ts';
import { escapeHtml, formatMoney, page } from '../checkout/views.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import type { Environment } from '../scopes.ts';
import type { ReferralLinkRow, SandboxDb } from '../db/tables.ts';
import { formProblem, logDefect } from '../http/errors.ts';
import { classifyClientFault, refuseBodyOverLimit, rejectUnsafeText } from '../http/hardening.ts';
import { requestState } from '../http/request-context.ts';
import { findDomain, searchDomains } from '../inventory/catalog.ts';
import { reservationConflict } from '../quotes/reservations.ts';
import { recordClicks } from '../referral/links.ts';

/** What the pages need. */
export interface SitePagesOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Signs lander `pt` tokens. */
  readonly tokenKey: KeyObject;
}

const REF_COOKIE = 'dk_ref';
const CODE_RE = /^[0-9A-Za-z]{6,40}$/;

function send(res: Response, status: number, html: string): void {
  res.status(status).setHeader('Cache-Control', 'no-store').type('html').send(html);
}

/** The app's mount path (the router is mounted at the app's root). */
function rootOf(req: Request): string {
  return req.baseUrl;
}

function ctx(req: Request) {
  return { base: `${rootOf(req)}/checkout` };
}

function cookieRef(req: Request): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === REF_COOKIE && value !== undefined && CODE_RE.test(value)) return value;
  }
  return undefined;
}

async function linkByCode(db: SandboxDb, code: unknown): Promise<ReferralLinkRow | undefined> {
  if (typeof code !== 'string' || !CODE_RE.test(code)) return undefined;
  return db.selectFrom('referral_links').selectAll().where('code', '=', code).executeTakeFirst();
}

function notFound(req: Request, res: Response, title: string, message: string): void {
  send(
    res,
    404,
    page(
      ctx(req),
      title,
      `<h1 data-testid="page-error">${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`,
      'Marketplace',
    ),
  );
}

function refQuery(ref: string | undefined): string {
  return ref === undefined ? '' : `?ref=${encodeURIComponent(ref)}`;
}

const STEPS = [
  ['OPEN', 'Case opened'],
  ['CONTACTING_OWNER', 'Contacting the owner'],
  ['NEGOTIATING', 'Negotiating'],
  ['CLOSED', 'Closed'],
] as const;

const STATUS_LABELS: Record<string, string> = {
  OPEN: 'Case opened',
  CONTACTING_OWNER: 'Contacting the owner',
  NEGOTIATING: 'Negotiating with the owner',
  CLOSED_DEAL: 'Deal closed',
  CLOSED_NO_DEAL: 'Closed without a deal',
};

/** Builds the pages router (mount it at the app's root). */
export function sitePagesRouter(options: SitePagesOptions): Router {
  const { db, clock, logger } = options;
  const router = express.Router();

  router.get('/r/:code', async (req, res) => {
    const link = await linkByCode(db, req.params.code);
    if (link === undefined)
      return notFound(req, res, 'Link not found', 'This referral link does not exist (any more).');
    await recordClicks(db, link.link_id, 1, new Date(clock()));
    const ref = encodeURIComponent(link.code);
    const target =
      link.kind === 'domain' && link.domain !== null
        ? `${rootOf(req)}/market/${encodeURIComponent(link.domain)}?ref=${ref}`
        : `${rootOf(req)}/market?ref=${ref}${link.kind === 'product' && link.product !== null ? `&product=${encodeURIComponent(link.product)}` : ''}`;
    res.cookie(REF_COOKIE, link.code, { maxAge: 30 * 24 * 3600 * 1000, httpOnly: true, sameSite: 'lax', path: '/' });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, target);
  });

  async function environmentOf(
    ref: string | undefined,
  ): Promise<{ environment: Environment; link: ReferralLinkRow | undefined }> {
    const link = await linkByCode(db, ref);
    return { environment: link?.environment ?? 'SANDBOX', link };
  }

  router.get('/market', async (req, res) => {
    const ref = typeof req.query.ref === 'string' ? req.query.ref : cookieRef(req);
    const q = typeof req.query.q === 'string' ? req.query.q.slice(0, 100) : '';
    const product = typeof req.query.product === 'string' ? req.query.product.slice(0, 100) : undefined;
    const { environment } = await environmentOf(ref);
    const rows =
      q.trim() !== ''
        ? await searchDomains(db, environment, q)
        : await db
            .selectFrom('domains')
            .selectAll()
            .where('environment', '=', environment)
            .where('status', '=', 'listed')
            .where('scenario', 'is', null)
            .orderBy('name')
            .limit(5)
            .execute();
    const items = rows
      .map(
        (d) =>
          `<li><a href="${escapeHtml(`${rootOf(req)}/market/${encodeURIComponent(d.name)}${refQuery(ref)}`)}" data-testid="market-result">${escapeHtml(d.name)}</a> ${escapeHtml(formatMoney(d.price_cents, d.currency))}</li>`,
      )
      .join('');
    const hidden = ref === undefined ? '' : `<input type="hidden" name="ref" value="${escapeHtml(ref)}">`;
    send(
      res,
      200,
      page(
        ctx(req),
        'Domains for sale',
        `<h1>Domains for sale</h1>${product ? `<p class="hint" data-testid="market-product">Recommended: ${escapeHtml(product)}</p>` : ''}
<form method="get" action="${escapeHtml(rootOf(req))}/market"><label for="q">Search<input id="q" name="q" value="${escapeHtml(q)}"></label>${hidden}<button type="submit">Search</button></form>
<ul>${items || '<li>No domain matches.</li>'}</ul>`,
        'Marketplace',
      ),
    );
  });

  router.get('/market/:domain', async (req, res) => {
    const ref = typeof req.query.ref === 'string' ? req.query.ref : cookieRef(req);
    const { environment } = await environmentOf(ref);
    const name = String(req.params.domain).toLowerCase().slice(0, 253);
    const domain = await findDomain(db, environment, name);
    if (domain === undefined)
      return notFound(req, res, 'Domain not found', `${name} is not listed on the marketplace.`);
    const action =
      domain.status === 'listed'
        ? `<form method="post" action="${escapeHtml(rootOf(req))}/market/buy"><input type="hidden" name="domain" value="${escapeHtml(domain.name)}">${ref ? `<input type="hidden" name="ref" value="${escapeHtml(ref)}">` : ''}<button type="submit" data-testid="market-buy">Buy now</button></form>`
        : '<p class="alert bad" data-testid="market-sold">This domain has been sold.</p>';
    send(
      res,
      200,
      page(
        ctx(req),
        `${domain.name} is for sale`,
        `<p class="eyebrow">For sale</p><h1 data-testid="market-domain">${escapeHtml(domain.name)}</h1><p class="price" data-testid="market-price">${escapeHtml(formatMoney(domain.price_cents, domain.currency))}</p>${action}`,
        'Marketplace',
      ),
    );
  });

  router.post(
    '/market/buy',
    refuseBodyOverLimit(express.urlencoded({ extended: false, limit: 4 * 1024, parameterLimit: 10 }), 4 * 1024),
    rejectUnsafeText('body'),
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const ref = typeof body.ref === 'string' ? body.ref : cookieRef(req);
      const link = await linkByCode(db, ref);
      const problem = (message: string, status = 400) =>
        send(
          res,
          status,
          page(
            ctx(req),
            'Cannot start checkout',
            `<h1 data-testid="page-error">Cannot start checkout</h1><p>${escapeHtml(message)}</p>`,
            'Marketplace',
          ),
        );
      if (link === undefined)
        return problem("This sandbox storefront sells through referral links: open a partner's tracked link first.");
      const name = typeof body.domain === 'string' ? body.domain.toLowerCase().slice(0, 253) : '';
      const domain = await findDomain(db, link.environment, name);
      if (domain === undefined) return problem(`${name || 'This domain'} is not listed on the marketplace.`, 404);
      const now = new Date(clock());
      if (domain.status !== 'listed' || (await reservationConflict(db, domain, link.key_id, now)) !== undefined)
        return problem(`${domain.name} is no longer available.`, 409);
      const credential = await db
        .selectFrom('credentials')
        .selectAll()
        .where('key_id', '=', link.key_id)
        .executeTakeFirstOrThrow();
      const session = await createCheckoutSession(db, { credential, domain, now, linkId: link.link_id });
      const token = signCheckoutToken(options.tokenKey, session.id, unixSeconds(session.expires_at.getTime()));
      logger.info(
        { req_id: requestState(res).requestId, link_id: link.link_id, checkout_session: session.id },
        'referral checkout started',
      );
      res.redirect(303, `${rootOf(req)}/checkout?pt=${token}`);
    },
  );

  router.get('/brokerage/progress', async (req, res) => {
    const token = typeof req.query.t === 'string' ? req.query.t : '';
    const row = /^[A-Za-z0-9_-]{20,64}$/.test(token)
      ? await db.selectFrom('brokerage_cases').selectAll().where('progress_token', '=', token).executeTakeFirst()
      : undefined;
    if (row === undefined)
      return notFound(
        req,
        res,
        'Case not found',
        'This progress link does not match a brokerage case. Use the link you were sent, unchanged.',
      );
    const timeline = await caseTimeline(db, row.case_id);
    const reached = (step: string) =>
      step === 'CLOSED' ? row.status.startsWith('CLOSED') : timeline.some((t) => t.status === step);
    const steps = STEPS.map(
      ([step, label]) =>
        `<li data-testid="case-step"${reached(step) ? ' class="done"' : ''}>${reached(step) ? '✓ ' : ''}${escapeHtml(label)}</li>`,
    ).join('');
    const events = timeline
      .map(
        (t) =>
          `<li><time datetime="${t.at.toISOString()}">${escapeHtml(t.at.toISOString().slice(0, 16).replace('T', ' '))} UTC</time>: ${escapeHtml(STATUS_LABELS[t.status] ?? t.status)}${t.note ? `. ${escapeHtml(t.note)}` : ''}</li>`,
      )
      .join('');
    const deal =
      row.status === 'CLOSED_DEAL' && row.deal_price_cents !== null
        ? `<p class="price" data-testid="case-deal">Agreed price: ${escapeHtml(formatMoney(row.deal_price_cents, row.currency))}</p>`
        : '';
    send(
      res,
      200,
      page(
        ctx(req),
        `Brokerage: ${row.domain}`,
        `<p class="eyebrow">Brokerage case ${escapeHtml(row.case_id)}</p>
<h1 data-testid="case-domain">${escapeHtml(row.domain)}</h1>
<p data-testid="case-status">${escapeHtml(STATUS_LABELS[row.status] ?? row.status)}</p>
${deal}<p class="hint">${row.tier === 'managed' ? 'Managed: a broker negotiates for you' : 'Self-serve: you are guided through the approach'}. Budget ${escapeHtml(formatMoney(row.budget_cents, row.currency))}.</p>
<ol>${steps}</ol>
<h2>Timeline</h2>
<ul data-testid="case-timeline">${events}</ul>`,
        'Domain brokerage',
      ),
    );
  });

  /** A fault of the request (malformed path, a value the database refuses): a 4xx page, never a 500. */
  const answerClientFault = (err: unknown, req: Request, res: Response): boolean => {
    const fault = classifyClientFault(err);
    if (fault === undefined) return false;
    if (fault.defect) logDefect(logger, err, req, requestState(res).requestId);
    const body = `<h1 data-testid="page-error">This address is not valid</h1><p>${escapeHtml(fault.message)}</p>`;
    send(res, fault.status, page(ctx(req), 'This address is not valid', body, 'Marketplace'));
    return true;
  };
  router.use((err: unknown, req: Request, res: Response, next: (err?: unknown) => void) => {
    if (res.headersSent) return next(err);
    const problem = formProblem(err);
    if (problem !== undefined)
      return send(
        res,
        problem.status,
        page(
          ctx(req),
          'The form could not be read',
          `<h1 data-testid="page-error">The form could not be read</h1><p>${escapeHtml(problem.message)}</p>`,
          'Marketplace',
        ),
      );
    if (answerClientFault(err, req, res)) return;
    logger.error({ err, req_id: requestState(res).requestId }, 'unexpected page error');
    send(
      res,
      500,
      page(
        ctx(req),
        'Something went wrong',
        `<h1 data-testid="page-error">Something went wrong</h1><p>Please try again. (Reference ${escapeHtml(requestState(res).requestId)})</p>`,
        'Marketplace',
      ),
    );
  });

  return router;
}
