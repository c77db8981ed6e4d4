/**
 * Signing in to the Public API (Public API spec 5.2): OAuth 2.1 authorization code with PKCE (S256), public clients, built on
 * oauth4webapi. {@link PublicSignIn} discovers the authorization server from the resource's metadata (RFC 9728,
 * RFC 8414), registers a client (RFC 7591), builds the authorization URL, exchanges the code, refreshes (the
 * refresh token rotates on every use: always keep the new one) and revokes (RFC 7009). A {@link SignInSession} holds
 * the tokens, refreshes them before they expire, and is an `AccessTokenSource` for `PublicClient`.
 *
 * ```ts
 * const signIn = await PublicSignIn.discover({ baseUrl: 'http://127.0.0.1:4010' });
 * const client = await signIn.register({ clientName: 'My app', redirectUris: ['http://127.0.0.1:8976/callback'] });
 * const pending = await signIn.startAuthorization({ clientId: client.clientId, redirectUri: '…', scope: 'pricing:read' });
 * // send the browser to pending.url; it comes back to the redirect URI with ?code=…&state=…
 * const tokens = await signIn.finishAuthorization(pending, callbackUrl);
 * const session = signIn.session(client.clientId, tokens, { onTokens: save });
 * const api = new PublicClient({ baseUrl, accessToken: session });
 * ```
 */
import * as oauth from 'oauth4webapi';
import type { Dispatcher } from 'undici';
import type { AccessTokenSource } from '../request-sender.ts';

/** A token set, with the access token's expiry as an absolute time. */
export interface TokenSet {
  readonly accessToken: string;
  /** The refresh token; replace it with each new one (rotation). */
  readonly refreshToken: string | undefined;
  /** When the access token expires, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** Space-separated granted scopes, such as `pricing:read`. */
  readonly scope: string;
}

/** A registered public client. */
export interface RegisteredClient {
  readonly clientId: string;
  readonly redirectUris: readonly string[];
  /** The whole RFC 7591 answer. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** An authorization in progress: keep it until the browser comes back. */
export interface PendingAuthorization {
  /** Where to send the user's browser. */
  readonly url: URL;
  readonly clientId: string;
  readonly redirectUri: string;
  /** The random `state` sent, checked on return. */
  readonly state: string;
  /** The PKCE verifier (a secret: keep it server-side or in memory). */
  readonly codeVerifier: string;
}

/** Options of {@link PublicSignIn.discover}. */
export interface DiscoverOptions {
  /** The service's base URL: the protected resource, whose metadata names the authorization server. */
  readonly baseUrl: string;
  /** undici dispatcher (MockAgent in tests). */
  readonly dispatcher?: Dispatcher | undefined;
  /** Allow plain http. Default: only for loopback hosts (127.0.0.1, [::1], localhost), as the local sandbox runs. */
  readonly allowInsecureRequests?: boolean | undefined;
  /** Clock in milliseconds (token expiry), default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** Raised when the sign-in fails: a protocol error answered by the server, or a malformed answer. */
export class SignInError extends Error {
  /** The OAuth error code (`invalid_grant`, `access_denied`...), or `invalid_response`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignInError';
    this.code = code;
  }
}

function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
}

function toTokenSet(response: oauth.TokenEndpointResponse, now: number, previous?: TokenSet): TokenSet {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? previous?.refreshToken,
    expiresAt: now + (response.expires_in ?? 1800) * 1000,
    scope: response.scope ?? previous?.scope ?? '',
  };
}

async function wrap<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError || err instanceof oauth.AuthorizationResponseError) {
      throw new SignInError(
        err.error,
        `${what} failed: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`,
        { cause: err },
      );
    }
    if (err instanceof oauth.OperationProcessingError)
      throw new SignInError('invalid_response', `${what} failed: ${err.message}`, { cause: err });
    throw err;
  }
}

/** The sign-in flow against one service. Use {@link PublicSignIn.discover} to create it. */
export class PublicSignIn {
  /** The authorization server's metadata (RFC 8414). */
  readonly server: oauth.AuthorizationServer;
  /** The protected resource identifier (RFC 9728 `resource`), sent as the RFC 8707 `resource` indicator. */
  readonly resource: string;
  readonly #options: oauth.HttpRequestOptions<'GET' | 'POST'>;
  readonly #now: () => number;

  private constructor(
    server: oauth.AuthorizationServer,
    resource: string,
    options: oauth.HttpRequestOptions<'GET' | 'POST'>,
    now: () => number,
  ) {
    this.server = server;
    this.resource = resource;
    this.#options = options;
    this.#now = now;
  }

  /**
   * Discovers the authorization server through the resource's metadata: `{baseUrl}/.well-known/oauth-protected-resource`,
   * then the first `authorization_servers` entry's `/.well-known/oauth-authorization-server`. Both identifiers must
   * match the URLs they were fetched for (oauth4webapi checks).
   * @throws {SignInError} when either document is missing or does not match; `TypeError` for a non-https base URL
   *   that is not loopback (unless `allowInsecureRequests`).
   */
  static async discover(options: DiscoverOptions): Promise<PublicSignIn> {
    const resource = new URL(options.baseUrl.replace(/\/+$/, ''));
    const insecure = options.allowInsecureRequests ?? isLoopback(resource);
    if (resource.protocol !== 'https:' && !insecure)
      throw new TypeError(
        `the service must be reached over https (received ${resource.href}); pass allowInsecureRequests for a local test server`,
      );
    const dispatcher = options.dispatcher;
    const http: oauth.HttpRequestOptions<'GET' | 'POST'> = {
      ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
      ...(dispatcher
        ? {
            // undici is loaded only when a dispatcher is given: without one, the platform's fetch is used.
            [oauth.customFetch]: (async (url: string, init: RequestInit) => {
              const { fetch: undiciFetch } = await import('undici');
              return undiciFetch(url, { ...(init as object), dispatcher });
            }) as unknown as typeof fetch,
          }
        : {}),
    };
    const prm = await wrap('protected resource discovery', async () =>
      oauth.processResourceDiscoveryResponse(resource, await oauth.resourceDiscoveryRequest(resource, http)),
    );
    const issuerText = prm.authorization_servers?.[0];
    if (issuerText === undefined)
      throw new SignInError(
        'invalid_response',
        `${resource.href} names no authorization server in its protected resource metadata`,
      );
    const issuer = new URL(issuerText);
    const server = await wrap('authorization server discovery', async () =>
      oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' })),
    );
    if (!server.code_challenge_methods_supported?.includes('S256'))
      throw new SignInError('invalid_response', `${issuer.href} does not support PKCE S256`);
    return new PublicSignIn(server, prm.resource, http, options.now ?? Date.now);
  }

  /**
   * Registers a public client (RFC 7591; `token_endpoint_auth_method: none`, no secret).
   * @throws {SignInError} `invalid_redirect_uri` or `invalid_client_metadata` from the server.
   */
  async register(input: {
    clientName: string;
    redirectUris: readonly string[];
    scope?: string;
  }): Promise<RegisteredClient> {
    const metadata: Partial<oauth.Client> = {
      client_name: input.clientName,
      redirect_uris: [...input.redirectUris],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(input.scope ? { scope: input.scope } : {}),
    };
    const raw = await wrap('client registration', async () =>
      oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          this.server,
          metadata,
          this.#options as oauth.DynamicClientRegistrationRequestOptions,
        ),
      ),
    );
    return {
      clientId: raw.client_id,
      redirectUris: (raw.redirect_uris as string[] | undefined) ?? [...input.redirectUris],
      raw,
    };
  }

  /** Builds the authorization URL with a fresh PKCE verifier (S256) and state. */
  async startAuthorization(input: {
    clientId: string;
    redirectUri: string;
    scope?: string;
  }): Promise<PendingAuthorization> {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(this.server.authorization_endpoint!);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', input.clientId);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    url.searchParams.set('resource', this.resource);
    if (input.scope) url.searchParams.set('scope', input.scope);
    return { url, clientId: input.clientId, redirectUri: input.redirectUri, state, codeVerifier };
  }

  /**
   * Completes an authorization with the URL the browser came back to: checks `state` and `iss`, then exchanges
   * the code with its PKCE verifier.
   * @throws {SignInError} `access_denied` (the user refused), `invalid_grant` (code reused, expired, wrong
   *   verifier), a state mismatch...
   */
  async finishAuthorization(pending: PendingAuthorization, callbackUrl: string | URL): Promise<TokenSet> {
    const client: oauth.Client = { client_id: pending.clientId, token_endpoint_auth_method: 'none' };
    return wrap('authorization', async () => {
      const params = oauth.validateAuthResponse(this.server, client, new URL(callbackUrl), pending.state);
      const response = await oauth.authorizationCodeGrantRequest(
        this.server,
        client,
        oauth.None(),
        params,
        pending.redirectUri,
        pending.codeVerifier,
        {
          ...(this.#options as oauth.TokenEndpointRequestOptions),
          additionalParameters: { resource: this.resource },
        },
      );
      return toTokenSet(await oauth.processAuthorizationCodeResponse(this.server, client, response), this.#now());
    });
  }

  /**
   * Refreshes (standard `grant_type=refresh_token` form request, RFC 6749 6). The answer carries a new refresh
   * token: the old one is spent, and presenting it again revokes the whole sign-in.
   * @throws {SignInError} `invalid_grant` when the refresh token is spent, expired or revoked: sign in again.
   */
  async refresh(clientId: string, tokens: TokenSet, scope?: string): Promise<TokenSet> {
    if (tokens.refreshToken === undefined)
      throw new SignInError('invalid_grant', 'no refresh token to refresh with: sign in again');
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    return wrap('refresh', async () => {
      const response = await oauth.refreshTokenGrantRequest(this.server, client, oauth.None(), tokens.refreshToken!, {
        ...(this.#options as oauth.TokenEndpointRequestOptions),
        ...(scope ? { additionalParameters: { scope } } : {}),
      });
      return toTokenSet(await oauth.processRefreshTokenResponse(this.server, client, response), this.#now(), tokens);
    });
  }

  /** Revokes a token (RFC 7009); revoking the refresh token signs the whole sign-in out. */
  async revoke(clientId: string, token: string): Promise<void> {
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    await wrap('revocation', async () =>
      oauth.processRevocationResponse(
        await oauth.revocationRequest(
          this.server,
          client,
          oauth.None(),
          token,
          this.#options as oauth.RevocationRequestOptions,
        ),
      ),
    );
  }

  /** A session over tokens: refreshes before expiry, rotating the refresh token (see {@link SignInSession}). */
  session(
    clientId: string,
    tokens: TokenSet,
    options: { onTokens?: (tokens: TokenSet) => void | Promise<void>; refreshSkewSeconds?: number } = {},
  ): SignInSession {
    return new SignInSession(this, clientId, tokens, this.#now, options);
  }
}

/**
 * Signed-in tokens that stay fresh: `getAccessToken()` refreshes when the access token expires within the skew
 * (default 30 s), keeps the rotated refresh token, and tells `onTokens` (persist them there). Concurrent callers
 * share one refresh (two refreshes with one refresh token would revoke the sign-in). An `AccessTokenSource` for
 * `PublicClient`.
 */
export class SignInSession implements AccessTokenSource {
  readonly clientId: string;
  readonly #signIn: PublicSignIn;
  #tokens: TokenSet;
  #refreshing: Promise<TokenSet> | undefined;
  readonly #now: () => number;
  readonly #onTokens: ((tokens: TokenSet) => void | Promise<void>) | undefined;
  readonly #skewMs: number;

  constructor(
    signIn: PublicSignIn,
    clientId: string,
    tokens: TokenSet,
    now: () => number,
    options: { onTokens?: (tokens: TokenSet) => void | Promise<void>; refreshSkewSeconds?: number } = {},
  ) {
    this.#signIn = signIn;
    this.clientId = clientId;
    this.#tokens = tokens;
    this.#now = now;
    this.#onTokens = options.onTokens;
    this.#skewMs = (options.refreshSkewSeconds ?? 30) * 1000;
  }

  /** The current tokens. */
  get tokens(): TokenSet {
    return this.#tokens;
  }

  /** Refreshes now (sharing a refresh already under way). */
  refresh(): Promise<TokenSet> {
    this.#refreshing ??= (async () => {
      try {
        const next = await this.#signIn.refresh(this.clientId, this.#tokens);
        this.#tokens = next;
        await this.#onTokens?.(next);
        return next;
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  async getAccessToken(): Promise<string> {
    if (this.#refreshing) return (await this.#refreshing).accessToken;
    if (this.#tokens.expiresAt - this.#skewMs <= this.#now()) return (await this.refresh()).accessToken;
    return this.#tokens.accessToken;
  }

  async handleInvalidToken(): Promise<boolean> {
    if (this.#tokens.refreshToken === undefined) return false;
    try {
      await this.refresh();
      return true;
    } catch (err) {
      if (err instanceof SignInError) return false;
      throw err;
    }
  }
}
