/** What the routes of every feature share about the widget ↔ BFF API: a domain as the widget shows it. */
import type { Domain, WidgetDomain } from '@domainkit/protocol';
import { displayName } from './display-name.ts';

/**
 * `{domain}`, with `display_name` when a person reads the name otherwise (an internationalised name in Unicode, see
 * {@link displayName}; protocol's `displayNameSchema`): spread it where an answer names its domain.
 */
export function named(domain: string): { domain: string; display_name?: string } {
  const display = displayName(domain);
  return display === domain ? { domain } : { domain, display_name: display };
}

/** A domain as the widget shows it: only what it needs, never upstream extras. */
export function toWidgetDomain(
  domain: Pick<Domain, 'domain' | 'available' | 'price_cents' | 'currency'>,
): WidgetDomain {
  return {
    ...named(domain.domain),
    available: domain.available,
    price_cents: domain.price_cents,
    currency: domain.currency,
  };
}
