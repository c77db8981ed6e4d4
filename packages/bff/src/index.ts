/**
 * @domainkit/bff: the partner's backend-for-frontend. An Express router that holds the Partner API secret and
 * serves the widget's narrow API, a standalone server around it, and its configuration from the environment.
 */
export { createBff, BFF_PATHS, BFF_VERSION } from './router.ts';
export { startBff, DEFAULT_PORT, DEFAULT_HOST, type BffServerOptions, type RunningBff } from './server.ts';
export { loadBffConfigFromEnv, BffConfigError, BFF_ENV_VARIABLES, type EnvVariable } from './env.ts';
export { BffOptionsError, validateBffOptions, type BffOptions, type MarketplaceOptions, type MarketplaceApi, type SearchCacheOptions } from './options.ts';
export { BFF_ERROR_CODES, UPSTREAM_ERROR_MESSAGE, BffHttpError, type BffErrorCode } from './errors.ts';
export { SearchCache, normaliseQuery, type CacheSource, type SearchCacheSettings } from './search-cache.ts';
export { JSON_BODY_LIMIT_BYTES } from './security.ts';
export { redactPaths } from './logger.ts';
