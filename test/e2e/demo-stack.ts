/**
 * The fixture of the end-to-end files that drive the whole demo stack (sandbox + BFF + example pages, as `pnpm start`
 * builds it) on a data folder of its own: started before the file's first test, with headless Chromium when asked,
 * and stopped (data folder removed) after its last. The folder is a copy of the one a first start made for the whole
 * run (../setup/demo-template.ts), unless the file looks at the first start itself: its logs (`quiet: false`), or an
 * option that changes what a first start makes (`seedHistory`); then the stack starts on an empty folder.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo, type Demo, type DemoOptions } from '@domainkit/example-demo';
import { createSandboxAdmin, type SandboxAdmin } from '@domainkit/sandbox';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchChromium } from './browser.ts';

/** What {@link useDemoStack} gives a file; read it inside tests or later hooks. */
export interface DemoStack {
  readonly demo: Demo;
  /** Headless Chromium; only when `browser` was asked for. */
  readonly browser: Browser;
  /** The demo's data folder (removed after the file). */
  readonly dataDir: string;
  /** The demo sandbox's admin API (the marketplace's back office: move orders, list cases, inject faults). */
  readonly admin: SandboxAdmin;
}

/**
 * Starts the demo stack for the calling test file (call at its top level).
 * @param prefix - the temporary data folder's name prefix.
 * @param options - `browser`: also launch Chromium (default true); `demo`: more options of `startDemo`
 *   (ports are always 0, the data folder always fresh; `quiet` defaults to true).
 */
export function useDemoStack(
  prefix: string,
  options: { browser?: boolean; demo?: Omit<DemoOptions, 'port' | 'sandboxPort' | 'dataDir'> } = {},
): DemoStack {
  let demo: Demo | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  let admin: SandboxAdmin | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
    const template = inject('demoTemplate');
    const firstStartSeen = options.demo?.quiet === false || options.demo?.seedHistory !== undefined;
    if (template && !firstStartSeen) await cp(template, dataDir, { recursive: true });
    demo = await startDemo({ quiet: true, ...options.demo, port: 0, sandboxPort: 0, dataDir });
    if (options.browser !== false) browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return {
    get demo() {
      return demo!;
    },
    get browser() {
      return browser!;
    },
    get dataDir() {
      return dataDir!;
    },
    get admin() {
      admin ??= createSandboxAdmin({ url: demo!.sandboxUrl, adminToken: demo!.credential.admin_token });
      return admin;
    },
  };
}
