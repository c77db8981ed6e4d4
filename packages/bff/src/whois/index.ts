/**
 * The WHOIS feature (`GET /whois?domain=`): who holds a domain (registrar, registration date), read anonymously
 * through the marketplace's Public API, cached and budgeted. The entry every other module of the BFF imports it through.
 */
export {
  DEFAULT_WHOIS,
  resolveWhois,
  WHOIS_OPTION_KEYS,
  whoisOptionsShape,
  type ResolvedWhois,
  type WhoisOptions,
} from './options.ts';
export { lookupBudget, toWidgetWhois, whoisFeature, whoisRoute, type WhoisDeps } from './route.ts';
