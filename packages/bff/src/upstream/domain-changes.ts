/**
 * What the BFF learns about a domain: its availability (an order recorded, an upstream 409 `conflict` or 404
 * `not_found` naming it, an order event naming it, an unavailable domain detail, a verified hosted-checkout return
 * selling it), and its price (a quote, a checkout session, an available domain detail: {@link LearnedPrice}). Each
 * such signal goes to every listener (the router drops the cached search and siblings answers listing a domain no
 * longer for sale, and corrects the price of every cached answer listing a repriced one), so no visitor keeps seeing
 * a sold domain as available, or an old price.
 */
import { MarketplaceError } from '@domainkit/client';
import type { Logger } from 'pino';
import { errorFields } from '../logger.ts';

/**
 * Whether an upstream error says a domain is no longer for sale: 409 `conflict` (sold or reserved) or 404
 * `not_found` (unlisted) from a call naming it (Partner API spec 4.1).
 */
export function upstreamSaysGone(error: unknown): boolean {
  return error instanceof MarketplaceError && (error.status === 409 || error.status === 404);
}

/** A domain's price as an upstream answer naming it gave it (Partner API spec 4.1: quote, checkout session, detail). */
export interface LearnedPrice {
  /** The domain name (any case). */
  readonly domain: string;
  readonly available: boolean;
  /** The buy-now price in cents of `currency`. */
  readonly price_cents: number;
  /** ISO 4217 code. */
  readonly currency: string;
}

/** The listeners told when a domain may no longer be for sale, or was seen at a price. */
export class DomainChanges {
  readonly #listeners = new Set<(domain: string) => void>();
  readonly #priceListeners = new Set<(price: LearnedPrice) => void>();
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
    this.#tell(this.#listeners, name, name);
  }

  /** Registers `listener`, told each price {@link priced} names. */
  listenPrices(listener: (price: LearnedPrice) => void): void {
    this.#priceListeners.add(listener);
  }

  /**
   * Says an upstream answer just gave `price` for a domain: every price listener is told, with the name lowercased.
   * A listener that throws is logged, never raised.
   */
  priced(price: LearnedPrice): void {
    const name = price.domain.toLowerCase();
    this.#tell(this.#priceListeners, { ...price, domain: name }, name);
  }

  #tell<T>(listeners: Set<(value: T) => void>, value: T, domain: string): void {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (error) {
        this.#logger.error({ domain, ...errorFields(error) }, 'a domain-change listener failed');
      }
    }
  }
}
