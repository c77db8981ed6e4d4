/**
 * Deno without `--allow-env` throws on any read of `process.env`: validating the options (which asks NODE_ENV for
 * the production-only refusals) must still work there, reading NODE_ENV as unset.
 */
import { expect, it, vi } from 'vitest';
import { validateBffOptions } from '../src/options.ts';

it('validates options where reading the environment throws, as with NODE_ENV unset', () => {
  const refused = new Proxy(
    {},
    {
      get() {
        throw new Error('NotCapable: Requires env access to "NODE_ENV", run again with the --allow-env flag');
      },
    },
  );
  const options = {
    marketplace: { baseUrl: 'http://127.0.0.1:9', keyId: 'pk_test_envrefused1', secret: 'sk_test_envRefusedSecret01' },
    profile: 'test',
  };
  vi.stubGlobal('process', { ...process, env: refused });
  let outcome: unknown;
  try {
    outcome = validateBffOptions(options);
  } catch (error) {
    outcome = error;
  } finally {
    vi.unstubAllGlobals();
  }
  expect(outcome).not.toBeInstanceOf(Error);
  expect(outcome).toMatchObject({ profile: 'test' });
});
