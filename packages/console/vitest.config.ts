import { defineConfig } from 'vitest/config';

/**
 * The console's Node suites, on the npm build in `dist/` (`pnpm build` first): importing `@domainkit/console/vue`
 * on a server (a fresh `node` process), and the Vue binding as an app uses it in a DOM (happy-dom) with the browser
 * builds of Lit and Vue (under Node's own conditions Lit takes its server build).
 */
export default defineConfig({
  resolve: { conditions: ['browser', 'module', 'import', 'default'] },
  ssr: { resolve: { conditions: ['browser', 'module', 'import', 'default'], externalConditions: ['browser'] } },
  test: {
    name: 'console',
    include: ['test/**/*.test.ts'],
    environment: 'happy-dom',
    testTimeout: 60_000,
    server: { deps: { inline: ['lit', /^@lit\//, 'lit-html', 'lit-element'] } },
  },
});
