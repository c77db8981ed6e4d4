/**
 * The Public API (Public API spec 4.2) and its OAuth 2.1 authorization server (Public API spec 5.2), by area. Each area declares the
 * answers as the marketplace serves them (registered for the OpenAPI document) and, beside them, the same answers as
 * a client reads them (`…LenientSchema`: unknown fields kept, optional where a service may omit them).
 */
export * from './registry.ts';
export * from './errors.ts';
export * from './search.ts';
export * from './whois.ts';
export * from './tlds.ts';
export * from './listings.ts';
export * from './batch.ts';
export * from './domains.ts';
export * from './api-index.ts';
export * from './oauth.ts';
