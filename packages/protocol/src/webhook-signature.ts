/**
 * Webhook signatures of Partner API spec 5.3: the `X-Service-Signature` header of a delivery is the lowercase hex of
 * HMAC-SHA256 with the webhook secret over the raw request body (no `v1=` prefix, no canonical string).
 *
 * Known answer: secret `It's a Secret to Everybody`, body `Hello, World!` →
 * `757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17`.
 */
import { hmacHex, hmacHexMatches, type HmacKeyInput } from './sign.ts';

/**
 * Signs a webhook payload (Partner API spec 5.3), on Web Crypto.
 * @param secret - the webhook secret, or its key from `createHmacKey`.
 * @param rawBody - the exact bytes that will be sent.
 * @returns lowercase hex, the value of the signature header.
 */
export function signWebhookPayload(secret: HmacKeyInput, rawBody: string | Uint8Array): Promise<string> {
  return hmacHex(secret, rawBody);
}

/** Raised when a webhook delivery's signature cannot be verified; the message says what to check. */
export class WebhookSignatureError extends Error {
  /** Stable code: `webhook_signature_missing`, `webhook_body_not_raw` or `webhook_signature_mismatch`. */
  readonly code: 'webhook_signature_missing' | 'webhook_body_not_raw' | 'webhook_signature_mismatch';

  constructor(code: WebhookSignatureError['code'], message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
    this.code = code;
  }
}

/** Inputs of {@link verifyWebhookSignature}. */
export interface VerifyWebhookInput {
  /** The webhook secret you registered with `PUT /api/partner/webhooks`, or its key. */
  readonly secret: HmacKeyInput;
  /** The raw request body bytes exactly as received (a Buffer, Uint8Array or string), never a parsed object. */
  readonly rawBody: unknown;
  /** The signature header value. */
  readonly signature: string | null | undefined;
}

/**
 * Verifies a delivery before anything trusts its data (Partner API spec 5.3, 6 rule 3), with `crypto.subtle.verify`,
 * which compares in constant time.
 * @returns once the signature matches.
 * @throws {WebhookSignatureError} (a rejection) with a message that says what went wrong (missing header, a body that was
 *   already parsed as JSON, or a mismatch).
 */
export async function verifyWebhookSignature(input: VerifyWebhookInput): Promise<void> {
  const { rawBody, signature } = input;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookSignatureError(
      'webhook_body_not_raw',
      'The webhook body must be the raw request bytes (Buffer or string). It looks already parsed: are you passing the raw request body, before any JSON parser?',
    );
  }
  if (!signature) {
    throw new WebhookSignatureError(
      'webhook_signature_missing',
      'The delivery has no signature header: it did not come from the marketplace.',
    );
  }
  const given = signature.trim().toLowerCase();
  if (!(await hmacHexMatches(input.secret, given, rawBody))) {
    throw new WebhookSignatureError(
      'webhook_signature_mismatch',
      'The webhook signature does not match the body. Check the webhook secret, and that the body is the exact raw bytes received (not re-serialised JSON).',
    );
  }
}
