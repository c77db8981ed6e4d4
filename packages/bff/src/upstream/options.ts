/**
 * The marketplace credential option (`marketplace`): its type, its checks, and the likely intended names of its
 * mistyped keys. Shared by every feature that calls the marketplace.
 */
import type { Dispatcher } from '@domainkit/client';
import { z } from 'zod';
import { isFunction, required, serviceUrl } from '../config/kit.ts';

/** The Partner API credential and transport the BFF signs its upstream requests with (Partner API spec 5.1). */
export interface MarketplaceOptions {
  /** The service address, such as `https://marketplace.example` (the client adds `/api/partner/v1`). */
  readonly baseUrl: string;
  /** Public key id of the credential (`pk_…`). */
  readonly keyId: string;
  /** API secret of the credential (`sk_…`). Held server-side only: never sent to the browser, never logged. */
  readonly secret: string;
  /** Signing header prefix; default `X-Service-`. */
  readonly headerPrefix?: string | undefined;
  /** undici dispatcher for upstream requests (a proxy agent, or a MockAgent in tests). */
  readonly dispatcher?: Dispatcher | undefined;
  /** Limit of one upstream attempt in milliseconds; default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** Upstream retries after the first attempt; default 2 (see the client's RETRY_RULES). */
  readonly maxRetries?: number | undefined;
}

/** The checks of `marketplace`. */
export const marketplaceSchema = z.strictObject({
  baseUrl: serviceUrl,
  keyId: z
    .string({ error: required('the public key id of your Partner API credential (pk_…)') })
    .min(1, 'must not be empty (the pk_… key id)'),
  secret: z
    .string({
      error: required(
        'the API secret of your Partner API credential (sk_…); load it from the environment, never from code',
      ),
    })
    .min(1, 'must not be empty (the sk_… API secret)')
    .refine(
      (v) => !v.startsWith('pk_'),
      'looks like a key id (pk_…): use the API secret (sk_…) here and the pk_… value as `keyId`',
    ),
  headerPrefix: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]*-$/, 'must be letters, digits and dashes ending in "-", such as "X-Service-"')
    .optional(),
  dispatcher: z
    .custom<Dispatcher>(
      (v) => typeof v === 'object' && v !== null && isFunction((v as { dispatch?: unknown }).dispatch),
      {
        error: 'must be an undici Dispatcher (Agent, ProxyAgent, MockAgent)',
      },
    )
    .optional(),
  timeoutMs: z.number().int().positive('must be a positive number of milliseconds').optional(),
  maxRetries: z.number().int().min(0, 'must be 0 or more').max(10, 'must be at most 10').optional(),
});

/** Likely intended names of mistyped `marketplace` keys. */
export const MARKETPLACE_ALIASES: Readonly<Record<string, string>> = {
  apiSecret: 'secret',
  api_secret: 'secret',
  secretKey: 'secret',
  apiKey: 'keyId',
  key: 'keyId',
  key_id: 'keyId',
  keyID: 'keyId',
  baseURL: 'baseUrl',
  base_url: 'baseUrl',
  url: 'baseUrl',
  prefix: 'headerPrefix',
  timeout: 'timeoutMs',
  retries: 'maxRetries',
};
