/**
 * @domainkit/sandbox: a local, faithful implementation of the domain marketplace for development, tests and demos
 * (docs/architecture.md "Packages and their direction"): the whole signed Partner API (discovery, checkout sessions, MoR quotes and orders,
 * events and webhooks, settlement and history, brokerage, referral and reporting, rate limits), the hosted lander
 * with test cards, an admin API and CLI, scenario domains, fault injection, and a synthetic inventory, with state in
 * PGlite or PostgreSQL.
 *
 * ```ts
 * const sandbox = await startSandbox({ port: 0, dataDir: '.data/sandbox' });
 * // sandbox.url, sandbox.demo.key_id / .secret, then: await sandbox.close();
 * ```
 */
export { startSandbox, type RunningSandbox } from './sandbox.ts';
export { createSandboxApp, type SandboxApp } from './app.ts';
export {
  createSandboxAdmin,
  readSandboxUrl,
  SandboxAdminError,
  SERVER_FILE,
  ORDER_TRIGGERS,
  type SandboxAdmin,
  type SandboxAdminOptions,
  type AdminOrder,
  type AdminBrokerageCase,
  type AdminReferralLink,
  type AdminReferralSale,
  type AdminEvent,
  type AdminDelivery,
  type AdminCredential,
  type AdminCheckoutSession,
  type OrderMove,
  type CaseMove,
  type OrderTrigger,
  type WebhookPingResult,
} from './admin-client.ts';
export { ORDER_FIXTURE_PATHS } from './admin/fixtures.ts';
export {
  DEFAULT_DATA_DIR,
  DEFAULT_HOST,
  DEFAULT_PORT,
  type SandboxOptions,
  type StartSandboxOptions,
} from './options.ts';
export {
  CREDENTIALS_FILE,
  credentialsFilePath,
  readDemoCredential,
  demoCredentialSchema,
  type DemoCredential,
} from './credentials/demo-credential.ts';
export { SCOPES, ENVIRONMENTS, type Scope, type Environment } from './scopes.ts';
export { TEST_CARDS } from './checkout/test-cards.ts';
export {
  DEFAULT_INVENTORY_SEED,
  INVENTORY_SIZE,
  generateInventory,
  type GeneratedDomain,
} from './inventory/generate.ts';
export { RATE_CLASSES, type RateClass } from './limits/partner.ts';
export {
  SCENARIO_DOMAINS,
  LIVE_SITE_DOMAINS,
  SLOW_SCENARIO_DELAY_MS,
  type ScenarioDomain,
  type Scenario,
} from './scenarios/scenarios.ts';
export { MAX_DELIVERY_ATTEMPTS } from './events/store.ts';
export { RETRY_BASE_SECONDS, retryDelayMs } from './events/outbox.ts';
export { COMMISSION_BPS } from './economics.ts';
export { faultSettingsSchema, type FaultSettings, type FaultSettingsPatch } from './faults/faults.ts';
export type { SandboxDatabase, SandboxDb } from './db/tables.ts';
export type { Clock } from './clock.ts';
