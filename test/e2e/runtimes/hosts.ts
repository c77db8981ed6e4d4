/**
 * The BFF hosted on each runtime, as a partner gets it: the packed `@domainkit/*` tarballs installed with npm into one
 * project outside the workspace (`test/packaging/runtimes`, whose own dependencies, express, hono, @hono/node-server,
 * next and react, come from the npm registry), and one small entry file per host in it:
 *
 * | host       | entry                        | started with                                                  |
 * | ---------- | ---------------------------- | ------------------------------------------------------------- |
 * | `express`  | express.mjs (`createBff`)    | node                                                          |
 * | `node`     | node-http.mjs (`toNodeListener`) | node                                                      |
 * | `next`     | app/dk/[...path]/route.js    | `next build` once, then `next start`                          |
 * | `hono`     | hono.mjs (`c.req.raw`)      | node (@hono/node-server)                                      |
 * | `bun`      | bun.mjs (`Bun.serve`)        | bun, from the `bun` npm package's platform binary             |
 * | `deno`     | deno.mjs (`Deno.serve`)      | deno, from the `deno` npm package's platform binary           |
 * | `workerd`  | worker.mjs (`createWorker`)  | bundled with esbuild, served by miniflare (its workerd binary)|
 *
 * Each host serves the BFF under `/dk` and, beside it, `/bare`: a route of the same runtime answering a constant (the
 * bench's baseline), and `/bare-same` when the bench gives it the cached search's answer to answer as a constant.
 * Every server binds 127.0.0.1 on a port the system picks (the host prints it, or miniflare reports it) and is
 * stopped by {@link RunningHost.stop}. Runtime binaries are the ones npm packages ship: resolved from this workspace's
 * node_modules (bun, deno, miniflare's workerd), so no postinstall step and no download runs.
 *
 * Storage: PGlite in memory where it runs, PostgreSQL (its own schema per host) where it cannot ({@link HOSTS}).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { startProcess, type WatchedProcess } from '../../setup/child-process.ts';
import { pointProjectAtTarballs } from '../../setup/tarballs.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);
const requireHere = createRequire(join(root, 'test', 'package.json'));

/** The packages a BFF host needs (the sandbox runs in the test process, from the workspace). */
const PACKAGES = ['protocol', 'client', 'bff'] as const;

export type HostName = 'express' | 'node' | 'next' | 'hono' | 'bun' | 'deno' | 'workerd';

/** A host: its name, what it runs on, and the storage it uses there. */
export interface HostSpec {
  readonly name: HostName;
  /** How the suite names it: `Express on Node`, … */
  readonly title: string;
  /** `pglite`: embedded, in memory; `postgres`: needs a PostgreSQL server (TEST_DATABASE_URL). */
  readonly storage: 'pglite' | 'postgres';
}

/** Every host, in the order the suite runs them. */
export const HOSTS: readonly HostSpec[] = [
  { name: 'express', title: 'Express on Node', storage: 'pglite' },
  { name: 'node', title: 'Node http (toNodeListener)', storage: 'pglite' },
  { name: 'next', title: 'Next.js App Router (next start)', storage: 'pglite' },
  { name: 'hono', title: 'Hono on Node (@hono/node-server)', storage: 'pglite' },
  { name: 'bun', title: 'Bun (Bun.serve)', storage: 'pglite' },
  { name: 'deno', title: 'Deno (Deno.serve)', storage: 'pglite' },
  // workerd has no file system and no WebAssembly compile at run time for PGlite: PostgreSQL only.
  { name: 'workerd', title: 'Cloudflare Workers (workerd via miniflare)', storage: 'postgres' },
];

/** The environment a host's BFF is configured from (options.mjs in the project reads it). */
export interface HostConfig {
  readonly DK_API_BASE_URL: string;
  readonly DK_KEY_ID: string;
  readonly DK_API_SECRET: string;
  readonly DK_WEBHOOK_SECRET: string;
  /** PostgreSQL; unset: PGlite in memory. */
  readonly DK_DATABASE_URL?: string | undefined;
  readonly DK_DATABASE_SCHEMA?: string | undefined;
  /** `1`: the BFF's default visitor limits (the bench); else off (one test client makes every request). */
  readonly DK_VISITOR_LIMITS?: string | undefined;
  /** The bench's same-answer constant (`/bare-same`, JSON `{ body, headers }`); unset: that route is absent. */
  readonly DK_BENCH_SAME_ANSWER?: string | undefined;
}

/** A host serving. */
export interface RunningHost {
  /** The BFF's base, `http://127.0.0.1:PORT/dk` (no trailing slash). */
  readonly url: string;
  /** The same runtime's bare route answering a constant. */
  readonly bareUrl: string;
  /** What it printed so far (for failure messages). */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits until it is gone. */
  stop(): Promise<void>;
}

/** The partner project, prepared once: tarballs installed, the Next.js app built when asked. */
export interface PartnerProject {
  readonly dir: string;
  /** Milliseconds each step took (build, pack, npm install, next build). */
  readonly timings: Record<string, number>;
  remove(): Promise<void>;
}

async function timed<T>(timings: Record<string, number>, label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[label] = Math.round(performance.now() - started);
  }
}

async function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, {
      cwd,
      env: { ...process.env, NODE_OPTIONS: '', NEXT_TELEMETRY_DISABLED: '1', ...env },
      maxBuffer: 32 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/**
 * Builds and packs protocol, client and bff, copies `test/packaging/runtimes` to a temporary folder, installs the
 * tarballs there with npm (overrides keep their cross-dependencies on the tarballs, never the registry) and, with
 * `nextBuild`, runs `next build` once (nothing may open a database or start work while it imports the route).
 */
export async function preparePartnerProject(options: { nextBuild: boolean }): Promise<PartnerProject> {
  const timings: Record<string, number> = {};
  const dir = await mkdtemp(join(tmpdir(), 'domainkit-runtimes-'));
  try {
    const tarballs = join(dir, 'tarballs');
    await mkdir(tarballs);
    await timed(timings, 'build', () =>
      exec('pnpm', ['-r', ...PACKAGES.flatMap((p) => ['--filter', `./packages/${p}`]), 'build'], root),
    );
    await timed(timings, 'pack', () =>
      Promise.all(
        PACKAGES.map((name) => exec('pnpm', ['pack', '--pack-destination', tarballs], join(root, 'packages', name))),
      ),
    );
    await pointProjectAtTarballs(dir, join(root, 'test/packaging/runtimes'), PACKAGES);
    await timed(timings, 'npm install', () =>
      exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], dir),
    );
    if (options.nextBuild) {
      // No BFF configuration at build time: the route must not need one until its first request.
      await timed(timings, 'next build', () => exec(join(dir, 'node_modules/.bin/next'), ['build'], dir));
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, timings, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The platform binary an npm package ships in its optional dependency (`bun`, `deno`), without its postinstall. */
function shippedBinary(pkg: 'bun' | 'deno'): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const base = dirname(requireHere.resolve(`${pkg}/package.json`));
  const from = createRequire(join(base, 'package.json'));
  if (pkg === 'bun') {
    const platform = `@oven/bun-${process.platform}-${arch}`;
    return join(dirname(from.resolve(`${platform}/package.json`)), 'bin', 'bun');
  }
  const suffix = process.platform === 'linux' ? '-glibc' : '';
  const platform = `@deno/${process.platform}-${arch}${suffix}`;
  return join(dirname(from.resolve(`${platform}/package.json`)), 'deno');
}

/** Waits for `listening http://127.0.0.1:PORT` in the process's output. */
function listening(child: WatchedProcess, name: string, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not listen within ${timeoutMs} ms:\n${child.output()}`)),
      timeoutMs,
    );
    const check = () => {
      const found = /http:\/\/127\.0\.0\.1:(\d+)/.exec(child.output());
      if (found && Number(found[1]) > 0) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${found[1]}`);
      }
    };
    child.child.stdout.on('data', check);
    child.child.stderr.on('data', check);
    void child.closed.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before listening:\n${child.output()}`));
    });
  });
}

/** Stops a watched process: SIGTERM to its group, SIGKILL after 5 s. */
async function stopProcess(child: WatchedProcess): Promise<void> {
  if (child.exited()) return;
  const kill = setTimeout(() => void child.stop('SIGKILL'), 5_000);
  await child.stop('SIGTERM');
  clearTimeout(kill);
}

/** The command that runs `host` in the project (all but workerd). */
function command(project: string, host: Exclude<HostName, 'workerd'>): [string, string[]] {
  switch (host) {
    case 'express':
      return [process.execPath, ['express.mjs']];
    case 'node':
      return [process.execPath, ['node-http.mjs']];
    case 'hono':
      return [process.execPath, ['hono.mjs']];
    case 'next':
      return [join(project, 'node_modules/.bin/next'), ['start', '--port', '0', '--hostname', '127.0.0.1']];
    case 'bun':
      return [shippedBinary('bun'), ['bun.mjs']];
    case 'deno':
      // The project's node_modules (npm-installed) resolve its imports; the BFF needs the network, the environment
      // (its configuration) and, for PGlite, its own files and WebAssembly. `--unstable-no-legacy-abort` as the BFF
      // README's recipe: Deno 2.9 warns on the first request otherwise (the BFF reads `request.signal`).
      return [shippedBinary('deno'), ['run', '--allow-all', '--no-prompt', '--unstable-no-legacy-abort', 'deno.mjs']];
  }
}

/** Starts `host` from the prepared project with `config`; resolves once it listens. */
export async function startHost(project: PartnerProject, host: HostName, config: HostConfig): Promise<RunningHost> {
  if (host === 'workerd') return startWorkerd(project, config);
  const [bin, args] = command(project.dir, host);
  const child = startProcess(bin, args, {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NEXT_TELEMETRY_DISABLED: '1',
      DENO_NO_UPDATE_CHECK: '1',
      DENO_DIR: join(project.dir, '.deno'),
      ...config,
    },
    component: 'bff',
    cwd: project.dir,
    group: true,
  });
  try {
    const origin = await listening(child, host);
    return { url: `${origin}/dk`, bareUrl: `${origin}/bare`, output: child.output, stop: () => stopProcess(child) };
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/**
 * workerd: worker.mjs bundled with esbuild as wrangler would (ESM, the `workerd`/`worker`/`browser` export
 * conditions, `node:*` left to the `nodejs_compat` flag), served by miniflare on 127.0.0.1 and a free port, with
 * `config` as the Worker's bindings.
 */
async function startWorkerd(project: PartnerProject, config: HostConfig): Promise<RunningHost> {
  const esbuild = (await import('esbuild')) as typeof import('esbuild');
  const { Miniflare } = (await import('miniflare')) as typeof import('miniflare');
  const outfile = join(project.dir, '.worker', 'worker.js');
  if (!existsSync(outfile)) {
    await esbuild.build({
      absWorkingDir: project.dir,
      entryPoints: ['worker.mjs'],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2024',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      // Node's built-ins are workerd's own under `nodejs_compat` (bare names too), as wrangler leaves them.
      external: ['node:*', 'cloudflare:*', ...builtinModules, ...builtinModules.map((name) => `${name}/*`)],
      // CommonJS dependencies `require()` built-ins: give the ES module bundle a require (workerd has createRequire).
      banner: { js: "import { createRequire as __dkRequire } from 'node:module'; const require = __dkRequire('/');" },
      logLevel: 'error',
    });
  }
  const bindings: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) if (typeof value === 'string') bindings[key] = value;
  const logs: string[] = [];
  const mf = new Miniflare({
    // The bundle's text, not its path: miniflare resolves a path against the working folder (workerd refuses `..`).
    modules: [{ type: 'ESModule', path: 'worker.js', contents: await readFile(outfile, 'utf8') }],
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    bindings,
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
      stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    },
  });
  const origin = (await mf.ready).origin;
  return {
    url: `${origin}/dk`,
    bareUrl: `${origin}/bare`,
    output: () => logs.join(''),
    stop: () => mf.dispose(),
  };
}
