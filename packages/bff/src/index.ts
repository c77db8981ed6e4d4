/**
 * @domainkit/bff: the partner's backend-for-frontend. One web-standard handler (`createBffHandler`) that holds the
 * Partner API secret and serves the widget's narrow API (search, checkout sessions, MoR quotes and orders,
 * webhooks); an Express router over it (`createBff`), a Node `http` listener (`toNodeListener`), a standalone
 * server, and its configuration from the environment.
 */
export { createBff, BFF_PATHS, BFF_VERSION, type BffRouter } from './router.ts';
export {
  createBffHandler,
  type BffHandler,
  type BffHandlerOptions,
  type BffRequestContext,
  type BackgroundReport,
} from './handler.ts';
export { toNodeListener } from './node.ts';
export { startBff, DEFAULT_PORT, DEFAULT_HOST, type BffServerOptions, type RunningBff } from './server.ts';
export { loadBffConfigFromEnv, BffConfigError, BFF_ENV_VARIABLES, type EnvVariable } from './env.ts';
export {
  BffOptionsError,
  validateBffOptions,
  type BffOptions,
  type MarketplaceOptions,
  type MarketplaceApi,
  type SearchCacheOptions,
  type SiblingsOptions,
  type BrokerageOptions,
  type BrokerageTier,
  type ConsoleActor,
  type ConsoleAuthorize,
  type ConsoleOptions,
  type McpOptions,
  type WebhookOptions,
  type UpstreamBudgetOptions,
  type VisitorLimitOptions,
  type BackgroundOptions,
} from './options.ts';
export { BFF_ERROR_CODES, UPSTREAM_ERROR_MESSAGE, BffHttpError, type BffErrorCode } from './errors.ts';
export {
  SearchCache,
  normaliseQuery,
  type CacheSource,
  type LoadMode,
  type SearchCacheSettings,
} from './search/index.ts';
export { JSON_BODY_LIMIT_BYTES } from './http/body.ts';
export { consoleSigningKey, DEFAULT_CONSOLE, mintConsoleToken, verifyConsoleToken } from './console/index.ts';
export { redactPaths } from './logger.ts';
export {
  openBffDatabase,
  migrateBffDatabase,
  truncateBffTables,
  describeDatabaseUrl,
  BFF_MIGRATIONS,
  BFF_TABLES,
  DEFAULT_BFF_DATA_DIR,
  type BffDatabase,
  type BffDatabaseOptions,
} from './db/database.ts';
export type { BffTables, BffDb, IntentState } from './db/tables.ts';
export {
  testCardPayments,
  isTwoPhase,
  PaymentInputError,
  PaymentCaptureError,
  TEST_CARD_NUMBERS,
  type PaymentAdapter,
  type PaymentReference,
  type PaymentRequest,
  type PaymentResult,
  type TestCardCharge,
  type TestCardPayment,
  RECORD_DEADLINE_MS,
  type FailedOrderReport,
  type OrderStep,
  type OrderEventHook,
  type MoneyOutcome,
  ORDER_STATUS_RANK,
  FINAL_ORDER_STATUSES,
  movesForward,
  PROCESSING_STATUS,
  type RecoveryReport,
  ORDER_TOKEN_HEADER,
} from './purchase/index.ts';
export {
  createUpstreamBudget,
  MemoryBucketStore,
  SqlBucketStore,
  UpstreamBusyError,
  DEFAULT_BUDGET_LIMITS,
  type BucketLimit,
  type BudgetLimits,
  type BucketStore,
  type BffUpstreamBudget,
} from './upstream/budget.ts';
export type { EventHandler, EventHandlerMap, EventHandlerType, EventContext, CatchUpReport } from './webhooks/index.ts';
export { DEFAULT_VISITOR_SEARCHES_PER_MINUTE, DEFAULT_VISITOR_WRITES_PER_MINUTE } from './http/visitor-limits.ts';
