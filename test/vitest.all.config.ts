import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Every Node test suite of the workspace in one run (the widget's browser suite runs under @web/test-runner).
 *
 * One test file per core at a time: vitest's own default is one fewer than the cores, which on a 2-core CI machine
 * ran the files one after another. Most files wait on child processes, sockets and a browser most of the time, and
 * every file owns its servers (port 0), its databases (a PGlite, or a schema of its own on TEST_DATABASE_URL) and
 * its temporary folders, so files may run side by side.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    maxWorkers: '100%',
    projects: [
      'packages/protocol',
      'packages/client',
      'packages/bff',
      'packages/sandbox',
      'packages/widget',
      'packages/widget/vitest.frameworks.config.ts',
      'packages/console',
      'examples/express-app',
      'test',
    ],
  },
});
