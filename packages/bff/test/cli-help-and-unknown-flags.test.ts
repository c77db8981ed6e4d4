/**
 * `domainkit-bff` reads its command line strictly: `--help` prints the usage and exits 0, a mistyped flag
 * (`--chekc`) or a stray argument is a usage error (exit 64, EX_USAGE, with a did-you-mean and the usage), and
 * neither ever starts the server, even with an environment that would start it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BFF_VERSION } from '../src/version.ts';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'dk-bff-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** An environment the BFF starts with (its marketplace need not answer for it to listen). */
const env = {
  PATH: process.env.PATH ?? '',
  DOMAINKIT_API_BASE_URL: 'http://127.0.0.1:9',
  DOMAINKIT_KEY_ID: 'pk_test_cli',
  DOMAINKIT_API_SECRET: 'sk_test_cli_0123456789abcdef0123456789abcdef',
  DOMAINKIT_DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
};

/** Runs the command; a server that started never exits by itself, so the timeout ends it (status null). */
function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('domainkit-bff command line', () => {
  it.each([['--help'], ['-h']])('%s prints the usage and exits 0 without starting', (flag) => {
    const run = cli(flag);
    expect(run.stdout).not.toContain('listening');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: domainkit-bff');
    expect(run.stdout).toContain('--check');
    expect(run.stdout).toContain('DOMAINKIT_API_BASE_URL');
  });

  it('--version prints the version and exits 0', () => {
    const run = cli('--version');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(BFF_VERSION);
  });

  it('a mistyped flag is a usage error with a did-you-mean, and starts nothing', () => {
    const run = cli('--chekc');
    expect(run.stdout).not.toContain('listening');
    expect(run.status, run.stdout).toBe(64);
    expect(run.stderr).toContain("unknown option '--chekc'");
    expect(run.stderr).toContain("did you mean '--check'?");
    expect(run.stderr).toContain('Usage: domainkit-bff');
  });

  it.each([['start'], ['--port=8080'], ['-x']])('%s is a usage error, and starts nothing', (arg) => {
    const run = cli(arg);
    expect(run.stdout).not.toContain('listening');
    expect(run.status, run.stdout).toBe(64);
    expect(run.stderr).toContain('Usage: domainkit-bff');
  });
});
