/**
 * The marketplace environment a credential belongs to (Partner API spec 1 "Environments"): SANDBOX (test domains,
 * synthetic prices) or LIVE (real domains). Both share one base URL; the key id's prefix names the environment
 * (`pk_live_…` for LIVE, `pk_test_…` for SANDBOX; spec 5.1 `X-Service-Key-Id`).
 */

/** True when a key id names a LIVE credential (Partner API spec 5.1: the environment prefix of the key id, `pk_live_`). */
export function isLiveKeyId(keyId: string): boolean {
  return keyId.startsWith('pk_live_');
}

/** `sandbox` or `live`. */
export type MarketplaceEnvironment = 'sandbox' | 'live';

/**
 * The environment of a public key id: `live` for `pk_live_…`, else `sandbox` (a test key id, or an injected client
 * without one: never mistaken for LIVE).
 */
export function environmentOf(keyId: string): MarketplaceEnvironment {
  return isLiveKeyId(keyId) ? 'live' : 'sandbox';
}
