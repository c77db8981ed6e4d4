/**
 * Credential scopes and environments of the Partner API (Partner API spec 1 "Environments", 5.1 "Scopes").
 */
import { z } from 'zod';

/** The seven scopes of Partner API spec 5.1, in the spec's order. */
export const SCOPES = ['search', 'embed', 'buy', 'broker', 'refer', 'report', 'webhook'] as const;

/** A Partner API scope (Partner API spec 5.1). */
export const scopeSchema = z.enum(SCOPES, { error: `must be one of ${SCOPES.join(', ')}` });
export type Scope = z.infer<typeof scopeSchema>;

/** The environment a credential selects (Partner API spec 1, 9.4): SANDBOX sees synthetic inventory, LIVE the "real" one. */
export const ENVIRONMENTS = ['SANDBOX', 'LIVE'] as const;
export const environmentSchema = z.enum(ENVIRONMENTS, { error: 'must be "SANDBOX" or "LIVE"' });
export type Environment = z.infer<typeof environmentSchema>;

/** Key id and secret prefixes by environment: `pk_test_`/`sk_test_` for SANDBOX, `pk_live_`/`sk_live_` for LIVE. */
export const KEY_PREFIXES = {
  SANDBOX: { keyId: 'pk_test_', secret: 'sk_test_' },
  LIVE: { keyId: 'pk_live_', secret: 'sk_live_' },
} as const satisfies Record<Environment, { keyId: string; secret: string }>;
