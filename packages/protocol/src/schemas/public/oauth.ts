/**
 * The OAuth 2.1 endpoints of the Public API's authorization server (Public API spec 5.2): dynamic client registration
 * (RFC 7591), token and revocation requests (RFC 6749, RFC 7009), and the metadata documents (RFC 8414, RFC 9728).
 */
import { z } from 'zod';
import { publicRequest, publicResponse } from './registry.ts';

/** An OAuth error body (RFC 6749 5.2, RFC 7591 3.2.2): the OAuth endpoints answer this shape, as OAuth clients expect. */
export const oauthErrorSchema = publicResponse(
  z.object({ error: z.string(), error_description: z.string().optional() }),
  'OAuthError',
  'An OAuth 2.1 / RFC 7591 error.',
);

/** RFC 7591 client registration request (public clients only). */
export const clientRegistrationRequestSchema = publicRequest(
  z.object({
    redirect_uris: z
      .array(z.string())
      .min(1)
      .max(10)
      .describe(
        'Exact redirect URIs: https, http on a loopback address (any port), or a private-use scheme (RFC 8252).',
      ),
    client_name: z.string().max(100).optional(),
    client_uri: z.string().max(500).optional(),
    token_endpoint_auth_method: z
      .literal('none')
      .optional()
      .describe('Only `none`: public clients (Public API spec 5.2).'),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
    response_types: z.array(z.literal('code')).optional(),
    scope: z.string().optional(),
    software_id: z.string().max(200).optional(),
    software_version: z.string().max(100).optional(),
  }),
  'ClientRegistrationRequest',
  'RFC 7591 client metadata. Unknown fields are ignored.',
);

/** RFC 7591 client information response. */
export const clientInformationSchema = publicResponse(
  z.object({
    client_id: z.string(),
    client_id_issued_at: z.number().int(),
    client_name: z.string().optional(),
    client_uri: z.string().optional(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    scope: z.string(),
    software_id: z.string().optional(),
    software_version: z.string().optional(),
  }),
  'ClientInformation',
  'The registered client (no secret: public client).',
);

/** Token endpoint request (form fields, RFC 6749 4.1.3 and 6). */
export const tokenRequestSchema = publicRequest(
  z.object({
    grant_type: z.enum(['authorization_code', 'refresh_token']),
    client_id: z.string(),
    code: z.string().optional().describe('authorization_code grant.'),
    code_verifier: z.string().optional().describe('authorization_code grant: the PKCE verifier (RFC 7636).'),
    redirect_uri: z
      .string()
      .optional()
      .describe('authorization_code grant: if sent, must equal the one of the authorization request.'),
    refresh_token: z.string().optional().describe('refresh_token grant.'),
    scope: z.string().optional().describe('refresh_token grant: a narrower scope (never wider).'),
    resource: z.string().optional().describe('RFC 8707 resource indicator.'),
  }),
  'TokenRequest',
  'application/x-www-form-urlencoded token request.',
);

/** Revocation request (form fields, RFC 7009 2.1). */
export const revocationRequestSchema = publicRequest(
  z.object({
    token: z
      .string()
      .describe('The access or refresh token to revoke. A refresh token revokes every token of its sign-in.'),
    token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
    client_id: z.string(),
  }),
  'RevocationRequest',
  'application/x-www-form-urlencoded revocation request.',
);

/** Token endpoint answer (RFC 6749 5.1). */
export const tokenResponseSchema = publicResponse(
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string(),
    scope: z.string(),
  }),
  'TokenResponse',
  'An access token (30 minutes) and a new refresh token (30 days, single use).',
);

/** RFC 8414 authorization server metadata. */
export const authorizationServerMetadataSchema = publicResponse(
  z.object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
    service_documentation: z.string(),
  }),
  'AuthorizationServerMetadata',
  'RFC 8414 metadata.',
);

/** RFC 9728 protected resource metadata. */
export const protectedResourceMetadataSchema = publicResponse(
  z.object({
    resource: z.string(),
    authorization_servers: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    bearer_methods_supported: z.array(z.string()),
    resource_name: z.string(),
    resource_documentation: z.string(),
  }),
  'ProtectedResourceMetadata',
  'RFC 9728 metadata.',
);
