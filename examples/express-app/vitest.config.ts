import { defineConfig } from 'vitest/config';

/** The app's test opens an embedded PGlite (a few seconds on a busy machine). */
export default defineConfig({
  test: {
    // Fails a test during which the app's BFF logged a defect (see the file).
    setupFiles: ['../../test/setup/fail-on-defects.ts'],
    // One empty PGlite cluster for the run, copied by each test that opens an embedded database.
    globalSetup: ['../../test/setup/pglite-cluster.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
