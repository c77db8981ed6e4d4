/** What the routes of every feature share about the widget ↔ BFF API: a domain as the widget shows it. */
import type { Domain, WidgetDomain } from '@domainkit/protocol';

/** A domain as the widget shows it: only what it needs, never upstream extras. */
export function toWidgetDomain(
  domain: Pick<Domain, 'domain' | 'available' | 'price_cents' | 'currency'>,
): WidgetDomain {
  return {
    domain: domain.domain,
    available: domain.available,
    price_cents: domain.price_cents,
    currency: domain.currency,
  };
}
