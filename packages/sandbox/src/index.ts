/**
 * @domainkit/sandbox: a local, faithful implementation of the domain marketplace for development, tests and demos
 * (DESIGN "packages/sandbox"): the signed Partner API (discovery, checkout sessions), the hosted lander with test
 * cards, an admin API, and a synthetic inventory, with state in PGlite or PostgreSQL.
 *
 * ```ts
 * const sandbox = await startSandbox({ port: 0, dataDir: '.data/sandbox' });
 * // sandbox.url, sandbox.demo.key_id / .secret, then: await sandbox.close();
 * ```
 */
export { startSandbox, type RunningSandbox } from './sandbox.ts';
export { createSandboxApp, type SandboxApp } from './app.ts';
export { DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_PORT, type SandboxOptions, type StartSandboxOptions } from './options.ts';
export { CREDENTIALS_FILE, credentialsFilePath, readDemoCredential, demoCredentialSchema, type DemoCredential } from './credentials/demo-credential.ts';
export { SCOPES, ENVIRONMENTS, type Scope, type Environment } from './credentials/scopes.ts';
export { TEST_CARDS } from './checkout/test-cards.ts';
export { DEFAULT_INVENTORY_SEED, INVENTORY_SIZE, generateInventory, type GeneratedDomain } from './inventory/generate.ts';
export type { SandboxDatabase, SandboxDb } from './db/tables.ts';
export type { Clock } from './clock.ts';
