/**
 * The authorization endpoint (Public API spec 5.2 "Authorize", OAuth 2.1 4.1.1, RFC 7636, RFC 9207, RFC 9700 2.1 and 4.1):
 * `GET /oauth/authorize` shows the sign-in and consent page, `POST /oauth/authorize` (form) signs the user in and
 * answers the client by redirecting to its redirect URI with `code`, `state` and `iss`.
 *
 * - Unknown `client_id`, or a `redirect_uri` that matches none registered (exact match; loopback `http` in any
 *   port): an error page, never a redirect (the client cannot be trusted with the answer).
 * - Other problems go back to the client as `error=…&error_description=…&state=…&iss=…`, by redirect only when the
 *   redirect URI cannot lead to another web site (loopback http, a private-use scheme) or the user pressed a button
 *   on the sandbox's own page; otherwise on the sandbox's error page with a link back (RFC 9700 4.11.2: anyone can
 *   register a client, so an https redirect URI is not trusted with automatic redirects). Those problems: `response_type` other than
 *   `code` (`unsupported_response_type`), a missing `code_challenge`, a missing or `plain` `code_challenge_method`
 *   (`invalid_request`: S256 only), an unknown scope or one the client did not register (`invalid_scope`), a foreign
 *   `resource` (`invalid_target`), the user's refusal (`access_denied`).
 *
 * There is no sign-in session: every authorization asks for the email and password (so a forged form post cannot
 * approve anything without them). The page may only post to this server and to the client's redirect origin
 * (Content-Security-Policy `form-action`).
 */
import express, { type Request, type Response, type Router } from 'express';
import { splitRawUrl } from '../http/query.ts';
import type { PublicContext } from '../public-context.ts';
import { ipSubject } from '../limits/public.ts';
import type { OAuthClientRow } from '../db/public-tables.ts';
import { findClient } from './clients.ts';
import { isOwnResource, oauthUrls } from './metadata.ts';
import { matchRedirectUri, redirectStaysOnDevice } from './redirect-uris.ts';
import { DEFAULT_SCOPE, isSubset, parseScope, type OAuthScope } from './scopes.ts';
import { CHALLENGE_RE, createAuthorizationCode } from './tokens.ts';
import { authenticateUser } from './users.ts';
import { CONSENT_CSS, authorizeErrorPage, authorizeErrorReturnPage, consentPage } from './views.ts';
import { refuseBodyOverLimit, rejectUnsafeText } from '../http/hardening.ts';

/** A valid authorization request. */
export interface AuthorizationRequest {
  readonly client: OAuthClientRow;
  readonly redirectUri: string;
  readonly state: string | undefined;
  readonly codeChallenge: string;
  readonly scopes: readonly OAuthScope[];
  readonly resource: string | null;
}

/** The outcome of checking the request's parameters. */
export type AuthorizationCheck =
  | { readonly kind: 'fatal'; readonly title: string; readonly message: string }
  | {
      readonly kind: 'redirect';
      readonly client: OAuthClientRow;
      readonly redirectUri: string;
      readonly state: string | undefined;
      readonly error: string;
      readonly description: string;
    }
  | { readonly kind: 'ok'; readonly request: AuthorizationRequest };

const REPEATED = Symbol('repeated');

function single(params: Record<string, unknown>, name: string): string | undefined | typeof REPEATED {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return REPEATED;
  return value;
}

/** Checks an authorization request's parameters (query of the GET, form of the POST). */
export async function checkAuthorizationRequest(
  ctx: PublicContext,
  base: string,
  params: Record<string, unknown>,
): Promise<AuthorizationCheck> {
  const clientId = single(params, 'client_id');
  if (clientId === undefined || clientId === '')
    return {
      kind: 'fatal',
      title: 'This sign-in link is incomplete',
      message: 'The request has no client_id. Go back to the application and try again.',
    };
  if (clientId === REPEATED)
    return { kind: 'fatal', title: 'This sign-in link is not valid', message: 'client_id is repeated.' };
  const client = await findClient(ctx.db, clientId);
  if (client === undefined) {
    return {
      kind: 'fatal',
      title: 'Unknown application',
      message: `No application is registered with client_id ${clientId.slice(0, 100)}. It may need to register again.`,
    };
  }
  const presented = single(params, 'redirect_uri');
  if (presented === REPEATED)
    return { kind: 'fatal', title: 'This sign-in link is not valid', message: 'redirect_uri is repeated.' };
  let redirectUri: string | undefined;
  if (presented === undefined) {
    if (client.redirect_uris.length !== 1)
      return {
        kind: 'fatal',
        title: 'This sign-in link is incomplete',
        message: 'redirect_uri is required: this application registered several.',
      };
    redirectUri = client.redirect_uris[0];
  } else {
    redirectUri = matchRedirectUri(client.redirect_uris, presented);
  }
  if (redirectUri === undefined) {
    return {
      kind: 'fatal',
      title: 'Redirect URI mismatch',
      message:
        'The redirect_uri does not match any redirect URI this application registered (they must match exactly; on a loopback address only the port may differ). Nothing was sent back to it.',
    };
  }
  const stateValue = single(params, 'state');
  const state = typeof stateValue === 'string' ? stateValue : undefined;
  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    client,
    redirectUri,
    state,
    error,
    description,
  });
  if (stateValue === REPEATED) return fail('invalid_request', 'state is repeated.');
  if (state !== undefined && state.length > 1000)
    return fail('invalid_request', 'state is longer than 1000 characters.');

  const responseType = single(params, 'response_type');
  if (responseType === undefined) return fail('invalid_request', 'response_type is required: response_type=code.');
  if (responseType !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported (authorization code with PKCE).');

  const challenge = single(params, 'code_challenge');
  const method = single(params, 'code_challenge_method');
  if (challenge === undefined || challenge === '')
    return fail('invalid_request', 'code_challenge is required: PKCE with code_challenge_method=S256 (RFC 7636).');
  if (challenge === REPEATED || method === REPEATED)
    return fail('invalid_request', 'code_challenge and code_challenge_method must appear once.');
  if (method === undefined)
    return fail(
      'invalid_request',
      'code_challenge_method=S256 is required: the plain method (the default when it is left out) is not supported.',
    );
  if (method !== 'S256')
    return fail(
      'invalid_request',
      `code_challenge_method ${method.slice(0, 20)} is not supported: use S256 (plain is refused).`,
    );
  if (!CHALLENGE_RE.test(challenge))
    return fail(
      'invalid_request',
      'code_challenge must be BASE64URL(SHA256(code_verifier)): 43 characters of letters, digits, "-" and "_".',
    );

  const scopeValue = single(params, 'scope');
  if (scopeValue === REPEATED) return fail('invalid_request', 'scope is repeated.');
  const scopes = scopeValue === undefined || scopeValue.trim() === '' ? [DEFAULT_SCOPE] : parseScope(scopeValue);
  if (scopes === undefined || scopes.length === 0)
    return fail('invalid_scope', `scope ${JSON.stringify((scopeValue ?? '').slice(0, 100))} names an unknown scope.`);
  if (!isSubset(scopes, client.scope.split(' ')))
    return fail('invalid_scope', `This application registered the scope "${client.scope}" only.`);

  const resource = single(params, 'resource');
  if (resource === REPEATED) return fail('invalid_target', 'Only one resource may be requested.');
  if (resource !== undefined && !isOwnResource(base, resource))
    return fail('invalid_target', `resource must be this service (${base}).`);

  return {
    kind: 'ok',
    request: { client, redirectUri, state, codeChallenge: challenge, scopes, resource: resource ?? null },
  };
}

/** The redirect answering the client: its redirect URI plus the given parameters, `state` and `iss` (RFC 9207). */
export function clientRedirect(
  redirectUri: string,
  base: string,
  params: Record<string, string>,
  state: string | undefined,
): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (state !== undefined) url.searchParams.set('state', state);
  url.searchParams.set('iss', oauthUrls(base).issuer);
  return url.href;
}

/**
 * True for a POST that comes from the sandbox's own consent page: its `Origin` is the sandbox's (browsers send it
 * with every form post) or absent (not a browser), and `Sec-Fetch-Site`, when sent, is `same-origin`.
 */
function postedFromOwnPage(req: Request, base: string): boolean {
  if (req.method !== 'POST') return false;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = req.headers.origin;
  return origin === undefined || origin === new URL(base).origin;
}

/** `form-action` sources that let the consent form reach the client's redirect URI after the 303. */
function formActionSources(redirectUri: string): string {
  const url = new URL(redirectUri);
  const target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  return `'self' ${target}`;
}

function sendHtml(res: Response, status: number, html: string, formAction = "'self'"): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
  );
  res.status(status).type('html').send(html);
}

function hiddenFields(request: AuthorizationRequest): Record<string, string | undefined> {
  return {
    response_type: 'code',
    client_id: request.client.client_id,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    scope: request.scopes.join(' '),
    state: request.state,
    resource: request.resource ?? undefined,
  };
}

function redirectHost(uri: string): string {
  const url = new URL(uri);
  return url.host === '' ? `${url.protocol}${url.pathname}` : url.host;
}

/**
 * The query of an authorization request, decoded as `application/x-www-form-urlencoded` (RFC 6749 4.1.1: `+` is a
 * space, as in `scope=pricing:read+domains:manage`), unlike the app's RFC 3986 query parser. A repeated key gives an
 * array (refused by the checks).
 */
function formQuery(req: Request): Record<string, unknown> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(splitRawUrl(req.originalUrl).query)) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** Builds the authorization endpoint's router (mounted at the app root: `/oauth/authorize`, `/oauth/consent.css`). */
export function authorizeRouter(ctx: PublicContext): Router {
  const router = express.Router();

  router.get('/oauth/consent.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('css').send(CONSENT_CSS);
  });

  /**
   * Answers a refusal to the client: by redirect when the redirect URI cannot lead to another web site, or when the
   * user pressed a button on the sandbox's own page (a POST whose `Origin` is the sandbox's, or absent as outside a
   * browser; `Sec-Fetch-Site`, when sent, same-origin). Otherwise the error is shown on the sandbox's page with a
   * link back (RFC 9700 4.11.2: no open redirector through anonymously registered clients).
   */
  function answerError(
    req: Request,
    res: Response,
    base: string,
    request: { client: OAuthClientRow; redirectUri: string; state: string | undefined },
    error: string,
    description: string,
  ): void {
    const target = clientRedirect(request.redirectUri, base, { error, error_description: description }, request.state);
    if (redirectStaysOnDevice(request.redirectUri) || postedFromOwnPage(req, base)) {
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(req.method === 'GET' ? 302 : 303, target);
      return;
    }
    sendHtml(
      res,
      400,
      authorizeErrorReturnPage({
        clientName: request.client.client_name,
        description,
        returnUrl: target,
        returnHost: redirectHost(request.redirectUri),
      }),
    );
  }

  async function handleCheck(
    req: Request,
    res: Response,
    params: Record<string, unknown>,
  ): Promise<AuthorizationRequest | undefined> {
    const base = ctx.baseUrl(req);
    const check = await checkAuthorizationRequest(ctx, base, params);
    if (check.kind === 'fatal') {
      sendHtml(res, 400, authorizeErrorPage(check.title, check.message));
      return undefined;
    }
    if (check.kind === 'redirect') {
      answerError(req, res, base, check, check.error, check.description);
      return undefined;
    }
    return check.request;
  }

  router.get('/oauth/authorize', async (req, res) => {
    const request = await handleCheck(req, res, formQuery(req));
    if (request === undefined) return;
    sendHtml(
      res,
      200,
      consentPage({
        clientName: request.client.client_name,
        clientId: request.client.client_id,
        redirectHost: redirectHost(request.redirectUri),
        scopes: request.scopes,
        hidden: hiddenFields(request),
      }),
      formActionSources(request.redirectUri),
    );
  });

  router.post(
    '/oauth/authorize',
    refuseBodyOverLimit(express.urlencoded({ extended: false, limit: 16 * 1024, parameterLimit: 30 }), 16 * 1024),
    rejectUnsafeText('body'),
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const request = await handleCheck(req, res, body);
      if (request === undefined) return;
      const base = ctx.baseUrl(req);
      if (body.decision === 'deny') {
        answerError(req, res, base, request, 'access_denied', 'The user denied the request.');
        return;
      }
      const rerender = (status: number, error: string) =>
        sendHtml(
          res,
          status,
          consentPage({
            clientName: request.client.client_name,
            clientId: request.client.client_id,
            redirectHost: redirectHost(request.redirectUri),
            scopes: request.scopes,
            hidden: hiddenFields(request),
            error,
            email: typeof body.email === 'string' ? body.email.slice(0, 200) : '',
          }),
          formActionSources(request.redirectUri),
        );
      const budget = await ctx.limiter.consume('signIn', ipSubject(req));
      if (!budget.allowed) {
        res.setHeader('Retry-After', String(budget.resetSeconds));
        rerender(429, `Too many sign-in attempts: wait ${budget.resetSeconds} seconds and try again.`);
        return;
      }
      const email = typeof body.email === 'string' ? body.email.slice(0, 200) : '';
      const password = typeof body.password === 'string' ? body.password.slice(0, 200) : '';
      if (email === '' || password === '') return rerender(400, 'Enter your email and password.');
      const user = await authenticateUser(ctx.db, email, password);
      if (user === undefined) return rerender(401, 'The email or password is not correct.');
      const code = await createAuthorizationCode(
        ctx.db,
        {
          clientId: request.client.client_id,
          userId: user.id,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          scope: request.scopes.join(' '),
          resource: request.resource,
        },
        ctx.clock(),
      );
      ctx.logger.info(
        { client_id: request.client.client_id, user_id: user.id, scope: request.scopes.join(' ') },
        'authorization granted',
      );
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, clientRedirect(request.redirectUri, base, { code }, request.state));
    },
  );

  return router;
}
