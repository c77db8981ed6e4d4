/**
 * The search feature (`GET /search`, the shared search cache): the entry every other module of the BFF imports it
 * through. Answers come from the cache and listing index first and spend the upstream search budget (Partner API spec
 * 8) only for what they cannot answer; see `search-service.ts`.
 */
export {
  SearchCache,
  normaliseQuery,
  type CacheSource,
  type LoadMode,
  type SearchCacheSettings,
} from './search-cache.ts';
export { SqlAnswerStore } from './answer-store.ts';
export { SearchService, type SearchAnswer, type SearchSource, type SearchStats } from './search-service.ts';
export {
  searchOptionsShape,
  SEARCH_CACHE_ALIASES,
  resolveMemoryCache,
  resolveSearch,
  SEARCH_ENV_VARIABLES,
  readSearchEnv,
  type ResolvedSearch,
  type ResolvedSearchCache,
  type SearchCacheOptions,
} from './options.ts';
export { searchFeature, searchHit, searchRoute, type SearchFeature } from './route.ts';
