import { defineConfig } from 'vitest/config';

/**
 * Database-backed suites open one embedded PGlite per file (a few seconds on a busy machine) and some start a
 * child BFF process: generous hook and test limits, so a slow start never reads as a failure.
 */
export default defineConfig({
  test: {
    setupFiles: ['../../test/setup/fail-on-defects.ts'],
    // One empty PGlite cluster for the run, copied by each test that opens an embedded database.
    globalSetup: ['../../test/setup/pglite-cluster.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
