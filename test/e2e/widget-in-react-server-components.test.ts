/**
 * The widget in a Next.js App Router app, as a partner gets it: the packed `@domainkit/widget` tarball installed with
 * npm into a project outside the workspace (`test/packaging/next-app`; next, react and react-dom from the npm
 * registry), whose page, a React Server Component, renders `<DomainSearch>` from `@domainkit/widget/react`.
 *
 * - `next build` succeeds (the React entry is a Client Component: it starts with `'use client'`);
 * - `next start`, then in headless Chromium the element upgrades and searches the demo stack's BFF (sandbox + BFF,
 *   proxied under the page's own `/dk`);
 * - a server component that imports `@domainkit/widget` itself (the element registration, which only the browser
 *   can run) fails `next build` with a message saying where the import belongs, instead of shipping a page whose
 *   element is never defined.
 *
 * The widget's `dist/` must be built first (`pnpm test` does). Next.js telemetry is off; nothing is downloaded but
 * npm packages.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';
import { searchFor } from './widget-page.ts';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const stack = useDemoStack('domainkit-rsc-');

let project: string;
let nextStart: ChildProcess | undefined;

/** The project's environment: Next.js telemetry off, the test's BFF behind `/dk`. */
function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_OPTIONS: '',
    NEXT_TELEMETRY_DISABLED: '1',
    DOMAINKIT_BFF_URL: `${stack.demo.url}dk`,
  };
}

/** Runs a command in the project; resolves with its output, or with the failure's output and exit code. */
async function inProject(command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: project, env: env(), maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout?: string; stderr?: string; code?: number };
    return { code: typeof code === 'number' ? code : 1, output: `${stdout ?? ''}\n${stderr ?? ''}` };
  }
}

const nextBin = () => join(project, 'node_modules/.bin/next');

/** Stops `next start` (its whole process group) and waits for it. */
async function stopNext(): Promise<void> {
  const child = nextStart;
  nextStart = undefined;
  if (child?.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

describe('the widget in a Next.js App Router app (React Server Components)', () => {
  beforeAll(async () => {
    if (!existsSync(join(root, 'packages/widget/dist/index.js'))) {
      throw new Error('Build the widget first: pnpm --filter @domainkit/widget build');
    }
    project = await mkdtemp(join(tmpdir(), 'domainkit-next-'));
    const tarballs = join(project, 'tarballs');
    await mkdir(tarballs);
    await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(root, 'packages/widget') });
    const tarball = (await readdir(tarballs)).find((f) => f.startsWith('domainkit-widget-') && f.endsWith('.tgz'));
    if (!tarball) throw new Error('pnpm pack left no tarball for @domainkit/widget');
    await cp(join(root, 'test/packaging/next-app'), project, { recursive: true });
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    manifest.dependencies['@domainkit/widget'] = `file:tarballs/${tarball}`;
    await writeFile(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const install = await inProject('npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      '--loglevel=error',
    ]);
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.output}`);
  }, 600_000);

  afterAll(async () => {
    await stopNext();
    if (project) await rm(project, { recursive: true, force: true });
  }, 30_000);

  it('builds a server component that renders <DomainSearch> from @domainkit/widget/react', async () => {
    const build = await inProject(nextBin(), ['build']);
    expect(build.code, build.output).toBe(0);
  }, 300_000);

  it('upgrades the element in Chromium, and it searches the BFF', async () => {
    // Port 0: Next.js prints the port it got.
    const child = spawn(nextBin(), ['start', '--port', '0', '--hostname', '127.0.0.1'], {
      cwd: project,
      env: env(),
      detached: true,
    });
    nextStart = child;
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const check = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (found && Number(found[1]) > 0) resolve(`http://127.0.0.1:${found[1]}/`);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.once('exit', (code) => reject(new Error(`next start exited (${code}):\n${output}`)));
    });

    const page = await stack.browser.newPage();
    try {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      await page.waitForFunction(() => customElements.get('dk-domain-search') !== undefined, null, {
        timeout: 30_000,
      });
      // Upgraded: the element's own shadow DOM, with its search box.
      await page.locator('dk-domain-search [part="input"]').waitFor({ timeout: 30_000 });
      const rows = await searchFor(page, 'coffee');
      expect(await page.locator('dk-domain-search').getAttribute('data-state')).toBe('results');
      expect(await rows.count()).toBeGreaterThan(0);
      expect(await rows.first().getAttribute('data-domain')).toMatch(/^[a-z0-9-]+\.[a-z]+$/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await stopNext();
    }
  }, 120_000);

  it('fails next build, saying where to import it, when a server component imports @domainkit/widget', async () => {
    await cp(join(project, 'server-import/page.jsx'), join(project, 'app/page.jsx'));
    const build = await inProject(nextBin(), ['build']);
    expect(build.code, build.output).not.toBe(0);
    expect(build.output).toContain('Import @domainkit/widget from a Client Component');
  }, 300_000);
});
