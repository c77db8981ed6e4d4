/**
 * Dependency rules of the workspace (docs/architecture.md "Packages and their direction"), checked by
 * `pnpm depcruise` (and so by `pnpm lint` and CI):
 *
 * - protocol ← client ← bff; protocol ← sandbox. The sandbox and the client meet only on the wire, so neither
 *   imports the other; nothing imports the BFF, the sandbox or the widget.
 * - The widget and the console (the partner's admin elements) import nothing of ours at run time, nor each other: type-only
 *   imports are erased by the compiler.
 * - protocol and the client import no Node builtin (`node:*`), not even a type: signing runs on Web Crypto, so
 *   both load on Node, Bun, Deno, browsers and Workers. (The client sends with undici on Node, loaded on first
 *   use, and with the platform's fetch elsewhere: packages/client/src/transport.ts.)
 * - No cycles: between modules at run time, and between the folders of a package.
 * - The BFF is built by feature (search, siblings, checkout, purchase, webhooks, probes, brokerage, mcp) over shared layers (http, upstream,
 *   db, config). A feature is reached from outside its folder only through its entry, `index.ts`; a shared layer imports no
 *   feature.
 *
 * Tests are left out: a test may import across packages (a BFF test runs the sandbox).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'protocol-is-the-base',
      comment: 'protocol is the wire contract: it imports no other package of ours.',
      severity: 'error',
      from: { path: '^packages/protocol/' },
      to: { path: '^packages/(client|bff|sandbox|widget|console)/' },
    },
    {
      name: 'client-only-on-protocol',
      comment: 'The client depends on protocol only; it never imports the sandbox (they meet on the wire).',
      severity: 'error',
      from: { path: '^packages/client/' },
      to: { path: '^packages/(bff|sandbox|widget|console)/' },
    },
    {
      name: 'sandbox-only-on-protocol',
      comment: 'The sandbox depends on protocol only; it never imports the client (they meet on the wire).',
      severity: 'error',
      from: { path: '^packages/sandbox/' },
      to: { path: '^packages/(client|bff|widget|console)/' },
    },
    {
      name: 'bff-on-client-and-protocol',
      comment: 'The BFF reaches the marketplace through the client; it never imports the sandbox or the widget.',
      severity: 'error',
      from: { path: '^packages/bff/' },
      to: { path: '^packages/(sandbox|widget|console)/' },
    },
    {
      name: 'widget-runs-alone',
      comment: 'The widget imports nothing of ours at run time (type-only imports are allowed: they are erased).',
      severity: 'error',
      from: { path: '^packages/widget/' },
      to: { path: '^packages/(protocol|client|bff|sandbox|console)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'console-runs-alone',
      comment:
        'The console elements import nothing of ours at run time (the visitor widget included: its first load must not grow).',
      severity: 'error',
      from: { path: '^packages/console/' },
      to: { path: '^packages/(protocol|client|bff|sandbox|widget)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'protocol-and-client-on-web-standards',
      comment:
        'protocol and the client use Web APIs only (crypto.subtle, TextEncoder, AbortSignal), never a Node builtin, so they run on Node, Bun, Deno and Workers.',
      severity: 'error',
      from: { path: '^packages/(protocol|client)/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'bff-feature-only-through-its-entry',
      comment:
        'A BFF feature folder (search, siblings, checkout, purchase, webhooks, probes, brokerage, mcp, console, whois) is reached from outside only through its index.ts: another feature, the shared layers and the composition at the top never import its internals.',
      severity: 'error',
      from: { path: '^packages/bff/src/([^/]+)' },
      to: {
        path: '^packages/bff/src/(search|siblings|checkout|purchase|webhooks|probes|brokerage|mcp|console|whois)/',
        pathNot: [
          '^packages/bff/src/$1/',
          '^packages/bff/src/(search|siblings|checkout|purchase|webhooks|probes|brokerage|mcp|console|whois)/index\\.ts$',
        ],
      },
    },
    {
      name: 'bff-shared-layers-import-no-feature',
      comment:
        'The shared layers of the BFF (http/, upstream/, db/, config/) serve every feature, so none of them imports a feature.',
      severity: 'error',
      from: { path: '^packages/bff/src/(http|upstream|db|config)/' },
      to: {
        path: '^packages/bff/src/(search|siblings|checkout|purchase|webhooks|probes|brokerage|mcp|console|whois)/',
      },
    },
    {
      name: 'no-circular',
      comment:
        'A module never reaches itself at run time. Type-only imports are erased, so a cycle through one is allowed (a lazily loaded chunk may name the type of its loader).',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Folders of a package depend one way: no folder reaches itself through its imports.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Production code only: tests and their helpers may import across packages (a BFF test runs the sandbox).
    exclude: { path: ['(^|/)(node_modules|dist|\\.data)/', '\\.test\\.tsx?$', '/test-support/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
