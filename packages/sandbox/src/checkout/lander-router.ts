/**
 * The hosted lander (Partner API spec 1 item 3, 2.3): the page a partner sends its buyer to with `checkout_url`.
 *
 * - `GET {mount}?pt=<token>`: the checkout form for the session (400 malformed or forged token, 410 expired,
 *   404 unknown session, 409 domain sold meanwhile; a paid session: 303 to its receipt).
 * - `POST {mount}/pay` (form-urlencoded: `pt`, `email`, `card_number`, `card_expiry`, `card_cvc`, `card_name`):
 *   charges a test card. Paid (now, or before: a form sent again): 303 to the receipt (Post/Redirect/Get, so reload,
 *   Back and Forward never send the form again); 402 declined (nothing changes, the visitor may retry), 400 invalid
 *   form, 409 sold meanwhile, 410 expired.
 * - `GET {mount}/receipt?pt=<token>`: the receipt of a paid session, its return link signed (an open one: 303 to
 *   the form).
 * - `GET {mount}/lander.css`, `GET {mount}/receipt.js`: the stylesheet; the receipt's automatic return.
 *
 * Pages carry no inline script or style (the app's CSP forbids both); the receipt alone loads the script file.
 */
import type { KeyObject } from 'node:crypto';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { CheckoutSessionRow, SandboxDb } from '../db/tables.ts';
import { formProblem, logDefect } from '../http/errors.ts';
import { classifyClientFault, refuseBodyOverLimit, rejectUnsafeText } from '../http/hardening.ts';
import { requestState } from '../http/request-context.ts';
import { findDomain } from '../inventory/catalog.ts';
import { completeSale, findCheckoutSession, findSaleOfSession } from './sessions.ts';
import { LANDER_CSS } from './styles.ts';
import { chargeTestCard, cardFormSchema } from './test-cards.ts';
import { CheckoutTokenError, verifyCheckoutToken } from './token.ts';
import { checkoutPage, messagePage, receiptPage, withQuery, type ViewContext } from './views.ts';
import { RECEIPT_SCRIPT } from './receipt-script.ts';
import { landerStrings } from './lander-strings.ts';
import { findActiveCredential } from '../credentials/store.ts';
import { signCheckoutReturn } from '@domainkit/protocol';

/** What the lander needs. */
export interface LanderOptions {
  readonly db: SandboxDb;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The key that signs and verifies `pt` tokens. */
  readonly tokenKey: KeyObject;
}

function send(res: Response, status: number, html: string): void {
  const lang = /<html lang="([a-z]+)"/.exec(html)?.[1] ?? 'en';
  res
    .status(status)
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Content-Language', lang)
    .setHeader('Vary', 'Accept-Language')
    .type('html')
    .send(html);
}

/**
 * The view context of `req`: its mount path, its words (English, French or Arabic: the language of the page the
 * `session` was opened from, else by `Accept-Language`) and the shop the page names (`shop`, see {@link shopName}).
 */
function viewContext(req: Request, shop?: string, session?: CheckoutSessionRow): ViewContext {
  return { base: req.baseUrl, t: landerStrings(req, session?.locale), shop };
}

/** The host of `url` (`shop.example`), or `undefined` when there is no URL or it does not parse. */
function hostOf(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/** Resolves a token to its open or paid session, or answers the error page and returns `undefined`. */
async function sessionFromToken(
  options: LanderOptions,
  req: Request,
  res: Response,
  token: unknown,
): Promise<CheckoutSessionRow | undefined> {
  const ctx = viewContext(req);
  const t = ctx.t!;
  let sessionId: string;
  try {
    sessionId = verifyCheckoutToken(options.tokenKey, token, options.clock()).sid;
  } catch (err) {
    if (!(err instanceof CheckoutTokenError)) throw err;
    const expired = err.reason === 'expired';
    send(
      res,
      expired ? 410 : 400,
      messagePage(ctx, {
        title: expired ? t.linkExpiredTitle : t.linkInvalidTitle,
        message: t.tokenProblem?.[err.reason] ?? err.message,
      }),
    );
    return undefined;
  }
  const session = await findCheckoutSession(options.db, sessionId);
  if (session === undefined) {
    send(res, 404, messagePage(ctx, { title: t.notFoundTitle, message: t.notFoundMessage }));
    return undefined;
  }
  return session;
}

function soldMeanwhilePage(req: Request, session: CheckoutSessionRow, shop: string | undefined): string {
  const ctx = viewContext(req, shop, session);
  return messagePage(ctx, {
    title: ctx.t!.soldTitle,
    message: ctx.t!.soldMessage(session.domain),
    domain: session.domain,
    returnUrl: session.return_url,
  });
}

/** Builds the lander router (mount it at `/checkout`). */
export function landerRouter(options: LanderOptions): Router {
  const { db, clock, logger } = options;
  const router = express.Router();

  /**
   * The session's `return_url` with the sale's signed result (docs/spec-decisions.md, "Hosted checkout: the return
   * journey"), keyed with the API secret of the credential that created the session.
   */
  async function signedReturn(session: CheckoutSessionRow): Promise<string | undefined> {
    if (!session.return_url) return undefined;
    const credential = await findActiveCredential(db, session.key_id);
    if (!credential) return session.return_url;
    const params = await signCheckoutReturn(credential.secret, {
      checkout_session_id: session.id,
      status: 'paid',
      domain: session.domain,
      price_cents: session.price_cents,
      currency: session.currency,
      ts: Math.floor(clock() / 1000),
    });
    return withQuery(session.return_url, params);
  }

  /**
   * The shop the buyer came from, as the page names it: the name the partner gave in the back office
   * (`display_name`), else the host of its return (or cancel) address; `undefined` when neither is known, and for a
   * checkout the marketplace's own storefront opened for a referral link (the buyer is on the marketplace).
   */
  async function shopName(session: CheckoutSessionRow): Promise<string | undefined> {
    if (session.link_id !== null) return undefined;
    const credential = await findActiveCredential(db, session.key_id);
    return credential?.display_name ?? hostOf(session.return_url) ?? hostOf(session.cancel_url);
  }

  /** Post/Redirect/Get: sends the browser to the receipt or the form of `token`'s session (303 See Other). */
  function seeOther(req: Request, res: Response, to: 'receipt' | 'form', token: string): void {
    const path = to === 'receipt' ? `${req.baseUrl}/receipt` : req.baseUrl || '/';
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, `${path}?${new URLSearchParams({ pt: token })}`);
  }

  router.get('/lander.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(LANDER_CSS);
  });

  router.get('/receipt.js', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('js').send(RECEIPT_SCRIPT);
  });

  router.get('/', async (req, res) => {
    const session = await sessionFromToken(options, req, res, req.query.pt);
    if (session === undefined) return;
    const token = req.query.pt as string;
    if (session.status === 'paid') return seeOther(req, res, 'receipt', token);
    const shop = await shopName(session);
    const domain = await findDomain(db, session.environment, session.domain);
    if (domain === undefined || domain.status !== 'listed')
      return send(res, 409, soldMeanwhilePage(req, session, shop));
    send(res, 200, checkoutPage(viewContext(req, shop, session), { session, token }));
  });

  router.get('/receipt', async (req, res) => {
    const session = await sessionFromToken(options, req, res, req.query.pt);
    if (session === undefined) return;
    if (session.status !== 'paid') return seeOther(req, res, 'form', req.query.pt as string);
    const [shop, sale, returnHref] = await Promise.all([
      shopName(session),
      findSaleOfSession(db, session.id),
      signedReturn(session),
    ]);
    // The receipt's own script (the automatic return) is allowed from this server; nothing inline.
    const policy = res.getHeader('Content-Security-Policy');
    if (typeof policy === 'string') res.setHeader('Content-Security-Policy', `${policy};script-src 'self'`);
    send(res, 200, receiptPage(viewContext(req, shop, session), { session, sale, returnHref }));
  });

  router.post(
    '/pay',
    refuseBodyOverLimit(express.urlencoded({ extended: false, limit: 8 * 1024, parameterLimit: 20 }), 8 * 1024),
    rejectUnsafeText('body'),
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const session = await sessionFromToken(options, req, res, body.pt);
      if (session === undefined) return;
      const token = body.pt as string;
      // Paid already (the form sent again: a second tab, an old page): the receipt, never a second charge.
      if (session.status === 'paid') return seeOther(req, res, 'receipt', token);
      const shop = await shopName(session);
      const ctx = viewContext(req, shop, session);
      const domain = await findDomain(db, session.environment, session.domain);
      if (domain === undefined || domain.status !== 'listed')
        return send(res, 409, soldMeanwhilePage(req, session, shop));

      const values = {
        email: typeof body.email === 'string' ? body.email.slice(0, 254) : '',
        card_number: typeof body.card_number === 'string' ? body.card_number.slice(0, 30) : '',
        card_expiry: typeof body.card_expiry === 'string' ? body.card_expiry.slice(0, 10) : '',
        card_name: typeof body.card_name === 'string' ? body.card_name.slice(0, 100) : '',
      };
      const form = cardFormSchema(clock(), ctx.t!.form).safeParse(body);
      if (!form.success) {
        const errors = [...new Set(form.error.issues.map((i) => i.message))];
        const invalid = form.error.issues.map((i) => String(i.path[0]));
        return send(res, 400, checkoutPage(ctx, { session, token, errors, invalid, values }));
      }
      const outcome = chargeTestCard(form.data.card_number);
      if (outcome === 'unknown') {
        const errors = [ctx.t!.testCardsOnly];
        return send(res, 400, checkoutPage(ctx, { session, token, errors, invalid: ['card_number'], values }));
      }
      if (outcome === 'declined') {
        logger.info(
          { req_id: requestState(res).requestId, checkout_session: session.id, domain: session.domain },
          'test card declined',
        );
        return send(res, 402, checkoutPage(ctx, { session, token, declined: true, values }));
      }

      const result = await completeSale(db, session.id, new Date(clock()), form.data.email);
      switch (result.kind) {
        case 'sold':
          logger.info(
            {
              req_id: requestState(res).requestId,
              sale_id: result.sale.id,
              domain: result.sale.domain,
              key_id: result.sale.key_id,
              payment_model: result.sale.payment_model,
            },
            'sale recorded',
          );
          return seeOther(req, res, 'receipt', token);
        case 'already_paid':
          return seeOther(req, res, 'receipt', token);
        case 'domain_unavailable':
          return send(res, 409, soldMeanwhilePage(req, result.session, shop));
        case 'expired':
          return send(
            res,
            410,
            messagePage(viewContext(req), {
              title: viewContext(req).t!.linkExpiredTitle,
              message: viewContext(req).t!.linkExpiredMessage,
            }),
          );
        case 'not_found':
          return send(
            res,
            404,
            messagePage(viewContext(req), {
              title: viewContext(req).t!.notFoundTitle,
              message: viewContext(req).t!.notFoundMessage,
            }),
          );
      }
    },
  );

  /** A fault of the request (malformed path, a value the database refuses): a 4xx page, never a 500. */
  const answerClientFault = (err: unknown, req: Request, res: Response): boolean => {
    const fault = classifyClientFault(err);
    if (fault === undefined) return false;
    if (fault.defect) logDefect(logger, err, req, requestState(res).requestId);
    send(
      res,
      fault.status,
      messagePage(viewContext(req), { title: viewContext(req).t!.brokenLinkTitle, message: fault.message }),
    );
    return true;
  };
  const answerHtmlError: ErrorRequestHandler = (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const problem = formProblem(err);
    if (problem !== undefined)
      return send(
        res,
        problem.status,
        messagePage(viewContext(req), { title: viewContext(req).t!.formUnreadableTitle, message: problem.message }),
      );
    if (answerClientFault(err, req, res)) return;
    logger.error({ err, req_id: requestState(res).requestId }, 'unexpected lander error');
    send(
      res,
      500,
      messagePage(viewContext(req), {
        title: viewContext(req).t!.errorTitle,
        message: viewContext(req).t!.errorMessage(requestState(res).requestId),
      }),
    );
  };
  router.use(answerHtmlError);
  return router;
}
