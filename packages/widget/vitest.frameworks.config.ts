import { defineConfig } from 'vitest/config';

/**
 * The framework bindings as an app uses them (`@domainkit/widget/react`, `@domainkit/widget/vue`, from the npm build
 * in `dist/`; `pnpm build` first), in a DOM (happy-dom) with the browser builds of Lit, `@lit/react` and Vue:
 * under Node's own conditions `@lit/react` takes its server-rendering build, which never sets properties.
 */
export default defineConfig({
  resolve: { conditions: ['browser', 'module', 'import', 'default'] },
  ssr: { resolve: { conditions: ['browser', 'module', 'import', 'default'], externalConditions: ['browser'] } },
  test: {
    name: 'widget-frameworks',
    include: ['test-frameworks/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    server: { deps: { inline: ['@lit/react', 'lit', /^@lit\//, 'lit-html', 'lit-element'] } },
  },
});
