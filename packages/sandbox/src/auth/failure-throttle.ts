/**
 * Throttling of failed Partner API authentication (docs/spec-decisions.md "Failed-authentication throttling"):
 * floods of bad signatures answer 429 `rate_limited` with `Retry-After` instead of an unlimited stream of 401s.
 *
 * Counted per client address first: an address whose requests failed authentication more than
 * {@link AUTH_FAILURE_LIMITS}.perAddress times in a window is refused (429) before its signatures are checked, until
 * the window ends. Counted per key id second, but a key id over its limit turns only *failing* requests into 429: a
 * request with a valid signature under that key id still passes, so a flood of forged requests naming a partner's
 * key id from many addresses never locks that partner out.
 *
 * Fixed one-minute windows in process memory (state is lost on restart, which only forgives). `POST /admin/reset`
 * clears them; the `authFailureLimit` option (`SANDBOX_AUTH_FAILURE_LIMIT`) sets the per-address limit or switches
 * the throttle off, so a partner's negative-path test suite is not answered 429.
 */
import { SpecError } from '../http/api-error.ts';

/** Failed authentications allowed per window. */
export interface AuthFailureLimits {
  /** From one client address, whatever key id it names; 0 switches the throttle off. */
  readonly perAddress: number;
  /** Naming one key id, from any address; only failing requests are refused beyond it. */
  readonly perKeyId: number;
  /** Window length in seconds. */
  readonly windowSeconds: number;
}

/** The default limits (docs/spec-decisions.md "Failed-authentication throttling"). */
export const AUTH_FAILURE_LIMITS: AuthFailureLimits = {
  perAddress: 100,
  perKeyId: 300,
  windowSeconds: 60,
};

/**
 * The limits for `perAddress` failures per address and minute (the `authFailureLimit` option): a key id is allowed
 * three times as many, as by default. `0` switches the throttle off.
 */
export function authFailureLimits(perAddress: number): AuthFailureLimits {
  return { perAddress, perKeyId: perAddress * 3, windowSeconds: AUTH_FAILURE_LIMITS.windowSeconds };
}

/** Error codes that count as a failed authentication. */
const AUTH_FAILURES = new Set([
  'missing_credentials',
  'missing_signature_headers',
  'invalid_timestamp',
  'invalid_signature',
  'replay_detected',
]);

/** True when `error` is a failed authentication (a 401 of Partner API spec 7's authentication codes). */
export function isAuthFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && AUTH_FAILURES.has(String((error as { code?: unknown }).code));
}

interface Window {
  start: number;
  count: number;
}

/** Failure counters per address and per key id, with the 429 decisions. */
export class AuthFailureThrottle {
  readonly #addresses = new Map<string, Window>();
  readonly #keyIds = new Map<string, Window>();
  readonly #limits: AuthFailureLimits;

  /** @param limits - the limits; `perAddress: 0` makes a throttle that never refuses (nor counts). */
  constructor(limits: AuthFailureLimits = AUTH_FAILURE_LIMITS) {
    this.#limits = limits;
  }

  /** False when switched off (`perAddress` 0). */
  get enabled(): boolean {
    return this.#limits.perAddress > 0;
  }

  #window(map: Map<string, Window>, key: string, now: number): Window {
    const windowMs = this.#limits.windowSeconds * 1000;
    let w = map.get(key);
    if (w === undefined || now - w.start >= windowMs) {
      if (map.size >= 50_000) map.clear(); // bounded memory under a flood of distinct keys
      w = { start: now, count: 0 };
      map.set(key, w);
    }
    return w;
  }

  #refusal(w: Window, now: number, what: string): SpecError {
    const retryAfter = Math.max(1, Math.ceil((w.start + this.#limits.windowSeconds * 1000 - now) / 1000));
    return new SpecError(
      'rate_limited',
      `Too many requests failed authentication ${what}. Fix the signing (see the previous 401 answers) and retry after ${retryAfter} s (Retry-After).`,
      { retry_after: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }

  /** The 429 for an address over its limit (checked before authentication), or `undefined`. */
  checkAddress(address: string, now: number): SpecError | undefined {
    if (!this.enabled) return undefined;
    const w = this.#window(this.#addresses, address, now);
    return w.count >= this.#limits.perAddress ? this.#refusal(w, now, 'from this address') : undefined;
  }

  /**
   * Counts one failed authentication; returns the 429 to answer instead of the 401 when the address or the key id
   * is over its limit, else `undefined`.
   */
  recordFailure(address: string, keyId: string | undefined, now: number): SpecError | undefined {
    if (!this.enabled) return undefined;
    const a = this.#window(this.#addresses, address, now);
    a.count++;
    if (a.count > this.#limits.perAddress) return this.#refusal(a, now, 'from this address');
    if (keyId === undefined || keyId === '') return undefined;
    const k = this.#window(this.#keyIds, keyId.slice(0, 100), now);
    k.count++;
    return k.count > this.#limits.perKeyId ? this.#refusal(k, now, 'for this key id') : undefined;
  }

  /** Forgets every window (`POST /admin/reset`). */
  clear(): void {
    this.#addresses.clear();
    this.#keyIds.clear();
  }
}
