/**
 * Webhook deliveries for any framework (Partner API spec 5.3, 6): raw bytes and the signature header in, a typed event out.
 *
 * The signature is the lowercase hex HMAC-SHA256 of the raw body with the webhook secret, checked in constant
 * time (Web Crypto's `crypto.subtle.verify`) before anything is parsed; verifying is therefore asynchronous. Errors say what went wrong and how to fix it, such as a body that an
 * `express.json()` middleware already parsed.
 *
 * Known answer (shared with the tests): secret `whsec_test_0123456789abcdef`, body
 * `{"id":"evt_0001","type":"order.settled","created_at":"2030-01-01T00:00:00Z","partner_id":"prt_demo","data":{"order":{"public_id":"ord_0001","domain":"coffeehouse.com","status":"SETTLED","sale_price_cents":250000,"currency":"USD"}}}`
 * → header `4add270d92d4138b5208877d101caa1eae20ff4a5f3a9fc610b9279a0f50b1d7`.
 *
 * @example
 * // Express: a raw body parser on this route only, before any JSON parser.
 * app.post('/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
 *   const event = await constructEvent(req.body, req.headers['x-service-signature'], process.env.WEBHOOK_SECRET!);
 *   res.sendStatus(200);
 *   queue(event);
 * });
 */
import {
  DEFAULT_HEADER_PREFIX,
  WebhookSignatureError,
  createHmacKey,
  eventSchema,
  headerNames,
  verifyWebhookSignature,
  type HmacKeyInput,
  type MarketplaceEvent,
} from '@domainkit/protocol';
import { formatIssues } from './zod-issues.ts';

export { WebhookSignatureError };

/** Raised when a delivery's signature verified but its body is not an event (not JSON, or breaks Partner API spec 2.5). */
export class WebhookPayloadError extends Error {
  /** Stable code. */
  readonly code = 'webhook_payload_invalid';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookPayloadError';
  }
}

/** A header value as frameworks hand it over: Node gives `string | string[] | undefined`, fetch `string | null`. */
export type SignatureHeaderValue = string | readonly string[] | null | undefined;

/** Request headers: Node's `IncomingHttpHeaders`, a plain record, or a fetch `Headers`. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function firstValue(value: SignatureHeaderValue): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  return value[0];
}

/** UTF-8 with U+FFFD for malformed bytes, a leading BOM kept (so a BOM-prefixed body is not JSON, as it is not). */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function rawText(rawBody: string | Uint8Array): string {
  return typeof rawBody === 'string' ? rawBody : utf8.decode(rawBody);
}

function checkRaw(rawBody: unknown): asserts rawBody is string | Uint8Array {
  if (rawBody === undefined || rawBody === null) {
    throw new WebhookSignatureError(
      'webhook_body_not_raw',
      'The webhook body is empty or missing: pass the raw request body bytes (for Express, `express.raw({ type: "application/json" })` on this route, before any JSON parser).',
    );
  }
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookSignatureError(
      'webhook_body_not_raw',
      'The webhook body was already parsed (received an object, not bytes): verify the raw request body instead. In Express, use `express.raw({ type: "application/json" })` on the webhook route and mount it before `express.json()`.',
    );
  }
  const head = typeof rawBody === 'string' ? rawBody.slice(0, 15) : utf8.decode(rawBody.subarray(0, 15));
  if (head === '[object Object]') {
    throw new WebhookSignatureError(
      'webhook_body_not_raw',
      'The webhook body reads "[object Object]": a parsed body was turned back into a string. Pass the raw request bytes exactly as received.',
    );
  }
}

function parseEvent(rawBody: string | Uint8Array): MarketplaceEvent {
  let json: unknown;
  try {
    json = JSON.parse(rawText(rawBody));
  } catch (cause) {
    throw new WebhookPayloadError('The webhook body is signed correctly but is not JSON.', { cause });
  }
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) {
    throw new WebhookPayloadError(
      `The webhook body is not an event of Partner API spec 2.5: ${formatIssues(parsed.error)}.`,
      {
        cause: parsed.error,
      },
    );
  }
  return parsed.data;
}

/**
 * Verifies a webhook delivery and returns its event (Partner API spec 5.3, 2.5). Unknown fields are kept; `type` may be a
 * type this version does not know.
 *
 * @param rawBody - the request body exactly as received: a Buffer, Uint8Array or string, never a parsed object.
 * @param signatureHeader - the value of the `X-Service-Signature` header (lowercase hex, no `v1=`).
 * @param secret - the webhook secret registered with `PUT /api/partner/webhooks`, or its key from `createHmacKey`.
 * @returns the event, once the signature is verified (asynchronous: Web Crypto verifies). Every error below is a
 *   rejection.
 * @throws {WebhookSignatureError} `webhook_body_not_raw` (a parsed or empty body), `webhook_signature_missing`,
 *   `webhook_signature_mismatch` (wrong secret, or bytes changed, for example re-serialised JSON).
 * @throws {WebhookPayloadError} when the verified body is not JSON or not an event.
 * @throws {TypeError} when the secret is empty.
 */
export async function constructEvent(
  rawBody: unknown,
  signatureHeader: SignatureHeaderValue,
  secret: HmacKeyInput,
): Promise<MarketplaceEvent> {
  const key = typeof secret === 'string' ? createHmacKey(secret) : secret;
  checkRaw(rawBody);
  await verifyWebhookSignature({ secret: await key, rawBody, signature: firstValue(signatureHeader) });
  return parseEvent(rawBody);
}

/** A verifier for one webhook secret; its HMAC key is created once. */
export interface WebhookVerifier {
  /** The signature header's name, such as `X-Service-Signature`. */
  readonly signatureHeader: string;
  /**
   * Verifies a delivery and returns its event; `headers` may be the request's headers (the signature header is
   * found in them, case-insensitively) or the signature header's value.
   * @throws as {@link constructEvent}.
   */
  constructEvent(rawBody: unknown, headers: WebhookHeaders | SignatureHeaderValue): Promise<MarketplaceEvent>;
}

/**
 * Creates a {@link WebhookVerifier} for a webhook secret.
 * @param options.secret - the webhook secret (at least 16 characters is what registration accepts).
 * @param options.headerPrefix - signing header prefix, default `X-Service-`.
 * @throws {TypeError} for an empty secret or a bad prefix.
 */
export function createWebhookVerifier(options: { secret: string; headerPrefix?: string | undefined }): WebhookVerifier {
  const key = createHmacKey(options.secret);
  const signatureHeader = headerNames(options.headerPrefix ?? DEFAULT_HEADER_PREFIX).signature;
  const lower = signatureHeader.toLowerCase();
  return {
    signatureHeader,
    async constructEvent(rawBody, headers) {
      let value: SignatureHeaderValue;
      if (headers instanceof Headers) value = headers.get(signatureHeader);
      else if (typeof headers === 'object' && headers !== null && !Array.isArray(headers)) {
        const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
        value = record[lower] ?? Object.entries(record).find(([k]) => k.toLowerCase() === lower)?.[1];
      } else value = headers as SignatureHeaderValue;
      return constructEvent(rawBody, value, await key);
    },
  };
}
