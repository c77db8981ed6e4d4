import { defineConfig } from 'vitest/config';

/** Cross-package tests: the whole stack, in a real browser where it matters, and the Partner API contract. */
export default defineConfig({
  test: {
    name: 'e2e',
    setupFiles: ['./setup/fail-on-defects.ts'],
    // One first start of the demo stack for the run, copied by each file that starts one (e2e/demo-stack.ts), and one
    // empty PGlite cluster, copied by each file that starts a sandbox or a BFF of its own on embedded PGlite.
    globalSetup: ['./setup/demo-template.ts', './setup/pglite-cluster.ts'],
    include: ['e2e/**/*.test.ts', 'contract/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
