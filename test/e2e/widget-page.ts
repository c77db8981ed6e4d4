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

/**
 * Opens a checkout session through the demo's BFF (`POST /dk/checkout`, from the page's origin) for the first
 * available result of `word` that is not in `taken` (which gains it); resolves with its `checkout_url`.
 */
export async function openCheckout(demoUrl: string, word: string, taken = new Set<string>()): Promise<string> {
  const search = (await (await fetch(new URL(`/dk/search?q=${word}`, demoUrl))).json()) as {
    results: Array<{ domain: string; available: boolean }>;
  };
  const domain = search.results.find((result) => result.available && !taken.has(result.domain))!.domain;
  taken.add(domain);
  const session = await fetch(new URL('/dk/checkout', demoUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(demoUrl).origin },
    body: JSON.stringify({ domain }),
  });
  expect(session.status).toBe(201);
  return ((await session.json()) as { checkout_url: string }).checkout_url;
}

/**
 * Sends the hosted checkout's form for `checkoutUrl` as a browser would (no browser): the succeeding test card and
 * `buyer@example.com`. Resolves with the answer, redirects not followed (a paid form answers 303 to the receipt).
 */
export function payByForm(checkoutUrl: string | URL): Promise<Response> {
  return fetch(new URL('checkout/pay', new URL('./', checkoutUrl)), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      pt: new URL(checkoutUrl).searchParams.get('pt')!,
      email: 'buyer@example.com',
      card_number: '4242 4242 4242 4242',
      card_expiry: '12/34',
      card_cvc: '123',
      card_name: 'Test Buyer',
    }),
    redirect: 'manual',
  });
}
