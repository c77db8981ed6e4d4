/**
 * `GET /auth.md`: the agent-auth document (Public API spec 5.2 "A canonical agent-auth document is published at /auth.md"):
 * how an agent or an app signs in to the Public API and the MCP server, step by step, with this service's URLs.
 */
import { ACCESS_TOKEN_TTL_SECONDS, OAUTH_CODE_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '@domainkit/protocol';
import { oauthUrls } from '../oauth/metadata.ts';
import { OAUTH_SCOPES, SCOPE_DESCRIPTIONS } from '../oauth/scopes.ts';

/** The document for a base URL. */
export function authMarkdown(base: string): string {
  const u = oauthUrls(base);
  const scopes = OAUTH_SCOPES.map((s) => `- \`${s}\`: ${SCOPE_DESCRIPTIONS[s]}.`).join('\n');
  return `# Signing in to the Marketplace Public API

Everything in the Public API (${u.openapi}) and the MCP server (${u.mcp}) works without an account. Signing in
only unmasks marketplace prices (anonymous answers carry \`"price_cents": null, "price_masked": true\`) and opens
the bulk operations on your own domains. There is no API key: sign-in is OAuth 2.1, authorization code with PKCE
(\`S256\` only), for public clients (no client secret).

## Scopes

${scopes}

Without a \`scope\` parameter you get \`pricing:read\`.

## 1. Discover

- \`GET ${u.issuer}/api\` without a token answers \`401\` with
  \`WWW-Authenticate: Bearer resource_metadata="${u.protectedResourceMetadata}"\`.
- Protected resource metadata (RFC 9728): \`${u.protectedResourceMetadata}\` names the authorization server.
- Authorization server metadata (RFC 8414): \`${u.authorizationServerMetadata}\`. Its \`issuer\` is exactly
  \`${u.issuer}\`.

## 2. Register your client (RFC 7591, no approval)

\`\`\`http
POST ${u.registrationEndpoint}
Content-Type: application/json

{"client_name": "My agent", "redirect_uris": ["http://127.0.0.1:8976/callback"]}
\`\`\`

\`201\` answers \`client_id\` (and no secret: \`token_endpoint_auth_method\` is always \`none\`). Redirect URIs must
be \`https\`, \`http\` on a loopback address (\`127.0.0.1\`, \`[::1]\`, \`localhost\`; any port matches at
authorization time), or a private-use scheme such as \`com.example.app:/callback\`; fragments are refused
(\`invalid_redirect_uri\`).

## 3. Authorize (PKCE S256)

Make a \`code_verifier\` (43–128 random characters of \`A-Z a-z 0-9 - . _ ~\`), its
\`code_challenge = BASE64URL(SHA256(code_verifier))\`, and a random \`state\`. Send the user's browser to:

\`\`\`
${u.authorizationEndpoint}?response_type=code&client_id=<CLIENT_ID>&redirect_uri=<REDIRECT_URI>
  &code_challenge=<CODE_CHALLENGE>&code_challenge_method=S256&state=<STATE>&scope=pricing:read
\`\`\`

The user signs in and approves; the browser returns to \`<REDIRECT_URI>?code=…&state=…&iss=${encodeURIComponent(u.issuer)}\`.
Check \`state\` (and \`iss\`). The redirect URI must equal a registered one exactly (loopback: any port).
\`code_challenge_method=plain\` or a missing challenge is refused. Codes are single use and expire after
${OAUTH_CODE_TTL_SECONDS} seconds.

## 4. Get tokens

\`\`\`sh
curl -X POST ${u.tokenEndpoint} \\
  -d grant_type=authorization_code -d client_id=<CLIENT_ID> -d code=<CODE> \\
  -d code_verifier=<CODE_VERIFIER> -d redirect_uri=<REDIRECT_URI>
\`\`\`

\`\`\`json
{"access_token": "<ACCESS_TOKEN>", "token_type": "Bearer", "expires_in": ${ACCESS_TOKEN_TTL_SECONDS}, "refresh_token": "<REFRESH_TOKEN>", "scope": "pricing:read"}
\`\`\`

The access token lasts ${ACCESS_TOKEN_TTL_SECONDS / 60} minutes, the refresh token ${REFRESH_TOKEN_TTL_SECONDS / 86_400} days. Presenting a code twice
revokes the tokens it issued.

## 5. Use the access token

\`Authorization: Bearer <ACCESS_TOKEN>\` on \`POST ${u.issuer}/api/domain/search\`, the other Public API calls, or
MCP requests. An expired or revoked token is never ignored: it answers \`401\` with
\`WWW-Authenticate: Bearer error="invalid_token"\`; refresh it, or sign in again.

## 6. Refresh (rotation)

The standard form-encoded refresh request (RFC 6749 section 6):

\`\`\`sh
curl -X POST ${u.tokenEndpoint} \\
  -d grant_type=refresh_token -d client_id=<CLIENT_ID> -d refresh_token=<REFRESH_TOKEN>
\`\`\`

It answers a new access token **and a new refresh token**: keep the new one, the old one is spent. Presenting a
spent refresh token again revokes every token of that sign-in (RFC 9700). An optional \`scope\` may narrow the new
access token, never widen it (\`invalid_scope\`).

## 7. Revoke

\`POST ${u.revocationEndpoint}\` with \`token=<TOKEN>&client_id=<CLIENT_ID>\` (RFC 7009). Revoking a refresh
token signs the whole sign-in out.

## MCP

- \`${u.mcp}\` (Streamable HTTP): tools \`search_domain\`, \`tld_registration_price\`, \`whois_lookup\`. Anonymous
  calls see masked prices; calls with a Bearer token see real ones.
- \`${u.mcpSignedIn}\`: the same server, but it answers \`401\` with the challenge above until the client sends a
  token, so a standard MCP client signs in by itself (discovery, registration, PKCE).

## Errors

OAuth endpoints answer \`{"error": "<code>", "error_description": "…"}\` (RFC 6749): \`invalid_request\`,
\`invalid_grant\`, \`invalid_scope\`, \`invalid_client\`, \`unsupported_grant_type\`, \`invalid_redirect_uri\`,
\`invalid_client_metadata\`. The Public API answers \`{"error": {"code", "message", "request_id"}}\`. Too many
requests answer \`429\` with \`Retry-After\` (seconds).
`;
}
