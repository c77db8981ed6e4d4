/**
 * OAuth error answers of the token, registration and revocation endpoints: `{"error", "error_description"}` with the
 * status RFC 6749 5.2 / RFC 7591 3.2.2 give each code, and `Cache-Control: no-store`. These endpoints answer the
 * OAuth shape (not the Public API's `{"error": {...}}`) because OAuth client libraries read it.
 */
import type { Response } from 'express';

/** The OAuth error codes the sandbox answers. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  | 'rate_limited';

const STATUS: Readonly<Record<OAuthErrorCode, number>> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_target: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  unsupported_token_type: 400,
  rate_limited: 429,
};

/** An OAuth error answer (RFC 6749 5.2, RFC 7591 3.2.2, RFC 8707 2). */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(error: OAuthErrorCode, description: string, headers: Readonly<Record<string, string>> = {}) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = STATUS[error];
    this.headers = headers;
  }
}

/** Sends an OAuth error body. */
export function sendOAuthError(res: Response, err: OAuthError): void {
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.status(err.status).json({ error: err.error, error_description: err.message });
}
