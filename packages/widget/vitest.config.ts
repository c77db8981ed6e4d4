import { defineConfig } from 'vitest/config';

/**
 * The widget's Node suites: importing the npm build without a DOM, and the script-tag build under a strict
 * Content-Security-Policy in headless Chromium. (The components' own suites run in the browser, under
 * @web/test-runner.) Both need `pnpm build` first. The `*.test-d.ts` files are type-level tests (typecheck mode):
 * they pin the widget's wire types to protocol's.
 */
export default defineConfig({
  test: {
    name: 'widget',
    include: ['test-node/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: {
      enabled: true,
      include: ['test-node/**/*.test-d.ts'],
      tsconfig: './tsconfig.node.json',
    },
  },
});
