import { defineConfig } from 'vitest/config';

// Each test file starts one sandbox (a fresh embedded PostgreSQL takes a few seconds to initialise), shared by
// the tests of that file.
export default defineConfig({
  test: {
    setupFiles: ['../../test/setup/fail-on-defects.ts'],
    // One empty PGlite cluster for the run, copied by each test that starts an embedded database.
    globalSetup: ['../../test/setup/pglite-cluster.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
