/**
 * The person's consent to a brokerage request an agent prepared (`brokerage_request`): the agent gets a consent link
 * and creates nothing; the person opens it (`GET /mcp/consent?t=`), reads what will happen, types their e-mail
 * address, ticks the consent and sends the form (`POST /mcp/consent`, same-origin only). Only then does the shop
 * open the case through its own `POST /brokerage` (its validation, eligibility, budget and stored attempts); the
 * token's hash is the attempt key, so a form sent twice opens one case.
 *
 * MCP elicitation would ask inside the agent's own client, but it needs a session the server can send a request on;
 * this endpoint is stateless, so consent is always given on this page, which no tool call can stand in for.
 *
 * The token (`t`) is `base64url(JSON {d, b, x})` + `.` + HMAC-SHA256 (Web Crypto) under a key derived from the
 * shop's API secret: the domain, the budget in cents and the expiry (seconds since the epoch). It carries no personal
 * data; the e-mail address is the person's to type.
 */
import { widgetBrokerageRequestSchema } from '@domainkit/protocol';
import { BffHttpError } from '../errors.ts';
import { type BffRequest, readRawBody, type RouteHandler } from '../http/index.ts';
import { type ConsentStrings, consentStringsFor } from './consent-strings.ts';
import {
  type ConsentValues,
  type FormNotice,
  consentHtml,
  forbiddenBody,
  formBody,
  linkBody,
  refusedBody,
  sentBody,
} from './consent-view.ts';
import type { ShopAnswer } from './results.ts';

/** How long a consent link stays valid (s). */
export const CONSENT_TTL_SECONDS = 30 * 60;

/** A consent link that cannot be used: 400 `validation_error`, and why (`invalid`: malformed or altered). */
export class ConsentLinkError extends BffHttpError {
  readonly reason: 'invalid' | 'expired';

  constructor(reason: 'invalid' | 'expired') {
    super(
      'validation_error',
      `This consent link ${reason === 'expired' ? 'has expired' : 'is not valid'}: ask the assistant for a new one.`,
    );
    this.reason = reason;
  }
}

/** What a consent token holds. */
export interface ConsentClaim {
  /** The domain the brokers would try to acquire. */
  readonly domain: string;
  /** The person's budget, in cents of the shop's currency. */
  readonly budgetCents: number;
  /** Expiry, seconds since the epoch. */
  readonly expires: number;
}

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Signs and checks consent tokens under a key derived from `secret` (never the secret itself). */
export class ConsentTokens {
  readonly #key: Promise<Awaited<ReturnType<typeof crypto.subtle.importKey>>>;
  readonly #now: () => number;

  /** @param secret - the shop's API secret; @param now - clock, ms since the epoch. */
  constructor(secret: string, now: () => number) {
    this.#now = now;
    this.#key = (async () => {
      const root = await crypto.subtle.importKey(
        'raw',
        encoder.encode(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      const derived = await crypto.subtle.sign('HMAC', root, encoder.encode('domainkit mcp brokerage consent v1'));
      return crypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    })();
  }

  /** A token for `domain` and `budgetCents`, valid {@link CONSENT_TTL_SECONDS}; and its expiry (ISO 8601). */
  async sign(domain: string, budgetCents: number): Promise<{ token: string; expiresAt: string }> {
    const expires = Math.floor(this.#now() / 1000) + CONSENT_TTL_SECONDS;
    const body = base64url(encoder.encode(JSON.stringify({ d: domain, b: budgetCents, x: expires })));
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await this.#key, encoder.encode(body)));
    return { token: `${body}.${base64url(mac)}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /**
   * The claim of a token this shop signed that has not expired.
   * @throws {ConsentLinkError} 400 `validation_error` for a token that is malformed, altered or expired.
   */
  async verify(token: string): Promise<ConsentClaim> {
    const refuse = (why: 'is not valid' | 'has expired') =>
      new ConsentLinkError(why === 'has expired' ? 'expired' : 'invalid');
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined || token.length > 1000) throw refuse('is not valid');
    let claim: { d?: unknown; b?: unknown; x?: unknown };
    try {
      const ok = await crypto.subtle.verify('HMAC', await this.#key, fromBase64url(mac), encoder.encode(body));
      if (!ok) throw new Error('bad mac');
      claim = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as typeof claim;
    } catch {
      throw refuse('is not valid');
    }
    if (typeof claim.d !== 'string' || typeof claim.b !== 'number' || typeof claim.x !== 'number')
      throw refuse('is not valid');
    if (claim.x * 1000 <= this.#now()) throw refuse('has expired');
    return { domain: claim.d, budgetCents: claim.b, expires: claim.x };
  }
}

/** What the consent page uses. */
export interface ConsentPageDeps {
  readonly tokens: ConsentTokens;
  readonly shopName: string;
  /** The shop's page where a person buys (option `mcp.shopUrl`): a name listed for sale links there. */
  readonly shopUrl: string | undefined;
  /** The shop's brokerage offer (option `brokerage`): budgets' currency and the tier of the cases it opens. */
  readonly offer: { readonly currency: string; readonly tier: string };
  /** The marketplace's eligibility through the shop's own `GET /brokerage/eligibility?domain=`. */
  readonly eligibility: (req: BffRequest, domain: string) => Promise<ShopAnswer>;
  /** Opens the case through the shop's own `POST /brokerage` (the only write this caller reaches). */
  readonly openCase: (req: BffRequest, body: Record<string, unknown>, attemptKey: string) => Promise<ShopAnswer>;
  /** Clock, ms since the epoch. */
  readonly now: () => number;
}

/** The largest form body read (bytes): a token, an e-mail address and a box. */
const FORM_LIMIT_BYTES = 4096;

/** The BFF's error body, as far as the page reads it. */
interface ErrorBody {
  readonly code?: string;
  readonly retry_after?: number;
  readonly reason?: string;
}

function errorOf(body: unknown): ErrorBody {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null ? (error as ErrorBody) : {};
}

/** The e-mail address as `POST /brokerage` checks it. */
const emailSchema = widgetBrokerageRequestSchema.shape.buyer_email;

/** One request's page: its language and the shop's words around each state. */
class ConsentPage {
  readonly t: ConsentStrings;
  readonly #deps: ConsentPageDeps;

  constructor(deps: ConsentPageDeps, req: BffRequest) {
    this.#deps = deps;
    this.t = consentStringsFor(req.query.lang, req.header('accept-language'));
  }

  html(title: string, body: string, status: number, headers?: Headers): Promise<Response> {
    return consentHtml(this.t, this.#deps.shopName, title, body, status, headers);
  }

  /** The page of a link that cannot be used. */
  link(error: ConsentLinkError, status = 400, headers?: Headers): Promise<Response> {
    const t = this.t;
    const title = error.reason === 'expired' ? t.linkExpiredTitle : t.linkInvalidTitle;
    return this.html(title, linkBody(t, error.reason, CONSENT_TTL_SECONDS / 60), status, headers);
  }

  /** The form for `claim`, with what was typed and a notice. */
  form(
    token: string,
    claim: ConsentClaim,
    values: ConsentValues,
    notice: FormNotice | undefined,
    status: number,
    headers?: Headers,
  ): Promise<Response> {
    const { t } = this;
    const deps = this.#deps;
    const minutesLeft = Math.max(1, Math.ceil((claim.expires * 1000 - deps.now()) / 60_000));
    const body = formBody(t, {
      shopName: deps.shopName,
      token,
      domain: claim.domain,
      budgetCents: claim.budgetCents,
      ...deps.offer,
      minutesLeft,
      values,
      notice,
    });
    const title = t.formTitle(claim.domain);
    return this.html(notice?.kind === 'fields' ? `${t.checkForm} ${title}` : title, body, status, headers);
  }

  /** The page of a name the brokers cannot take. */
  refused(domain: string, reason: string, status: number): Promise<Response> {
    const deps = this.#deps;
    const body = refusedBody(this.t, { domain, reason, shopName: deps.shopName, shopUrl: deps.shopUrl });
    return this.html(reason === 'listed' ? this.t.listedTitle : this.t.notSentTitle, body, status);
  }

  /** What a failed shop answer means for the form: wait and send again, or send again. */
  static notice(error: ErrorBody): FormNotice {
    return error.retry_after !== undefined && error.retry_after > 0
      ? { kind: 'busy', seconds: Math.ceil(error.retry_after) }
      : { kind: 'failed' };
  }
}

/** The forms read by this process's requests, for their error pages (see {@link consentErrorPage}). */
const formsRead = new WeakMap<Request, URLSearchParams>();

async function readForm(req: BffRequest): Promise<URLSearchParams> {
  const form = new URLSearchParams(new TextDecoder().decode(await readRawBody(req, FORM_LIMIT_BYTES)));
  formsRead.set(req.request, form);
  return form;
}

function valuesOf(form: URLSearchParams | undefined): ConsentValues {
  return { email: (form?.get('buyer_email') ?? '').slice(0, 254), consent: form?.get('consent') === 'true' };
}

/**
 * `GET /mcp/consent?t=[&lang=]`: what the person agrees to, and the form. A link that cannot be used, or a name the
 * marketplace will not broker (listed for sale, a live site), gets its own page saying what to do instead; when the
 * eligibility cannot be read now, the form is shown with the reason and the wait.
 */
export function consentPageRoute(deps: ConsentPageDeps): RouteHandler {
  return async (req) => {
    const page = new ConsentPage(deps, req);
    const token = typeof req.query.t === 'string' ? req.query.t : '';
    let claim: ConsentClaim;
    try {
      claim = await deps.tokens.verify(token);
    } catch (error) {
      if (error instanceof ConsentLinkError) return page.link(error);
      throw error;
    }
    const answer = await deps.eligibility(req, claim.domain);
    const offer = answer.body as { eligible?: unknown; reason?: unknown } | null;
    const reason = typeof offer?.reason === 'string' ? offer.reason : 'not_eligible';
    // A case already open may be this very link's (sent before): the form then answers that it was sent; another
    // link's case is refused once the form is sent.
    if (answer.status === 200 && offer?.eligible === false && reason !== 'open_case')
      return page.refused(claim.domain, reason, 409);
    const notice = answer.status === 200 ? undefined : ConsentPage.notice(errorOf(answer.body));
    return page.form(token, claim, valuesOf(undefined), notice, 200);
  };
}

/**
 * `POST /mcp/consent` (a form from the page above, same-origin only): checks the e-mail address and the consent box
 * (the form again with each error tied to its field, what was typed kept), then opens the case through the shop's
 * `POST /brokerage` with the token's hash as its attempt key (a form sent twice opens one case).
 */
export function consentSubmitRoute(deps: ConsentPageDeps): RouteHandler {
  return async (req) => {
    const page = new ConsentPage(deps, req);
    const form = await readForm(req);
    const token = form.get('t') ?? '';
    let claim: ConsentClaim;
    try {
      claim = await deps.tokens.verify(token);
    } catch (error) {
      if (error instanceof ConsentLinkError) return page.link(error);
      throw error;
    }
    const values = valuesOf(form);
    const email = emailSchema.safeParse(values.email);
    if (!email.success || !values.consent)
      return page.form(token, claim, values, { kind: 'fields', email: !email.success, consent: !values.consent }, 400);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token)));
    const answer = await deps.openCase(
      req,
      {
        domain: claim.domain,
        buyer_email: email.data,
        budget_cents: claim.budgetCents,
        consent: true,
        locale: page.t.lang,
      },
      base64url(digest),
    );
    if (answer.status === 200 || answer.status === 201) {
      const opened = answer.body as { domain: string; progress_url: string };
      const progressUrl = /^https?:\/\//.test(opened.progress_url) ? opened.progress_url : undefined;
      const body = sentBody(page.t, { domain: opened.domain, email: email.data, progressUrl });
      return page.html(page.t.sentTitle, body, 201);
    }
    const error = errorOf(answer.body);
    if (error.code === 'conflict' && error.reason !== undefined)
      return page.refused(claim.domain, error.reason, answer.status);
    return page.form(token, claim, values, ConsentPage.notice(error), answer.status);
  };
}

/**
 * The page shown instead of a JSON error answer of `/mcp/consent` (a route's `errorPage`, http/routes.ts): the
 * visitor limit, a form from another page, a body too large, the deadline. With a usable link it is the form again
 * (what was typed kept) saying why it was not sent and, when busy, how long to wait; else the link's own page.
 */
export function consentErrorPage(deps: ConsentPageDeps): (answer: Response, req: BffRequest) => Promise<Response> {
  return async (answer, req) => {
    const page = new ConsentPage(deps, req);
    const error = errorOf(await answer.json().catch(() => null));
    const headers = new Headers(answer.headers);
    if (error.code === 'forbidden')
      return page.html(page.t.notSentTitle, forbiddenBody(page.t), answer.status, headers);
    let form = formsRead.get(req.request);
    if (form === undefined && req.method === 'POST' && !req.request.bodyUsed)
      form = await readForm(req).catch(() => undefined);
    const token = form?.get('t') ?? (typeof req.query.t === 'string' ? req.query.t : '');
    let claim: ConsentClaim;
    try {
      claim = await deps.tokens.verify(token);
    } catch (e) {
      if (e instanceof ConsentLinkError) return page.link(e, answer.status, headers);
      throw e;
    }
    return page.form(token, claim, valuesOf(form), ConsentPage.notice(error), answer.status, headers);
  };
}
