/**
 * Every word the visitor reads comes from `strings`: each BFF error code has its string (the BFF's English
 * `message` never reaches the page), an unknown code the generic one, Retry only where retrying can help; prices
 * and names inside right-to-left text are isolated and formatted with the page's locale.
 */
import { expect } from '@esm-bundle/chai';
import type { DkDomainSearch } from './domain-search/domain-search.component.ts';
import { formatPrice } from './format.ts';
import { ar } from './locales/ar.ts';
import { brokerStringsFr } from './broker-button/broker-strings.ts';
import { fr } from './locales/fr.ts';
import { baseStrings } from './strings.ts';
import { type FetchStub, useFetchStub } from './test-support/fetch-stub.ts';
import { fixture, nextEvent, part, rows, text, type, untilState } from './test-support/fixtures.ts';
import './domain-search/domain-search.ts';

const FSI = '\u2068';
const PDI = '\u2069';

/** A search box in a container with `lang` (and `dir`), using `strings`. */
async function localized(lang: string, strings: object, dir = 'ltr'): Promise<DkDomainSearch> {
  const search = await fixture('dk-domain-search', { debounce: '0' });
  Object.assign(search.parentElement!, { lang, dir });
  search.strings = strings;
  await search.updateComplete;
  return search;
}

/**
 * `element`'s text in the order its characters appear on screen, left to right (zero-width marks and spaces left
 * out): what a reader actually sees, whatever the logical order.
 */
function onScreen(element: Element): string {
  const seen: Array<[number, string]> = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const chars = node.textContent ?? '';
    for (let i = 0; i < chars.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const { left, width } = range.getBoundingClientRect();
      if (width > 0 && chars[i]!.trim()) seen.push([left, chars[i]!]);
    }
  }
  return seen
    .sort((a, b) => a[0] - b[0])
    .map(([, char]) => char)
    .join('');
}

/** The error box's message and whether its Retry button is shown. */
function problem(search: DkDomainSearch): { message: string; retry: boolean } {
  return {
    message: text(part(search, '[part="error-message"]')),
    retry: !part(search, '[part="retry-button"]').hidden,
  };
}

describe('every visitor-visible word comes from strings', () => {
  let stub: FetchStub;
  useFetchStub((fresh) => {
    stub = fresh;
  });

  it('a 300-character paste shows the localized "too long" message, without a Retry that can only fail', async () => {
    const search = await localized('fr', fr);
    const failed = nextEvent(search, 'dk-error');
    type(search, 'café'.repeat(75));
    (await stub.call(0)).respond(400, {
      error: {
        code: 'query_too_long',
        message: '`q` is too long: at most 100 characters (received 300).',
        max_length: 100,
      },
    });
    await untilState(search, 'error');

    expect(problem(search)).to.deep.equal({ message: fr.queryTooLong, retry: false });
    expect((await failed).detail.message, 'dk-error carries the message shown').to.equal(fr.queryTooLong);
    expect(text(part(search, '[part="status"]')), 'announced in French too').to.equal(fr.queryTooLong);
  });

  it('an unknown code shows the generic localized message, never the BFF English text; Retry only for a 5xx', async () => {
    const search = await localized('fr', fr);
    type(search, 'coffee');
    (await stub.call(0)).respond(500, {
      error: { code: 'brand_new_failure', message: 'The flux capacitor is offline; try again.' },
    });
    await untilState(search, 'error');
    expect(problem(search)).to.deep.equal({ message: fr.unknownError, retry: true });
    expect(search.shadowRoot!.textContent).not.to.contain('flux capacitor');

    part(search, '[part="retry-button"]').click();
    (await stub.call(1)).respond(418, { error: { code: 'teapot', message: 'I am a teapot.' } });
    await untilState(search, 'error');
    expect(problem(search), 'a 4xx the widget does not know: no Retry').to.deep.equal({
      message: fr.unknownError,
      retry: false,
    });
  });

  it('maps the codes a visitor can meet to their own strings, with Retry where it can help', async () => {
    const search = await localized('ar', ar, 'rtl');
    const cases: Array<[status: number, code: string, shown: string, retry: boolean]> = [
      [400, 'validation_error', ar.validationError, false],
      [502, 'upstream_error', ar.unknownError, true],
      [503, 'unavailable', ar.serviceUnavailable, true],
      [504, 'upstream_timeout', ar.upstreamTimeout, true],
      [500, 'internal_error', ar.unknownError, true],
    ];
    let i = 0;
    for (const [status, code, shown, retry] of cases) {
      type(search, `coffee${i}`);
      (await stub.call(i++)).respond(status, { error: { code, message: `English text for ${code}` } });
      await untilState(search, 'error');
      expect(problem(search), code).to.deep.equal({ message: shown, retry });
    }
  });

  it("shows its own deadline's state (no answer within 20 s) with its string and a Retry", async () => {
    // The call's deadline is `AbortSignal.timeout(20_000)`: make it pass at once.
    const timeout = AbortSignal.timeout;
    AbortSignal.timeout = (() => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new DOMException('signal timed out', 'TimeoutError')), 5);
      return controller.signal;
    }) as typeof AbortSignal.timeout;
    try {
      const search = await localized('en', {});
      const failed = nextEvent(search, 'dk-error');
      type(search, 'coffee');
      await stub.call(0); // never answered
      await untilState(search, 'error');
      expect((await failed).detail.code).to.equal('upstream_timeout');
      expect(problem(search)).to.deep.equal({ message: baseStrings.upstreamTimeout, retry: true });
    } finally {
      AbortSignal.timeout = timeout;
    }
  });

  it('an Arabic page shows Arabic strings, prices in its locale and isolated, and the query isolated', async () => {
    const search = await localized('ar', ar, 'rtl');
    type(search, 'coffee');
    (await stub.call(0)).respond(200, {
      query: 'coffee',
      results: [
        { domain: 'coffeehouse.com', available: true, price_cents: 781000, currency: 'USD' },
        { domain: 'coffee.shop', available: false, price_cents: null, currency: null },
      ],
    });
    await untilState(search, 'results');

    const [row, taken] = rows(search);
    const price = row!.querySelector('[part="price"]')!;
    expect(price.localName, 'the price is a <bdi>: its own direction, isolated from the row').to.equal('bdi');
    expect(price.textContent).to.equal(formatPrice(781000, 'USD', 'ar'));
    expect(getComputedStyle(price).unicodeBidi).to.equal('isolate');
    // Read right to left, "7,810 US$": on screen (left to right) "US$ 7,810", never "$US 7,810".
    expect(onScreen(price)).to.equal('US$7,810');
    const name = row!.querySelector('[part="name"]')!;
    expect([name.localName, text(name)]).to.deep.equal(['bdi', 'coffeehouse.com']);
    expect(text(row!.querySelector('[part~="availability"]'))).to.equal(ar.available);
    expect(text(taken!.querySelector('[part~="availability"]'))).to.equal(ar.unavailable);
    expect(text(row!.querySelector('[part="buy-button"]'))).to.equal(ar.buy);
    expect(text(part(search, '[part="status"]'))).to.equal(ar.resultCount(2));
    expect(part(search, '[part="input"]').getAttribute('placeholder')).to.equal(ar.searchPlaceholder);

    // A Latin query inside an Arabic sentence: isolated, so it cannot reorder the sentence around it.
    type(search, 'coffee 2 go');
    (await stub.call(1)).respond(200, { query: 'coffee 2 go', results: [] });
    await untilState(search, 'empty');
    expect(part(search, '[part="message"]').textContent).to.equal(ar.noResults(`${FSI}coffee 2 go${PDI}`));
  });
});

describe('French strings', () => {
  it('keep : ; ? ! and » on the line of the word before them, as French sets them (a no-break space)', () => {
    const texts = [fr, brokerStringsFr].flatMap((set) =>
      Object.entries(set).map(([key, value]) => {
        const shown: unknown =
          typeof value === 'function' ? (value as (...a: unknown[]) => unknown)('exemple.com', 'x', 'y') : value;
        return [key, shown] as const;
      }),
    );
    const loose = texts.filter(([, shown]) => typeof shown === 'string' && /[^\s] [:;?!»]|« /.test(shown));
    expect(loose.map(([key]) => key)).to.deep.equal([]);
  });
});
