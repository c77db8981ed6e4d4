/**
 * Page helpers for driving the widget and the sandbox's hosted checkout in end-to-end tests.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Types a query into the first <dk-domain-search> like a visitor and waits for results or "no match". */
export async function searchFor(page: Page, query: string): Promise<Locator> {
  const input = page.locator('dk-domain-search [part="input"]');
  await input.fill('');
  await input.pressSequentially(query, { delay: 20 });
  await expect
    .poll(() => page.locator('dk-domain-search').getAttribute('data-state'), { timeout: 10_000 })
    .toMatch(/^(results|empty)$/);
  return page.locator('dk-domain-search [part="option"]');
}

/** The Buy button of one result row. */
export function buyButtonOf(page: Page, domain: string): Locator {
  return page.locator(`dk-domain-search [part="option"][data-domain="${domain}"] [part="buy-button"]`);
}

/**
 * On the sandbox's hosted checkout: pays with a card number (and `email`, the buyer's address) and waits for the
 * receipt or the decline.
 */
export async function payOnLander(
  page: Page,
  cardNumber: string,
  email = 'buyer@example.com',
): Promise<'paid' | 'declined'> {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="card_number"]').fill(cardNumber);
  await page.locator('button[type="submit"], input[type="submit"]').first().click();
  const outcome = page.getByTestId('lander-success').or(page.getByTestId('lander-declined'));
  await outcome.first().waitFor();
  return (await page.getByTestId('lander-success').count()) > 0 ? 'paid' : 'declined';
}
