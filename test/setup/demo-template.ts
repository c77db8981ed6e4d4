/**
 * Vitest global setup of the end-to-end project: one demo data folder made by a real first start of the demo stack
 * (`startDemo` on an empty folder, by ./make-demo-template.ts: both embedded databases created and migrated, the credential generated, the
 * partner's history seeded), then closed. `useDemoStack` gives each test file a copy of it, so a file's stack starts
 * in about a second where a first start takes over ten (PGlite unpacking its cluster on disk, twice). A file whose
 * test looks at the first start itself (its logs, or options that change what it makes) still starts from an empty
 * folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder {@link setup} made; a test file copies it, never writes to it. */
    demoTemplate: string;
  }
}

let folder: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  folder = await mkdtemp(join(tmpdir(), 'domainkit-demo-template-'));
  // In a process of its own: Vitest's module runner does not give the demo `import.meta.resolve`.
  await promisify(execFile)(
    process.execPath,
    [fileURLToPath(new URL('make-demo-template.ts', import.meta.url)), folder],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    },
  );
  project.provide('demoTemplate', folder);
}

export async function teardown(): Promise<void> {
  if (folder) await rm(folder, { recursive: true, force: true });
}
