/**
 * `domainkit-sandbox` reads its command line strictly: `--help` prints the usage and exits 0; a mistyped flag
 * (`start --chekc`), an unknown command (`strat`), a bad value or no command at all is a usage error (exit 64,
 * EX_USAGE, as `domainkit-bff`) with a did-you-mean where one is near and the usage, and never starts the sandbox.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'dk-sandbox-cli-'));
const readyFile = join(dir, 'ready');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command; a sandbox that started never exits by itself, so the timeout ends it (status null). */
function cli(...args: string[]) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' };
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `start` with a fresh data folder on a free port, and a ready file that appears only once it listens. */
const start = (...extra: string[]) =>
  cli('start', '--port', '0', '--data-dir', join(dir, 'data'), '--ready-file', readyFile, ...extra);

describe('domainkit-sandbox command line', () => {
  it.each([[['--help']], [['start', '--help']]])('%j prints the usage and exits 0', (args) => {
    const run = cli(...args);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: domainkit-sandbox');
  });

  it('a mistyped flag is a usage error with a did-you-mean, and starts nothing', () => {
    const run = start('--chekc');
    expect(existsSync(readyFile), 'the sandbox started').toBe(false);
    expect(run.status, run.stderr).toBe(64);
    expect(run.stderr).toContain("unknown option '--chekc'");
    expect(run.stderr).toContain('Did you mean');
    expect(run.stderr).toContain('Usage: domainkit-sandbox start');
  });

  it('an unknown command is a usage error with a did-you-mean', () => {
    const run = cli('strat', '--port', '0');
    expect(run.status, run.stderr).toBe(64);
    expect(run.stderr).toContain("unknown command 'strat'");
    expect(run.stderr).toContain('Did you mean start?');
  });

  it('a bad value is a usage error, and starts nothing', () => {
    const run = start('--fault-error-rate', '2');
    expect(existsSync(readyFile), 'the sandbox started').toBe(false);
    expect(run.status, run.stderr).toBe(64);
    expect(run.stderr).toContain('fault-error-rate must be a number from 0 to 1');
  });

  it('no command is a usage error that prints the usage', () => {
    const run = cli();
    expect(run.status, run.stderr).toBe(64);
    expect(run.stderr).toContain('Usage: domainkit-sandbox');
  });
});
