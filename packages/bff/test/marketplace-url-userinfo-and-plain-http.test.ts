/**
 * Issue 26, finding 13: `domainkit-bff --check` echoed the marketplace URL's userinfo (a password included), and a
 * plain `http://` marketplace URL was accepted under NODE_ENV=production, where the webhook secret then travels in
 * clear at start. Now userinfo is refused (the Partner API authenticates by signature; fetch cannot send it anyway)
 * and never printed, and a non-loopback `http://` marketplace is refused in production (exit 78 for the CLI).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BffOptionsError, createBff } from '../src/index.ts';
import { spawnCli, startCli, type CliProcess } from '../../../test/setup/child-process.ts';
import { KEY_ID, SECRET } from './helpers.ts';

const running: CliProcess[] = [];
const nodeEnv = process.env.NODE_ENV;
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
  process.env.NODE_ENV = nodeEnv;
});

/** Runs `domainkit-bff --check` with `env`; resolves with its exit code and everything it printed. */
async function check(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const cli = spawnCli('bff', ['--check'], env);
  const code = await cli.closed;
  return { code, output: cli.stdout() + cli.stderr() };
}

const credential = { DOMAINKIT_KEY_ID: KEY_ID, DOMAINKIT_API_SECRET: SECRET };

describe('the marketplace URL', () => {
  it('never has its user name or password printed by --check', async () => {
    const { code, output } = await check({
      ...credential,
      DOMAINKIT_API_BASE_URL: 'https://shopadmin:hunter2-pa55@127.0.0.1:1',
    });

    expect(output).not.toContain('hunter2-pa55');
    expect(output).not.toContain('shopadmin');
    expect(code).toBe(78);
    expect(output).toMatch(/DOMAINKIT_API_BASE_URL.*must not carry a user name or password/);
  });

  it('is refused over plain http under NODE_ENV=production: the standalone server exits 78', async () => {
    const outcome = await startCli('bff', [], {
      ...credential,
      DOMAINKIT_API_BASE_URL: 'http://marketplace.example',
      DOMAINKIT_WEBHOOK_SECRET: 'whsec_test_PlainHttpSecret0001',
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
    }).then(
      (cli) => {
        running.push(cli);
        return 'listening';
      },
      (error: Error) => error.message,
    );

    expect(outcome).toMatch(/exited \(78\)/);
    expect(outcome).toMatch(/DOMAINKIT_API_BASE_URL.*must be https:\/\/ when NODE_ENV is "production"/);
    expect(outcome).not.toContain('whsec_test_PlainHttpSecret0001');
  });

  it('is refused over plain http in production by createBff too, but a loopback address is allowed', () => {
    process.env.NODE_ENV = 'production';
    const options = (baseUrl: string) => ({ marketplace: { baseUrl, keyId: KEY_ID, secret: SECRET } });

    expect(() => createBff(options('http://marketplace.example'))).toThrow(BffOptionsError);
    expect(() => createBff(options('http://marketplace.example'))).toThrow(
      /`marketplace.baseUrl` must be https:\/\/ when NODE_ENV is "production"/,
    );
    for (const local of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010']) {
      const bff = createBff(options(local));
      void bff.close();
    }
    process.env.NODE_ENV = 'development';
    void createBff(options('http://marketplace.example')).close();
  });
});
