import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Every Node test suite of the workspace in one run (the widget's browser suite runs under @web/test-runner). */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
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
