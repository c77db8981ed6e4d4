/**
 * Authentication of Partner API requests (Partner API spec 5.1, 7), for everything under `/api/partner` (the `/v1` routes and
 * the unversioned `/webhooks`). Checks, in order; the first failure answers:
 *
 * 1. `missing_credentials` (401): no key id header;
 * 2. `missing_signature_headers` (401): key id present, timestamp, nonce or signature absent;
 * 3. `invalid_timestamp` (401): not whole Unix seconds, or more than ±300 s from server time;
 * 4. `invalid_signature` (401): unknown (or revoked) key id;
 * 5. `invalid_signature` (401): the `v1=` HMAC over the canonical string (full path as requested, canonical query
 *    from the raw URL, SHA-256 of the raw body bytes) does not match, compared in constant time;
 * 6. `replay_detected` (401): the nonce is already tracked for this credential (recorded only now, after the
 *    signature verified, so a failed attempt never consumes its nonce);
 * 7. `forbidden` (403): a LIVE credential not yet approved.
 *
 * Failed authentications are throttled per client address and per key id (failure-throttle.ts): 429
 * `rate_limited` with `Retry-After` instead of the 401, without locking out a partner whose key id others forge.
 *
 * The scope check follows per route (`authorize`, in authorize.ts). The raw body must already be a Buffer (`express.raw`).
 */
import { createHmacKey, headerNames, readSignatureHeaders, verifySignature } from '@domainkit/protocol';
import type { Request, RequestHandler, Response } from 'express';
import type { Clock } from '../clock.ts';
import type { CredentialRow, SandboxDb } from '../db/tables.ts';
import { findActiveCredential } from '../credentials/store.ts';
import { apiError } from '../http/api-error.ts';
import { splitRawUrl } from '../http/query.ts';
import { requestState } from '../http/request-context.ts';
import { AuthFailureThrottle, isAuthFailure } from './failure-throttle.ts';
import type { NonceStore } from './nonces.ts';

/** Longest nonce accepted (a UUID v4 is 36 characters). */
export const MAX_NONCE_LENGTH = 128;

/** What authentication needs. */
export interface AuthenticateOptions {
  readonly db: SandboxDb;
  readonly nonces: NonceStore;
  readonly clock: Clock;
  /** Header prefix, default `X-Service-`. */
  readonly headerPrefix: string;
  /** Failed-authentication throttling (default: a fresh one with {@link AUTH_FAILURE_LIMITS}). */
  readonly failureThrottle?: AuthFailureThrottle | undefined;
}

/** The HMAC key of a credential, as {@link createHmacKey} imports it (Web Crypto, asynchronous). */
type HmacKey = ReturnType<typeof createHmacKey>;

/** Keeps one HMAC `CryptoKey` per credential (importing the secret on every request is a second Web Crypto call). */
function createKeyCache(): (credential: CredentialRow) => HmacKey {
  const cache = new Map<string, { secret: string; key: HmacKey }>();
  return (credential) => {
    const hit = cache.get(credential.key_id);
    if (hit !== undefined && hit.secret === credential.secret) return hit.key;
    if (cache.size >= 10_000) cache.clear();
    const key = createHmacKey(credential.secret);
    cache.set(credential.key_id, { secret: credential.secret, key });
    return key;
  };
}

/** The authentication middleware (see the module comment for the order of checks). */
export function authenticate(options: AuthenticateOptions): RequestHandler {
  const { db, nonces, clock, headerPrefix } = options;
  const names = headerNames(headerPrefix);
  const keyFor = createKeyCache();
  const throttle = options.failureThrottle ?? new AuthFailureThrottle();
  return async function authenticatePartnerRequest(req, res, next) {
    const now = clock();
    const address = req.socket.remoteAddress ?? 'unknown';
    const blocked = throttle.checkAddress(address, now);
    if (blocked !== undefined) throw blocked;
    try {
      await verifyPartnerRequest(req, res, now);
    } catch (error) {
      if (!isAuthFailure(error)) throw error;
      const keyId = req.headers[names.keyId.toLowerCase()];
      const limited = throttle.recordFailure(address, typeof keyId === 'string' ? keyId.trim() : undefined, now);
      throw limited ?? error;
    }
    next();
  };

  async function verifyPartnerRequest(req: Request, res: Response, now: number): Promise<void> {
    const headers = readSignatureHeaders(req.headers, { headerPrefix, now });
    if (headers.nonce.length > MAX_NONCE_LENGTH) {
      throw apiError(
        'validation_error',
        `${names.nonce} must be at most ${MAX_NONCE_LENGTH} characters (a UUID v4 is recommended).`,
      );
    }
    const credential = await findActiveCredential(db, headers.keyId);
    if (credential === undefined) {
      throw apiError(
        'invalid_signature',
        `The key id in ${names.keyId} is unknown to this marketplace: check that it is a public key id (pk_test_… for SANDBOX, pk_live_… for LIVE) issued by this sandbox, and not the secret.`,
      );
    }
    const { path, query } = splitRawUrl(req.originalUrl);
    const body: unknown = req.body;
    await verifySignature({
      key: await keyFor(credential),
      method: req.method,
      path,
      query,
      body: Buffer.isBuffer(body) ? body : null,
      timestamp: headers.timestamp,
      nonce: headers.nonce,
      signature: headers.signature,
    });
    if (!(await nonces.record(credential.key_id, headers.nonce, now))) {
      throw apiError(
        'replay_detected',
        `This ${names.nonce} was already used: send a fresh nonce (a new UUID v4) with every request, including retries.`,
      );
    }
    requestState(res).credential = credential;
    if (credential.environment === 'LIVE' && !credential.approved) {
      throw apiError(
        'forbidden',
        'This LIVE credential awaits approval: production access is switched on after approval. Use your SANDBOX credential (pk_test_…) until then.',
      );
    }
  }
}
