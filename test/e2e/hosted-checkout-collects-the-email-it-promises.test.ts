/**
 * Issue 23, defect 4: the kit promises e-mail ("transfer instructions follow by email", "your receipt email has the
 * details"), so the hosted checkout asks for the buyer's address: a clear message in the page's language for one
 * that is not an address, the receipt names where it goes, and the sandbox keeps it on the sale (the admin client
 * reads it back with the checkout session). axe-core finds nothing on the form with its message, light, dark and
 * right to left.
 */
import { createSandboxAdmin } from '@domainkit/sandbox';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { openCheckout, payOnLander, searchFor } from './widget-page.ts';

const stack = useDemoStack('domainkit-lander-email-');

/** A page in a fresh context: a 390 px phone unless `options` say otherwise. */
async function visitor(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await stack.browser.newContext({ viewport: { width: 390, height: 900 }, ...options });
  return context.newPage();
}

describe('the hosted checkout collects the e-mail the kit promises', () => {
  it('asks for it, explains a bad one in the page language, and keeps it on the sale', async () => {
    const page = await visitor();
    await page.goto(stack.demo.url);
    const rows = await searchFor(page, 'coffee');
    await rows
      .filter({ has: page.locator('[part="buy-button"]') })
      .first()
      .locator('[part="buy-button"]')
      .click();
    await page.getByTestId('lander-domain').waitFor();
    const email = page.getByLabel('Email');
    expect(await email.count(), 'an e-mail field on the hosted checkout').toBe(1);
    expect(await email.getAttribute('autocomplete')).toBe('email');
    expect(await email.evaluate((input) => (input as HTMLInputElement).labels?.length)).toBe(1);

    // Not an address: the form comes back with what to fix, and nothing is charged.
    await email.fill('ada.example.com');
    await page.locator('input[name="card_number"]').fill('4242 4242 4242 4242');
    await page.locator('button[type=submit]').click();
    await page.getByTestId('lander-form-error').waitFor();
    expect(await page.getByTestId('lander-form-error').textContent()).toBe(
      'Enter a whole email address, like name@example.com.',
    );
    expect(await page.getByLabel('Email').inputValue(), 'what the buyer typed is kept to correct').toBe(
      'ada.example.com',
    );
    expect(await page.getByLabel('Email').getAttribute('aria-invalid'), 'the field is marked').toBe('true');
    expect(await page.locator('[aria-invalid]').count(), 'and only that field').toBe(1);
    await expectNoAxeViolations(page, 'the form with its e-mail message (light)');

    expect(await payOnLander(page, '4242 4242 4242 4242', 'ada@example.com')).toBe('paid');
    expect(await page.locator('main').textContent()).toContain(
      'Your receipt and the transfer instructions are on their way to ada@example.com.',
    );
    // Kept by the marketplace on the sale: the back office reads it with the checkout session.
    const back = (await page.getByTestId('lander-return').getAttribute('href')) ?? '';
    const sessionId = new URL(back).searchParams.get('checkout_session_id') ?? '';
    const admin = createSandboxAdmin({ url: stack.demo.sandboxUrl, adminToken: stack.demo.credential.admin_token });
    const { checkout_session, sale } = await admin.checkoutSessions.get(sessionId);
    expect([checkout_session.status, sale?.buyer_email]).toEqual(['paid', 'ada@example.com']);
    await page.context().close();
  });

  it('words the e-mail field and its message in French and Arabic; axe-core: 0 violations, dark and RTL', async () => {
    const checkoutUrl = await openCheckout(stack.demo.url, 'garden');
    for (const [locale, label, message, options] of [
      ['fr-FR', 'E-mail', 'Saisissez une adresse e-mail complète, par exemple nom@exemple.fr.', {}],
      [
        'ar-EG',
        'البريد الإلكتروني',
        'أدخل عنوان بريد إلكتروني كاملًا، مثل name@example.com.',
        { colorScheme: 'dark' } as const,
      ],
    ] as const) {
      const page = await visitor({ locale, ...options });
      await page.goto(checkoutUrl);
      expect(await page.getByLabel(label).count(), `${locale}: the e-mail field, labelled`).toBe(1);
      await page.getByLabel(label).fill('ada@');
      await page.locator('input[name="card_number"]').fill('4242 4242 4242 4242');
      await page.locator('button[type=submit]').click();
      await page.getByTestId('lander-form-error').waitFor();
      expect(await page.getByTestId('lander-form-error').textContent(), locale).toBe(message);
      await expectNoAxeViolations(page, `the form with its e-mail message (${locale})`);
      await page.context().close();
    }
  });
});
