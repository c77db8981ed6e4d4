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
import { BffHttpError } from '../errors.ts';
import { type BffRequest, readRawBody, type RouteHandler } from '../http/index.ts';
import type { ShopAnswer } from './results.ts';

/** How long a consent link stays valid (s). */
export const CONSENT_TTL_SECONDS = 30 * 60;

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
   * @throws {BffHttpError} 400 `validation_error` for a token that is malformed, altered or expired.
   */
  async verify(token: string): Promise<ConsentClaim> {
    const refuse = (why: string) =>
      new BffHttpError('validation_error', `This consent link ${why}: ask the assistant for a new one.`);
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
  /** Opens the case through the shop's own `POST /brokerage` (the only route this caller reaches). */
  readonly openCase: (req: BffRequest, body: Record<string, unknown>, attemptKey: string) => Promise<ShopAnswer>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, main: string, status = 200): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}
label{display:block;margin:1rem 0 .25rem}input[type=email]{font:inherit;width:100%;min-height:44px;box-sizing:border-box}
button{font:inherit;min-height:44px;padding:0 1.25rem;margin-top:1rem}.check{display:flex;gap:.5rem;align-items:flex-start}
.check input{min-width:24px;min-height:24px}</style></head>
<body><main>${main}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      // No script at all; its own inline styles; the form posts to this page only.
      'Content-Security-Policy':
        "default-src 'none';style-src 'unsafe-inline';form-action 'self';frame-ancestors 'none';base-uri 'none'",
    },
  });
}

function money(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** `GET /mcp/consent?t=`: what the person agrees to, and the form. */
export function consentPageRoute(deps: ConsentPageDeps): RouteHandler {
  return async (req) => {
    const token = typeof req.query.t === 'string' ? req.query.t : '';
    let claim: ConsentClaim;
    try {
      claim = await deps.tokens.verify(token);
    } catch (error) {
      return page(
        'Consent link not valid',
        `<h1>This link cannot be used</h1><p>${escapeHtml((error as Error).message)}</p>`,
        400,
      );
    }
    const domain = escapeHtml(claim.domain);
    return page(
      `Ask brokers for ${claim.domain}`,
      `<h1>Ask brokers to acquire ${domain}</h1>
<p>An assistant prepared this request for you at ${escapeHtml(deps.shopName)}. Nothing happens unless you send this form.</p>
<p>The marketplace's brokers will contact the owner of <strong>${domain}</strong> and try to buy it for you, for up to
<strong>${money(claim.budgetCents)}</strong> (the shop's currency). You pay nothing now.</p>
<form method="post">
<input type="hidden" name="t" value="${escapeHtml(token)}">
<label for="buyer_email">Your e-mail address (the brokers write to you there)</label>
<input id="buyer_email" name="buyer_email" type="email" required autocomplete="email">
<p class="check"><input id="consent" name="consent" type="checkbox" value="true" required>
<label for="consent" style="margin:0">I agree to be contacted about this request.</label></p>
<button type="submit">Ask the brokers</button>
</form>`,
    );
  };
}

/** `POST /mcp/consent` (a form from the page above, same-origin only): opens the case. */
export function consentSubmitRoute(deps: ConsentPageDeps): RouteHandler {
  return async (req) => {
    const form = new URLSearchParams(new TextDecoder().decode(await readRawBody(req, 4096)));
    const token = form.get('t') ?? '';
    let claim: ConsentClaim;
    try {
      claim = await deps.tokens.verify(token);
      if (form.get('consent') !== 'true')
        throw new BffHttpError('validation_error', 'Tick "I agree to be contacted" to send the request.');
    } catch (error) {
      return page(
        'Request not sent',
        `<h1>The request was not sent</h1><p>${escapeHtml((error as Error).message)}</p>`,
        400,
      );
    }
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token)));
    const answer = await deps.openCase(
      req,
      {
        domain: claim.domain,
        buyer_email: form.get('buyer_email') ?? '',
        budget_cents: claim.budgetCents,
        consent: true,
      },
      base64url(digest),
    );
    if (answer.status !== 200 && answer.status !== 201) {
      const message =
        (answer.body as { error?: { message?: string } } | null)?.error?.message ?? 'The request could not be sent.';
      return page('Request not sent', `<h1>The request was not sent</h1><p>${escapeHtml(message)}</p>`, answer.status);
    }
    const opened = answer.body as { domain: string; progress_url: string };
    const progress = /^https?:\/\//.test(opened.progress_url) ? opened.progress_url : undefined;
    return page(
      'Request sent',
      `<h1>The brokers have your request</h1><p>They will write to you about <strong>${escapeHtml(opened.domain)}</strong>.</p>
${progress === undefined ? '' : `<p><a href="${escapeHtml(progress)}" data-testid="progress">Follow its progress</a></p>`}`,
      201,
    );
  };
}
