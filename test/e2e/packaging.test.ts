/**
 * The packages as a partner gets them from npm: every publishable package is packed with `pnpm pack` and the
 * tarballs are installed with npm into one temporary project outside the workspace (no workspace links; their
 * third-party dependencies come from the npm registry). In that project:
 *
 * - `npx domainkit-sandbox --help` runs, `credentials` prints the CI credential and `start` serves the marketplace;
 * - a ten-line Express 5 app mounting the BFF (`consumer/src/server.ts`) answers a search from that sandbox, and a
 *   Node script on `@domainkit/client` searches it too;
 * - a React 19 + TypeScript file and Vue 3 single-file components using the widget's and the console's elements with
 *   typed events (and mistakes that must be rejected) type-check with `vue-tsc` under `moduleResolution` bundler,
 *   node16 and node, with `skipLibCheck` off (bundler, node) so the shipped declarations are checked too.
 *
 * The widget's `dist/` must be built first (`pnpm test` does); the other packages are built here.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startProcess, type WatchedProcess } from '../setup/child-process.ts';
import { pointProjectAtTarballs } from '../setup/tarballs.ts';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const PACKAGES = ['protocol', 'client', 'bff', 'sandbox', 'widget', 'console'] as const;

let project: string;
const timings: Record<string, number> = {};
const children: WatchedProcess[] = [];

/** Runs a command in the consumer project; resolves with its stdout, rejects with its output on failure. */
async function inProject(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, {
      cwd: project,
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/**
 * Starts a long-running server of `component` in the project, in a process group of its own (npx runs the bin through
 * a shell), watched for defects; resolves once `ready(output)` returns a value.
 */
function startInProject<T>(
  component: 'bff' | 'sandbox',
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: (output: string) => T | undefined,
): Promise<T> {
  const child = startProcess(command, args, {
    env: { ...process.env, ...env, NODE_OPTIONS: '' },
    component,
    cwd: project,
    group: true,
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = ready(child.output());
      if (value !== undefined) resolve(value);
    };
    child.child.stdout.on('data', check);
    void child.closed.then((code) =>
      reject(new Error(`${command} ${args.join(' ')} exited (${code}):\n${child.output()}`)),
    );
  });
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[label] = Math.round(performance.now() - started);
  }
}

describe('the packages installed from their tarballs, outside the workspace', () => {
  beforeAll(async () => {
    if (!existsSync(join(root, 'packages/widget/dist/index.js'))) {
      throw new Error('Build the widget first: pnpm --filter @domainkit/widget build');
    }
    project = await mkdtemp(join(tmpdir(), 'domainkit-consumer-'));
    const tarballs = join(project, 'tarballs');
    await mkdir(tarballs);
    // The widget's dist/ is built by `pnpm test` before any suite runs (other suites read it meanwhile).
    await timed('build', () =>
      run(
        'pnpm',
        ['-r', ...PACKAGES.filter((p) => p !== 'widget').flatMap((p) => ['--filter', `./packages/${p}`]), 'build'],
        {
          cwd: root,
        },
      ),
    );
    await timed('pack', () =>
      Promise.all(
        PACKAGES.map((name) =>
          run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(root, 'packages', name) }),
        ),
      ),
    );
    await pointProjectAtTarballs(project, join(root, 'test/packaging/consumer'), PACKAGES);
    await timed('npm install', () =>
      inProject('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error']),
    );
  }, 900_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => child.stop('SIGTERM')));
    if (project) await rm(project, { recursive: true, force: true });
    console.log(`packaging test timings (ms): ${JSON.stringify(timings)}`);
  }, 30_000);

  it('installs real files: no workspace link, dist/ with types, src/ for the source maps', async () => {
    for (const name of PACKAGES) {
      const dir = join(project, 'node_modules/@domainkit', name);
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      const entries = JSON.stringify([manifest.exports, manifest.main, manifest.types, manifest.bin]);
      expect(entries, `${name}: entry points in dist/, never src/`).not.toMatch(/\.\/src\//);
      const ranges = JSON.stringify([manifest.dependencies, manifest.peerDependencies]);
      expect(ranges, `${name}: real version ranges`).not.toContain('workspace:');
      expect(manifest.engines, `${name}: engines`).toEqual({ node: '>=22.19' });
      expect(existsSync(join(dir, 'LICENSE')) && existsSync(join(dir, 'README.md')), `${name}: LICENSE, README`).toBe(
        true,
      );
      expect(existsSync(join(dir, 'dist/index.d.ts')), `${name}: types`).toBe(true);
      const map = JSON.parse(await readFile(join(dir, 'dist/index.js.map'), 'utf8')) as { sources: string[] };
      expect(existsSync(join(dir, 'dist', map.sources[0]!)), `${name}: the source map's source is shipped`).toBe(true);
    }
    const banner = (
      await readFile(join(project, 'node_modules/@domainkit/widget/dist/domainkit.min.js'), 'utf8')
    ).split('\n')[0];
    expect(banner).toMatch(/^\/\*! @domainkit\/widget \d+\.\d+\.\d+ MIT/);
  });

  it('npx domainkit-sandbox: --help, credentials and start; the Express app and a Node script search it', async () => {
    const help = await timed('sandbox --help', () => inProject('npx', ['--no-install', 'domainkit-sandbox', '--help']));
    expect(help).toContain('start');
    expect(help).toContain('credentials');
    const dataDir = join(project, '.data/sandbox');
    const credential = JSON.parse(
      await inProject('npx', ['--no-install', 'domainkit-sandbox', 'credentials', '--data-dir', dataDir]),
    ) as { key_id: string; secret: string; webhook_secret: string };
    const readyFile = join(project, 'sandbox-ready');
    const sandboxUrl = await timed('sandbox start', async () => {
      // The installed bin itself (what npx runs): npm exec would put it in a process group of its own.
      const sandbox = startInProject(
        'sandbox',
        join(project, 'node_modules/.bin/domainkit-sandbox'),
        ['start', '--port', '0', '--data-dir', dataDir, '--ready-file', readyFile],
        { LOG_LEVEL: 'warn' },
        () => undefined,
      );
      let exited: unknown;
      sandbox.catch((error: unknown) => (exited = error));
      while (!existsSync(readyFile)) {
        if (exited) throw exited;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return (await readFile(readyFile, 'utf8')).trim();
    });
    expect(sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const env = {
      DOMAINKIT_API_BASE_URL: sandboxUrl,
      DOMAINKIT_KEY_ID: credential.key_id,
      DOMAINKIT_API_SECRET: credential.secret,
      DOMAINKIT_WEBHOOK_SECRET: credential.webhook_secret,
    };

    const bffUrl = await timed('express app start', () =>
      startInProject('bff', 'node', ['src/server.ts'], env, (output) => {
        const port = /listening .*"port":(\d+)/.exec(output)?.[1];
        return port ? `http://127.0.0.1:${port}/dk` : undefined;
      }),
    );
    // As a deploy would: wait until the BFF says it is ready (its database open, its credential proven).
    await vi.waitFor(
      async () => {
        const ready = await fetch(`${bffUrl}/readyz`);
        expect(ready.status, await ready.text()).toBe(200);
      },
      { timeout: 30_000, interval: 250 },
    );
    // A fresh BFF may answer its first searches `busy` while its search budget fills (an open item of the budget
    // work); a client retries `busy` after its `retry_after`, as this does.
    let answer = await fetch(`${bffUrl}/search?q=coffee`);
    for (let i = 0; i < 10 && answer.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      answer = await fetch(`${bffUrl}/search?q=coffee`);
    }
    expect(answer.status, await answer.clone().text()).toBe(200);
    const body = (await answer.json()) as { results: Array<{ domain: string }> };
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results[0]!.domain).toMatch(/^[a-z0-9-]+\.[a-z]+$/);

    const first = JSON.parse(await inProject('node', ['src/client.ts'], env)) as { domain: string };
    expect(first.domain).toMatch(/\./);
  }, 300_000);

  for (const resolution of ['bundler', 'node16', 'node']) {
    it(`type-checks the React and Vue files with vue-tsc under moduleResolution ${resolution}`, async () => {
      await timed(`vue-tsc ${resolution}`, () =>
        inProject(join(project, 'node_modules/.bin/vue-tsc'), ['-p', `tsconfig.${resolution}.json`]),
      );
    }, 600_000); // generous: a shared CI machine may be slow; nothing here measures speed
  }
});
