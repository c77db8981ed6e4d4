/**
 * Request bodies, read with a limit on every runtime: JSON for the widget's writes (`readJson`) and the exact bytes
 * for signed webhooks (`readRawBody`). A body over its limit is refused as it arrives: at once when its declared
 * `Content-Length` is over (nothing read), else as soon as the bytes received pass the limit, whatever the framing
 * (a chunked body is never drained to its end); the answer then closes the connection (RFC 9112 section 6.1,
 * RFC 9110 section 15.5.14).
 */
import { BffHttpError } from '../errors.ts';
import type { BffRequest } from './request.ts';

/** Largest JSON body accepted, in bytes (16 kB; a checkout body is under 300 bytes). */
export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/** 413 `payload_too_large`; its answer closes the connection rather than read the rest of the body. */
export class BodyTooLargeError extends BffHttpError {
  /** The answer carries `Connection: close` (respond.ts). */
  readonly closeConnection = true;
  constructor(message: string) {
    super('payload_too_large', message);
    this.name = 'BodyTooLargeError';
  }
}

/** The message of a JSON body over its limit (as read, not declared). */
function tooLargeMessage(limitBytes: number): string {
  return `The body is larger than ${Math.floor(limitBytes / 1024)} kB: send only {"domain": "example.com"}.`;
}

/**
 * Refuses a body whose declared `Content-Length` is over `limitBytes`, before anything of it is read.
 * @throws {BodyTooLargeError} 413 `payload_too_large`.
 */
export function refuseDeclaredOverLimit(request: Request, limitBytes: number): void {
  const raw = request.headers.get('content-length');
  if (raw === null || !/^\d{1,20}$/.test(raw) || Number(raw) <= limitBytes) return;
  throw new BodyTooLargeError(
    `The body is larger than ${Math.floor(limitBytes / 1024)} kB (declared ${raw} bytes): send only the documented fields.`,
  );
}

/** The body decoded per `Content-Encoding` (identity, gzip, deflate), or 415 for another encoding. */
function decoded(request: Request): ReadableStream<Uint8Array> | null {
  const body = request.body;
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (body === null || encoding === 'identity' || encoding === '') return body;
  if (encoding === 'gzip' || encoding === 'deflate')
    return body.pipeThrough(
      new DecompressionStream(encoding) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
    );
  throw new BffHttpError(
    'unsupported_media_type',
    'Send the body as UTF-8 JSON (Content-Type: application/json), without content encoding.',
  );
}

/**
 * Reads a stream to its end, refusing it once more than `limitBytes` arrived (the rest is not read).
 * @throws {BodyTooLargeError} past the limit.
 */
async function readLimited(
  stream: ReadableStream<Uint8Array> | null,
  limitBytes: number,
  message: string,
): Promise<Uint8Array> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limitBytes) {
      void reader.cancel().catch(() => {});
      throw new BodyTooLargeError(message);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The media type and charset of a `Content-Type`, lower-cased. */
function mediaType(header: string | null): { type: string; charset: string | undefined } | undefined {
  if (header === null) return undefined;
  const [type, ...params] = header.split(';');
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1];
  return { type: type!.trim().toLowerCase(), charset: charset?.trim().replace(/^"|"$/g, '').toLowerCase() };
}

/**
 * Reads a JSON body: declared `Content-Type: application/json` (UTF-8), at most `limitBytes`, an object or array
 * (an empty body reads as `{}`). A cross-site form cannot send that media type without a preflight.
 * @returns the parsed value, for the route's schema to check.
 * @throws {BffHttpError} 415 `unsupported_media_type` (another media type, charset or content encoding), 413
 *   `payload_too_large` ({@link BodyTooLargeError}), 400 `validation_error` (not JSON).
 */
export async function readJson(req: BffRequest, limitBytes = JSON_BODY_LIMIT_BYTES): Promise<unknown> {
  const { request } = req;
  const got = request.headers.get('content-type');
  const media = mediaType(got);
  if (media?.type !== 'application/json')
    throw new BffHttpError(
      'unsupported_media_type',
      `Send the body as JSON with the header Content-Type: application/json${got ? ` (received ${JSON.stringify(got.slice(0, 60))})` : ''}.`,
    );
  refuseDeclaredOverLimit(request, limitBytes);
  if (media.charset !== undefined && !media.charset.startsWith('utf-'))
    throw new BffHttpError(
      'unsupported_media_type',
      'Send the body as UTF-8 JSON (Content-Type: application/json), without content encoding.',
    );
  const bytes = await readLimited(decoded(request), limitBytes, tooLargeMessage(limitBytes));
  if (bytes.byteLength === 0) return {};
  const text = new TextDecoder().decode(bytes);
  // Strict, as body-parser's: only an object or an array.
  const first = /^[\s\uFEFF]*(.)/.exec(text)?.[1];
  try {
    if (first !== '{' && first !== '[') throw new SyntaxError('not an object or array');
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new BffHttpError('validation_error', 'The body is not valid JSON: send {"domain": "example.com"}.');
  }
}

/**
 * Reads the body's exact bytes (any media type), at most `limitBytes`: what a signature is checked on.
 * @throws {BodyTooLargeError} 413 `payload_too_large`; {@link BffHttpError} 415 for an unknown content encoding.
 */
export async function readRawBody(req: BffRequest, limitBytes: number): Promise<Uint8Array> {
  refuseDeclaredOverLimit(req.request, limitBytes);
  return readLimited(decoded(req.request), limitBytes, `The body is larger than ${Math.floor(limitBytes / 1024)} kB.`);
}
