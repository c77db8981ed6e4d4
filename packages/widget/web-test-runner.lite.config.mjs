// The browser suites again, against `lite/lit.ts`, the Lit of the script-tag build: the bare specifier `lit`
// (only that one; `lit/html.js` stays Lit's) resolves to it, as in `build-options.ts`.
import config from './web-test-runner.config.mjs';

/** @type {import('@web/test-runner').TestRunnerPlugin} */
const liteLit = {
  name: 'lite-lit',
  resolveImport({ source }) {
    return source === 'lit' ? '/lite/lit.ts' : undefined;
  },
};

export default { ...config, plugins: [liteLit, ...config.plugins] };
