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

/**
 * On the demo's React SPA (`<demoUrl>/spa/`) switched to the Merchant-of-Record flow: searches `word` like a visitor,
 * presses Buy on `domain` (default: the first result that has a Buy button) and waits until the price is locked
 * (`data-purchase="quoted"`, up to 15 s). Resolves with the domain quoted.
 */
export async function quoteOnTheSpa(page: Page, demoUrl: string, word: string, domain?: string): Promise<string> {
  await page.goto(new URL('spa/', demoUrl).href);
  await page.getByLabel('Buying flow').selectOption('order');
  const rows = await searchFor(page, word);
  const name =
    domain ??
    (await rows
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .getAttribute('data-domain'))!;
  await buyButtonOf(page, name).click();
  await expect
    .poll(() => page.locator('dk-domain-search').getAttribute('data-purchase'), { timeout: 15_000 })
    .toBe('quoted');
  return name;
}

/**
 * {@link quoteOnTheSpa}, then pays on the SPA's own payment form (the test card it fills) and waits until the order is
 * recorded (`data-purchase="ordered"`, up to 20 s). Resolves with the domain ordered.
 */
export async function orderOnTheSpa(page: Page, demoUrl: string, word: string, domain?: string): Promise<string> {
  const name = await quoteOnTheSpa(page, demoUrl, word, domain);
  await page.locator('form.payment button[type="submit"]').click();
  await expect
    .poll(() => page.locator('dk-domain-search').getAttribute('data-purchase'), { timeout: 20_000 })
    .toBe('ordered');
  return name;
}

/**
 * Presses Buy on the first result of `word` that has one (non-MoR flow) and waits for the sandbox's hosted checkout.
 * Resolves with the domain being bought.
 */
export async function buyFirstOnLander(page: Page, word: string): Promise<string> {
  const rows = await searchFor(page, word);
  const row = rows.filter({ has: page.locator('[part="buy-button"]') }).first();
  const domain = (await row.getAttribute('data-domain'))!;
  await row.locator('[part="buy-button"]').click();
  await page.getByTestId('lander-domain').waitFor();
  return domain;
}

/**
 * Back on the partner page: waits (up to 10 s) until `<dk-checkout-return>` has settled on `confirmed`,
 * `unconfirmed` or `canceled`, and resolves with that state and its message's words (trimmed; empty without one).
 */
export async function checkoutReturnOf(page: Page): Promise<{ state: string | null; text: string }> {
  const host = page.locator('dk-checkout-return');
  await expect
    .poll(() => host.getAttribute('data-state'), { timeout: 10_000 })
    .toMatch(/^(confirmed|unconfirmed|canceled)$/);
  const text = await host
    .locator('[part="message"]')
    .textContent({ timeout: 2_000 })
    .catch(() => '');
  return { state: await host.getAttribute('data-state'), text: text?.trim() ?? '' };
}
