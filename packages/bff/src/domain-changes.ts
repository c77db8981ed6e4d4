/**
 * What the BFF learns about a domain's availability: an order recorded, an upstream 409 `conflict` or 404
 * `not_found` naming it, an order event naming it, an unavailable domain detail, a verified hosted-checkout return
 * selling it. Each such signal goes to every listener (the router drops the cached search and siblings answers
 * listing the domain), so no visitor keeps seeing a sold domain as available.
 */
import { MarketplaceError } from '@domainkit/client';
import type { Logger } from 'pino';
import { errorFields } from './logger.ts';

/**
 * Whether an upstream error says a domain is no longer for sale: 409 `conflict` (sold or reserved) or 404
 * `not_found` (unlisted) from a call naming it (Partner API spec 4.1).
 */
export function upstreamSaysGone(error: unknown): boolean {
  return error instanceof MarketplaceError && (error.status === 409 || error.status === 404);
}

/** The listeners told when a domain may no longer be for sale. */
export class DomainChanges {
  readonly #listeners = new Set<(domain: string) => void>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Registers `listener`, told each domain {@link changed} names. */
  listen(listener: (domain: string) => void): void {
    this.#listeners.add(listener);
  }

  /**
   * Says `domain` may no longer be for sale: every listener is told, with the name lowercased. A listener that
   * throws is logged, never raised.
   */
  changed(domain: string): void {
    const name = domain.toLowerCase();
    for (const listener of this.#listeners) {
      try {
        listener(name);
      } catch (error) {
        this.#logger.error({ domain: name, ...errorFields(error) }, 'a domain-change listener failed');
      }
    }
  }
}
