/**
 * Issue 25, the brokerage consent page a person opens from an assistant's link (`GET /mcp/consent?t=`), walked in
 * headless Chromium on the demo stack through every state it can be in: the form; the form again with an e-mail
 * address that cannot be used and the box unticked (each error tied to its field, what was typed kept); busy (the
 * wait named); sent (the case's progress link); a name listed for sale (a link to buy it in the shop), a name with a
 * live site, a name already in a case; a link altered and a link expired (ask the assistant for a new one). Each
 * state says what to do next, in the widget's own words, in English, French (from `Accept-Language`) and Arabic
 * (`lang=ar`, right to left); each is free of axe-core violations and of sideways scrolling, light and dark, at
 * 390 and 1280 px. Until the person sends a valid form, nothing is opened upstream.
 */
import { PartnerClient } from '@domainkit/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsentTokens } from '../../packages/bff/src/mcp/consent.ts';
import {
  brokerStringsAr,
  brokerStringsEn,
  brokerStringsFr,
} from '../../packages/widget/src/broker-button/broker-strings.ts';
import { ar as widgetAr } from '../../packages/widget/src/locales/ar.ts';
import { purchaseStrings } from '../../packages/widget/src/purchase/purchase-strings.ts';
import { baseStrings } from '../../packages/widget/src/strings.ts';
import { expectNoAxeViolations } from './axe.ts';
import { useDemoStack } from './demo-stack.ts';
import { shot } from './shots.ts';

/** The BFF's clock: stepped a minute on between states (a fresh visitor-limit window) and past a link's life. */
let clock = Date.now();
const stack = useDemoStack('domainkit-consent-page-', { demo: { bffClock: () => clock } });
const freshMinute = () => {
  clock += 61_000;
};

let agent: Client;
let english: BrowserContext;
let french: BrowserContext;
const domain = `consent-page-${Date.now().toString(36)}.com`;
const email = 'person@example.com';

beforeAll(async () => {
  agent = new Client({ name: 'consent-page-agent', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL('dk/mcp', stack.demo.url)));
  english = await stack.browser.newContext({ locale: 'en-US' });
  french = await stack.browser.newContext({ locale: 'fr-FR' });
});
afterAll(async () => {
  await agent?.close();
});

/** A consent link the agent prepares for `name` with `budget` cents. */
async function consentLink(name: string, budget: number): Promise<string> {
  const request = await agent.callTool({
    name: 'brokerage_request',
    arguments: { domain: name, budget_cents: budget },
  });
  const prepared = request.structuredContent as { consent_url?: string };
  expect(prepared.consent_url, JSON.stringify(request.content)).toBeDefined();
  return prepared.consent_url!;
}

/** A link the shop itself signed (its real signer, its secret) for a name the agent's tool would not prepare. */
async function signedLink(name: string, budget: number, signedAt = clock): Promise<string> {
  const tokens = new ConsentTokens(stack.demo.credential.secret, () => signedAt);
  const { token } = await tokens.sign(name, budget);
  return new URL(`dk/mcp/consent?t=${token}`, stack.demo.url).href;
}

/** The marketplace's cases of the demo shop for `name`. */
async function casesFor(name: string): Promise<unknown[]> {
  const { key_id, secret } = stack.demo.credential;
  const partner = new PartnerClient({ baseUrl: stack.demo.sandboxUrl, keyId: key_id, secret });
  const cases: unknown[] = [];
  for await (const c of partner.brokerage.list()) if ((c as { domain: string }).domain === name) cases.push(c);
  return cases;
}

/** `url` in Arabic (the `lang` an agent may add). */
const arabic = (url: string) => `${url}&lang=ar`;

/** Opens `url` in `context` and answers the page, the document's HTTP status and its `Retry-After`. */
async function open(context: BrowserContext, url: string): Promise<{ page: Page; status: number; retryAfter: number }> {
  const page = await context.newPage();
  const answer = await page.goto(url);
  return { page, status: answer!.status(), retryAfter: Number(answer!.headers()['retry-after']) };
}

/** Sends the page's form with its button (named `button`) and answers the document that comes back. */
async function send(page: Page, button: string): Promise<Response> {
  const [answer] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.getByRole('button', { name: button }).click(),
  ]);
  return answer!;
}

const LOOKS = [
  { name: 'light-390', colorScheme: 'light', width: 390 },
  { name: 'dark-390', colorScheme: 'dark', width: 390 },
  { name: 'light-1280', colorScheme: 'light', width: 1280 },
  { name: 'dark-1280', colorScheme: 'dark', width: 1280 },
] as const;

/**
 * The page in each look (light and dark, 390 and 1280 px; `rtl-` named for an Arabic page): no axe-core violation,
 * nothing wider than the screen, and a screenshot when `DK_SHOTS` is set.
 */
async function inEveryLook(page: Page, state: string): Promise<void> {
  const rtl = (await page.getAttribute('html', 'dir')) === 'rtl';
  for (const look of LOOKS) {
    await page.emulateMedia({ colorScheme: look.colorScheme });
    await page.setViewportSize({ width: look.width, height: 900 });
    const name = `consent-${state}-${rtl ? 'rtl-' : ''}${look.name}`;
    await shot(page, name);
    await expectNoAxeViolations(page, name);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wide, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 900 });
}

/** The text of the element `id` names. */
const textOf = (page: Page, id: string) => page.locator(`[id="${id}"]`).textContent();

describe('the brokerage consent page, state by state', () => {
  let linkA: string;
  let linkB: string;

  beforeAll(async () => {
    const eligibility = await agent.callTool({ name: 'brokerage_eligibility', arguments: { domain } });
    const { min_budget_cents } = eligibility.structuredContent as { min_budget_cents: number };
    expect(min_budget_cents).toBe(10_000);
    linkA = await consentLink(domain, 15_000);
    // A second request for the same name, prepared before the first is sent.
    linkB = await consentLink(domain, 20_000);
  });

  it('the form: what happens, the budget, a labelled field and box, in a sane order, in three languages', async () => {
    freshMinute();
    const { page, status } = await open(english, linkA);
    expect(status).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.locator('h1').textContent()).toBe(brokerStringsEn.formTitle(domain));
    expect(await page.getByTestId('budget').textContent()).toBe('$150');
    const field = page.getByLabel(brokerStringsEn.emailLabel);
    expect(await field.getAttribute('type')).toBe('email');
    expect(await textOf(page, (await field.getAttribute('aria-describedby'))!)).toBe('The brokers write to you there.');
    expect(await page.getByLabel(brokerStringsEn.consentLabel).getAttribute('type')).toBe('checkbox');
    // The keyboard goes field, box, button.
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName || ''));
    }
    expect(order).toEqual(['buyer_email', 'consent', 'BUTTON']);
    await inEveryLook(page, 'form');

    // French from the browser's Accept-Language; Arabic, right to left, from the link's `lang` over it.
    const fr = await open(french, linkA);
    expect(await fr.page.getAttribute('html', 'lang')).toBe('fr');
    expect(await fr.page.locator('h1').textContent()).toBe(brokerStringsFr.formTitle(domain));
    expect(await fr.page.getByLabel(brokerStringsFr.emailLabel).count()).toBe(1);
    const arPage = await open(french, arabic(linkA));
    expect(await arPage.page.getAttribute('html', 'lang')).toBe('ar');
    expect(await arPage.page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await arPage.page.locator('h1').textContent()).toBe(brokerStringsAr.formTitle(domain));
    expect(await arPage.page.getByRole('button', { name: brokerStringsAr.submit }).count()).toBe(1);
    await inEveryLook(arPage.page, 'form');
    for (const p of [page, fr.page, arPage.page]) await p.close();
    expect(await casesFor(domain)).toEqual([]);
  });

  it('a bad address and an unticked box: the form again, each error tied to its field, what was typed kept', async () => {
    freshMinute();
    const { page } = await open(english, linkA);
    const field = page.getByLabel(brokerStringsEn.emailLabel);
    const box = page.getByLabel(brokerStringsEn.consentLabel);
    expect((await send(page, brokerStringsEn.submit)).status()).toBe(400);
    // Announced, listed with links to the fields, each field invalid and described by its own error.
    const alert = page.getByRole('alert');
    expect(await alert.locator('p').textContent()).toBe(baseStrings.validationError);
    expect(await alert.locator('li').allTextContents()).toEqual([
      brokerStringsEn.badEmail,
      brokerStringsEn.needConsent,
    ]);
    expect(await alert.locator('a').first().getAttribute('href')).toBe('#buyer_email');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const described = (await field.getAttribute('aria-describedby'))!.split(' ');
    expect(await textOf(page, described.at(-1)!)).toBe(brokerStringsEn.badEmail);
    expect(await textOf(page, (await box.getAttribute('aria-describedby'))!)).toBe(brokerStringsEn.needConsent);
    // The first field to fix has the focus.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('buyer_email');
    await inEveryLook(page, 'errors');

    await field.fill('person@');
    await box.check();
    expect((await send(page, brokerStringsEn.submit)).status()).toBe(400);
    expect(await page.getByRole('alert').locator('li').allTextContents()).toEqual([brokerStringsEn.badEmail]);
    expect(await field.inputValue()).toBe('person@');
    expect(await box.isChecked()).toBe(true);

    await field.fill(email);
    await box.uncheck();
    expect((await send(page, brokerStringsEn.submit)).status()).toBe(400);
    expect(await page.getByRole('alert').locator('li').allTextContents()).toEqual([brokerStringsEn.needConsent]);
    expect(await field.inputValue()).toBe(email);
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('consent');
    await page.close();

    const ar = await open(english, arabic(linkA));
    await send(ar.page, brokerStringsAr.submit);
    expect(await ar.page.getByRole('alert').locator('li').allTextContents()).toEqual([
      brokerStringsAr.badEmail,
      brokerStringsAr.needConsent,
    ]);
    await inEveryLook(ar.page, 'errors');
    await ar.page.close();
    // Without the person's consent, nothing was opened.
    expect(await casesFor(domain)).toEqual([]);
  });

  it('busy: the form again, what was typed kept, naming the wait', async () => {
    freshMinute();
    const { page } = await open(english, linkA);
    await page.getByLabel(brokerStringsEn.emailLabel).fill(email);
    await page.getByLabel(brokerStringsEn.consentLabel).check();
    // Someone at the same address used up this minute's requests (the visitor limit of writes).
    while ((await fetch(linkA)).status !== 429);
    const answer = await send(page, brokerStringsEn.submit);
    expect(answer.status()).toBe(429);
    const seconds = Number(answer.headers()['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(await page.getByRole('alert').textContent()).toBe(purchaseStrings.rateLimitedFor(seconds));
    expect(await page.getByLabel(brokerStringsEn.emailLabel).inputValue()).toBe(email);
    expect(await page.getByLabel(brokerStringsEn.consentLabel).isChecked()).toBe(true);
    await inEveryLook(page, 'busy');
    await page.close();
    // The page itself, opened while busy, is the form with the wait (in Arabic here).
    const ar = await open(english, arabic(linkA));
    expect(ar.status).toBe(429);
    expect(await ar.page.getByRole('alert').textContent()).toBe(widgetAr.rateLimitedFor(ar.retryAfter));
    expect(await ar.page.getByRole('button', { name: brokerStringsAr.submit }).count()).toBe(1);
    await inEveryLook(ar.page, 'busy');
    await ar.page.close();
    expect(await casesFor(domain)).toEqual([]);
  });

  it('sent: one case, who will write, and its progress link; the same form sent again opens no second', async () => {
    freshMinute();
    const en = await open(english, linkA);
    const ar = await open(english, arabic(linkA));
    for (const [page, words] of [
      [en.page, brokerStringsEn],
      [ar.page, brokerStringsAr],
    ] as const) {
      await page.getByLabel(words.emailLabel).fill(email);
      await page.getByLabel(words.consentLabel).check();
      expect([200, 201]).toContain((await send(page, words.submit)).status());
      expect(await page.locator('h1').textContent()).toBe(words.sentTitle);
      expect(await page.getByTestId('sent').textContent()).toBe(words.sentText(domain, email));
      const progress = page.getByRole('link', { name: words.progressLink });
      expect(await progress.getAttribute('href')).toMatch(/^https?:\/\//);
      await inEveryLook(page, 'sent');
      await page.close();
    }
    expect(await casesFor(domain)).toHaveLength(1);
  });

  it('a name already in a case, with a live site, or listed: why, and what to do instead', async () => {
    freshMinute();
    const states = [
      { state: 'open-case', url: linkB, name: domain, text: brokerStringsEn.openCase, ar: brokerStringsAr.openCase },
      {
        state: 'live-site',
        url: await signedLink('live-site.com', 15_000),
        name: 'live-site.com',
        text: brokerStringsEn.liveSite,
        ar: brokerStringsAr.liveSite,
      },
      {
        state: 'listed',
        url: await signedLink('coffeehouse.com', 15_000),
        name: 'coffeehouse.com',
        text: brokerStringsEn.listed,
        ar: brokerStringsAr.listed,
      },
    ];
    for (const { state, url, name, text, ar } of states) {
      if (state === 'listed') freshMinute();
      let en = await open(english, url);
      if (state === 'open-case') {
        // The case may be this link's own: the form is shown, and sending it says whose it is.
        await en.page.getByLabel(brokerStringsEn.emailLabel).fill(email);
        await en.page.getByLabel(brokerStringsEn.consentLabel).check();
        en = { ...en, status: (await send(en.page, brokerStringsEn.submit)).status() };
      }
      expect(en.status).toBe(409);
      expect(await en.page.getByTestId('reason').textContent()).toBe(text(name));
      expect(await en.page.getByRole('textbox').count()).toBe(0);
      const next = en.page.getByTestId('next');
      if (state === 'listed') {
        // biome-ignore lint/performance/useDomNodeTextContent: the words as shown (a flex box once dropped a space).
        expect(await next.innerText()).toBe('Buy it at Acme Domains');
        expect(await next.getAttribute('href')).toBe(stack.demo.url);
      } else expect(await next.textContent()).toBe('Ask the assistant to look for another name.');
      await inEveryLook(en.page, state);
      await en.page.close();
      const rtl = await open(english, arabic(url));
      if (state === 'open-case') {
        await rtl.page.getByLabel(brokerStringsAr.emailLabel).fill(email);
        await rtl.page.getByLabel(brokerStringsAr.consentLabel).check();
        await send(rtl.page, brokerStringsAr.submit);
      }
      expect(await rtl.page.getByTestId('reason').textContent()).toBe(ar(name));
      await inEveryLook(rtl.page, state);
      await rtl.page.close();
    }
    expect(await casesFor('live-site.com')).toEqual([]);
    expect(await casesFor('coffeehouse.com')).toEqual([]);
  });

  it('an altered link and an expired one: say so, nothing was sent, ask the assistant for a new link', async () => {
    freshMinute();
    const other = `consent-expired-${Date.now().toString(36)}.com`;
    const linkC = await consentLink(other, 15_000);
    // One character of the signature changed (its first: all six of its bits count).
    const altered = linkA.replace(/(t=[^.]+\.)(.)/, (_, head: string, c: string) => `${head}${c === 'A' ? 'B' : 'A'}`);
    const forged = await open(english, altered);
    expect(forged.status).toBe(400);
    expect(await forged.page.locator('h1').textContent()).toBe('This link cannot be used');
    expect(await forged.page.getByTestId('next').textContent()).toBe('Ask the assistant for a new link.');
    await inEveryLook(forged.page, 'altered');
    await forged.page.close();
    const forgedAr = await open(english, arabic(altered));
    expect(await forgedAr.page.getAttribute('html', 'dir')).toBe('rtl');
    await inEveryLook(forgedAr.page, 'altered');
    await forgedAr.page.close();

    // A form opened in time and sent after its link's 30 minutes: nothing is opened.
    const late = await open(english, linkC);
    await late.page.getByLabel(brokerStringsEn.emailLabel).fill(email);
    await late.page.getByLabel(brokerStringsEn.consentLabel).check();
    clock += 31 * 60_000;
    expect((await send(late.page, brokerStringsEn.submit)).status()).toBe(400);
    expect(await late.page.locator('h1').textContent()).toBe('This link has expired');
    expect(await late.page.locator('p', { hasText: 'Nothing was sent' }).textContent()).toBe(
      'A consent link works for 30 minutes. Nothing was sent.',
    );
    expect(await late.page.getByTestId('next').textContent()).toBe('Ask the assistant for a new link.');
    await inEveryLook(late.page, 'expired');
    await late.page.close();
    const lateAr = await open(english, arabic(linkC));
    expect(await lateAr.page.locator('h1').textContent()).toBe('انتهت صلاحية هذا الرابط');
    await inEveryLook(lateAr.page, 'expired');
    await lateAr.page.close();
    expect(await casesFor(other)).toEqual([]);
  });
});
