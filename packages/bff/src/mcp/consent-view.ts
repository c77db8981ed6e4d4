/**
 * The HTML of the brokerage consent page (consent.ts): one self-contained document per state, in the person's
 * language (consent-strings.ts), light and dark (`prefers-color-scheme`), from 320 px wide up, with no script at
 * all. Its one stylesheet is inline and allowed by its SHA-256 hash in the page's Content-Security-Policy (no
 * `'unsafe-inline'`); no element carries a `style` attribute. Every interpolated value is HTML-escaped; names and
 * addresses inside a sentence are isolated (`<bdi>`), so a right-to-left page never reorders them.
 */
import type { ConsentStrings } from './consent-strings.ts';

/** The page's stylesheet: colour tokens for light and dark, logical properties (right to left needs no rule of its own). */
export const CONSENT_CSS = `
:root{color-scheme:light dark;--ink:#1d2330;--muted:#5b6475;--line:#d9dee7;--edge:#6b7385;--accent:#2454d6;--on-accent:#fff;--bad:#b42318;--bad-bg:#fef3f2;--bad-line:#fecdca;--good:#067647;--good-bg:#ecfdf3;--good-line:#abefc6;--page:#f4f6fa;--card:#fff;--field:#fff}
@media (prefers-color-scheme:dark){:root{--ink:#e6e9ef;--muted:#a3adbb;--line:#3d4653;--edge:#8b949e;--accent:#7aa2ff;--on-accent:#0d1117;--bad:#ffa198;--bad-bg:#3a1d1d;--bad-line:#7a2e2a;--good:#6fdd9b;--good-bg:#10301f;--good-line:#2f6b47;--page:#0d1117;--card:#161b22;--field:#0d1117}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic",sans-serif;color:var(--ink);background:var(--page);overflow-wrap:anywhere}
main{max-width:34rem;margin:clamp(0rem,4vw,3rem) auto;padding:clamp(1rem,5vw,2rem);background:var(--card);border:1px solid var(--line);border-radius:12px}
@media (max-width:34rem){main{border-inline:0;border-radius:0}}
.shop{margin:0 0 .75rem;color:var(--muted);font-size:.875rem;font-weight:600}
h1{margin:0 0 1rem;font-size:1.5rem;line-height:1.3}
p{margin:0 0 1rem}
dl{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem 1rem;margin:0 0 .5rem;padding:.75rem 1rem;border:1px solid var(--line);border-radius:8px}
dt{color:var(--muted)}
dd{margin:0;font-weight:600}
.muted{color:var(--muted);font-size:.875rem}
form{display:grid;gap:1.25rem;margin:1.5rem 0 1rem}
.field{display:grid;gap:.25rem}
label{font-weight:600}
.hint,.field-error{margin:0;font-size:.875rem}
.hint{color:var(--muted)}
.field-error{color:var(--bad);font-weight:600}
input[type=email]{font:inherit;width:100%;min-width:0;min-height:44px;padding:.5rem .75rem;border:1px solid var(--edge);border-radius:8px;color:var(--ink);background:var(--field)}
[dir=rtl] input[type=email]{text-align:right}
input[aria-invalid=true]{border:2px solid var(--bad)}
.check{display:flex;gap:.75rem;align-items:flex-start}
.check input{flex:none;width:1.5rem;height:1.5rem;margin:0;accent-color:var(--accent)}
.check label{font-weight:400}
/* A link that looks like a button holds one span: its words keep their spaces (a flex container would drop them). */
button,.button{display:flex;align-items:center;justify-content:center;width:100%;min-height:44px;padding:.5rem 1.25rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.alert{margin:0 0 1rem;padding:.75rem 1rem;border:1px solid var(--bad-line);border-radius:8px;background:var(--bad-bg);color:var(--bad)}
.alert p{margin:0}
.alert ul{margin:.25rem 0 0;padding-inline-start:1.25rem}
.alert a{color:inherit;font-weight:600}
.done{border-color:var(--good-line);background:var(--good-bg);color:var(--good)}
.next{font-weight:600}
`.trim();

let styleHash: Promise<string> | undefined;

/** The CSP source of {@link CONSENT_CSS}: `'sha256-<base64>'` (CSP 3 "hash-source"). */
function styleSource(): Promise<string> {
  styleHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(CONSENT_CSS)).then((digest) => {
    let binary = '';
    for (const b of new Uint8Array(digest)) binary += String.fromCharCode(b);
    return `'sha256-${btoa(binary)}'`;
  });
  return styleHash;
}

/** `text` with `& < > " '` escaped for HTML text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A sentence of `words` about `values` as HTML: the sentence escaped, each value escaped and isolated in `<bdi>`
 * (a domain or an address keeps its own direction inside a sentence of the other).
 */
export function sentence<A extends string[]>(words: (...values: A) => string, ...values: A): string {
  const marks = values.map((_, i) => `\uE000${i}\uE000`) as A;
  return escapeHtml(words(...marks)).replace(/\uE000(\d+)\uE000/g, (_, i: string) => {
    return `<bdi>${escapeHtml(values[Number(i)]!)}</bdi>`;
  });
}

/**
 * An amount in cents of `currency` as the person reads it (`Intl`, whole amounts without decimals), written as the
 * widget writes prices: in a right-to-left pattern (`ar`: "‏150 US$", its right-to-left mark first) the currency is
 * isolated (U+2068 … U+2069, UAX #9), else its "$" would join the line's direction and read "$US".
 */
export function formatMoney(cents: number, currency: string, locale: string): string {
  try {
    const parts = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      trailingZeroDisplay: 'stripIfInteger',
    }).formatToParts(cents / 100);
    const rtl = /^[\u200f\u061c]/.test(parts[0]?.value ?? '');
    return parts.map(({ type, value }) => (rtl && type === 'currency' ? `\u2068${value}\u2069` : value)).join('');
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/**
 * A whole page: `<html lang dir>`, the shop's name above `body` (trusted HTML: escape what goes in), and its headers
 * (HTML, the language, a policy that allows this stylesheet and forms to this page, nothing else).
 * @param headers - more headers (`Retry-After`, `Allow` of the answer this page stands for).
 */
export async function consentHtml(
  t: ConsentStrings,
  shopName: string,
  title: string,
  body: string,
  status: number,
  headers?: Headers,
): Promise<Response> {
  const html = `<!doctype html>
<html lang="${t.lang}" dir="${t.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${CONSENT_CSS}</style>
</head>
<body>
<main>
<p class="shop"><bdi>${escapeHtml(shopName)}</bdi></p>
${body}
</main>
</body>
</html>
`;
  const answer = new Headers(headers);
  answer.delete('Content-Length');
  answer.set('Content-Type', 'text/html; charset=utf-8');
  answer.set('Content-Language', t.lang);
  // No script at all; this stylesheet alone; the form posts to this page only.
  answer.set(
    'Content-Security-Policy',
    `default-src 'none';style-src ${await styleSource()};form-action 'self';frame-ancestors 'none';base-uri 'none'`,
  );
  return new Response(html, { status, headers: answer });
}

/** What the person typed, shown again with an error. */
export interface ConsentValues {
  readonly email: string;
  readonly consent: boolean;
}

/** What the form says above itself: fields to fix, or why it was not sent and when to send it again. */
export type FormNotice =
  | { readonly kind: 'fields'; readonly email: boolean; readonly consent: boolean }
  | { readonly kind: 'busy'; readonly seconds: number }
  | { readonly kind: 'failed' };

/** The form's page body: what will happen, the budget, the e-mail field and the consent box, and `notice`. */
export function formBody(
  t: ConsentStrings,
  input: {
    readonly shopName: string;
    readonly token: string;
    readonly domain: string;
    readonly budgetCents: number;
    readonly currency: string;
    readonly tier: string;
    readonly minutesLeft: number;
    readonly values: ConsentValues;
    readonly notice?: FormNotice | undefined;
  },
): string {
  const { values, notice } = input;
  const fields = notice?.kind === 'fields' ? notice : { email: false, consent: false };
  const problems = [
    fields.email ? `<li><a href="#buyer_email">${escapeHtml(t.badEmail)}</a></li>` : '',
    fields.consent ? `<li><a href="#consent">${escapeHtml(t.needConsent)}</a></li>` : '',
  ].join('');
  const alert =
    notice === undefined
      ? ''
      : notice.kind === 'fields'
        ? `<div class="alert" role="alert" data-testid="errors"><p>${escapeHtml(t.checkForm)}</p><ul>${problems}</ul></div>`
        : `<div class="alert" role="alert" data-testid="notice"><p>${escapeHtml(notice.kind === 'busy' ? t.busy(notice.seconds) : t.failed)}</p></div>`;
  const tier = t.tier[input.tier as keyof ConsentStrings['tier']];
  const emailDescribed = fields.email ? 'buyer_email-hint buyer_email-error' : 'buyer_email-hint';
  // The first field to fix takes the focus as the page opens (no script needed); its error is read with it.
  const emailFocus = fields.email ? ' autofocus' : '';
  const consentFocus = fields.consent && !fields.email ? ' autofocus' : '';
  return `<h1>${sentence(t.formTitle, input.domain)}</h1>
${alert}<p>${sentence(t.prepared, input.shopName)}</p>
<p>${sentence(t.offerText, input.domain)}${tier === undefined ? '' : ` ${escapeHtml(tier)}`}</p>
<dl><dt>${escapeHtml(t.budgetLabel(input.currency))}</dt><dd><bdi data-testid="budget">${escapeHtml(formatMoney(input.budgetCents, input.currency, t.locale))}</bdi></dd></dl>
<p class="muted">${escapeHtml(t.payOnDeal)}</p>
<form method="post" novalidate>
<input type="hidden" name="t" value="${escapeHtml(input.token)}">
<div class="field">
<label for="buyer_email">${escapeHtml(t.emailLabel)}</label>
<p class="hint" id="buyer_email-hint">${escapeHtml(t.emailHint)}</p>
${fields.email ? `<p class="field-error" id="buyer_email-error">${escapeHtml(t.badEmail)}</p>\n` : ''}<input id="buyer_email" name="buyer_email" type="email" dir="ltr" required autocomplete="email" spellcheck="false" maxlength="254" value="${escapeHtml(values.email)}" aria-describedby="${emailDescribed}"${fields.email ? ' aria-invalid="true"' : ''}${emailFocus}>
</div>
<div class="field">
<div class="check"><input id="consent" name="consent" type="checkbox" value="true" required${values.consent ? ' checked' : ''}${fields.consent ? ' aria-invalid="true" aria-describedby="consent-error"' : ''}${consentFocus}>
<label for="consent">${escapeHtml(t.consentLabel)}</label></div>
${fields.consent ? `<p class="field-error" id="consent-error">${escapeHtml(t.needConsent)}</p>\n` : ''}</div>
<button type="submit">${escapeHtml(t.submit)}</button>
</form>
<p class="muted">${escapeHtml(t.linkValidFor(input.minutesLeft))}</p>`;
}

/** A link that cannot be used: why, and to ask for a new one. */
export function linkBody(t: ConsentStrings, reason: 'invalid' | 'expired', ttlMinutes: number): string {
  const [title, why] =
    reason === 'expired' ? [t.linkExpiredTitle, t.linkExpired(ttlMinutes)] : [t.linkInvalidTitle, t.linkInvalid];
  return `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(why)}</p>
<p class="next" data-testid="next">${escapeHtml(t.askNewLink)}</p>`;
}

/**
 * A name the brokers cannot take (the marketplace's `reason`): why, and what to do instead; a name listed for sale
 * links to the shop's page when the shop gave one (`shopUrl`).
 */
export function refusedBody(
  t: ConsentStrings,
  input: { readonly domain: string; readonly reason: string; readonly shopName: string; readonly shopUrl?: string },
): string {
  if (input.reason === 'listed') {
    const next =
      input.shopUrl === undefined
        ? `<p class="next" data-testid="next">${escapeHtml(t.askCheckout)}</p>`
        : `<p><a class="button" href="${escapeHtml(input.shopUrl)}" data-testid="next"><span>${sentence(t.buyAt, input.shopName)}</span></a></p>`;
    return `<h1>${escapeHtml(t.listedTitle)}</h1>
<p data-testid="reason">${sentence(t.listed, input.domain)}</p>
${next}`;
  }
  const why = input.reason === 'live_site' ? t.liveSite : input.reason === 'open_case' ? t.openCase : t.notEligible;
  return `<h1>${escapeHtml(t.notSentTitle)}</h1>
<p data-testid="reason">${sentence(why, input.domain)}</p>
<p class="next" data-testid="next">${escapeHtml(t.askAnother)}</p>`;
}

/** A form sent from another page: nothing was sent; open the assistant's link again. */
export function forbiddenBody(t: ConsentStrings): string {
  return `<h1>${escapeHtml(t.notSentTitle)}</h1>
<p class="next" data-testid="next">${escapeHtml(t.forbidden)}</p>`;
}

/** The case is open: who writes to the person, and its progress page (an http(s) URL, else none). */
export function sentBody(
  t: ConsentStrings,
  input: { readonly domain: string; readonly email: string; readonly progressUrl: string | undefined },
): string {
  return `<h1>${escapeHtml(t.sentTitle)}</h1>
<p class="alert done" data-testid="sent">${sentence(t.sentText, input.domain, input.email)}</p>
${input.progressUrl === undefined ? '' : `<p><a class="button" href="${escapeHtml(input.progressUrl)}" data-testid="progress"><span>${escapeHtml(t.progressLink)}</span></a></p>`}`;
}
