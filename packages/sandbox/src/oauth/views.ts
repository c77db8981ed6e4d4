/**
 * Server-rendered HTML of the authorization endpoint: the sign-in and consent page, the error page shown when
 * the request cannot be sent back to the client (unknown client, unregistered redirect URI), and the error page with
 * a link back to the client (an error the sandbox does not redirect by itself). No script, no inline style; every
 * interpolated value is HTML-escaped.
 *
 * Stable selectors: `form[data-testid=consent-form]` (fields `email`, `password`, buttons `decision=allow|deny`),
 * `data-testid="consent-client"`, `data-testid="consent-scope"`, `data-testid="consent-error"`,
 * `data-testid="authorize-error"`, `data-testid="authorize-error-return"` (the link back to the client).
 */
import { escapeHtml } from '../checkout/views.ts';
import { SCOPE_DESCRIPTIONS, type OAuthScope } from './scopes.ts';

/** The stylesheet, served at `/oauth/consent.css`. */
export const CONSENT_CSS = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d9dee7; --accent: #2454d6; --bad: #b42318; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f4f6fa; }
main { max-width: 28rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid var(--line); border-radius: 12px; }
.brand { display: flex; justify-content: space-between; color: var(--muted); font-size: .875rem; margin-bottom: 1.25rem; }
.badge { background: #fff4e5; color: #8a4b00; border-radius: 999px; padding: .125rem .625rem; font-weight: 600; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
ul.scopes { padding-left: 1.25rem; }
form { display: grid; gap: .75rem; margin-top: 1rem; }
label { display: grid; gap: .25rem; font-size: .875rem; color: var(--muted); }
input { font: inherit; padding: .625rem .75rem; border: 1px solid var(--line); border-radius: 8px; }
.actions { display: grid; grid-template-columns: 2fr 1fr; gap: .75rem; }
button { font: inherit; font-weight: 600; padding: .75rem; border: 0; border-radius: 8px; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #eef1f6; color: var(--ink); }
.alert { border-radius: 8px; padding: .75rem 1rem; background: #fef3f2; color: var(--bad); border: 1px solid #fecdca; }
.hint { color: var(--muted); font-size: .875rem; }
code { background: #f4f6fa; padding: 0 .25rem; border-radius: 4px; }
`.trimStart();

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="consent.css">
</head>
<body>
<main>
<div class="brand"><span>Marketplace sign-in</span><span class="badge">Sandbox</span></div>
${body}
</main>
</body>
</html>
`;
}

/** The authorization request's parameters, carried through the form as hidden fields. */
export type HiddenFields = Readonly<Record<string, string | undefined>>;

/** The sign-in and consent page. */
export function consentPage(input: {
  clientName: string | null;
  clientId: string;
  redirectHost: string;
  scopes: readonly OAuthScope[];
  hidden: HiddenFields;
  error?: string;
  email?: string;
}): string {
  const name = input.clientName ?? 'An unnamed application';
  const hidden = Object.entries(input.hidden)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n');
  const scopes = input.scopes
    .map(
      (s) => `<li data-testid="consent-scope" data-scope="${escapeHtml(s)}">${escapeHtml(SCOPE_DESCRIPTIONS[s])}</li>`,
    )
    .join('');
  const error = input.error
    ? `<p class="alert" role="alert" data-testid="consent-error">${escapeHtml(input.error)}</p>`
    : '';
  return page(
    `Sign in to allow ${name}`,
    `<h1>Sign in to continue</h1>
<p><strong data-testid="consent-client">${escapeHtml(name)}</strong> <span class="hint">(${escapeHtml(input.clientId)})</span> asks to:</p>
<ul class="scopes">${scopes}</ul>
<p class="hint">After you answer, you go back to <code>${escapeHtml(input.redirectHost)}</code>.</p>
${error}<form method="post" action="authorize" data-testid="consent-form">
${hidden}
<label for="email">Email
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
</label>
<label for="password">Password
<input id="password" name="password" type="password" autocomplete="current-password" required>
</label>
<div class="actions">
<button type="submit" name="decision" value="allow">Sign in and allow</button>
<button type="submit" name="decision" value="deny" class="secondary" formnovalidate>Deny</button>
</div>
</form>
<p class="hint">Sandbox: the demo user's email and password are in <code>sandbox-user.json</code> in the sandbox's data folder.</p>`,
  );
}

/**
 * The page for a refused request whose answer the client may have, but only if the user chooses to go back
 * (RFC 9700 4.11.2): the error, and a link to the client's redirect URI carrying it, naming where it leads.
 */
export function authorizeErrorReturnPage(input: {
  clientName: string | null;
  description: string;
  returnUrl: string;
  returnHost: string;
}): string {
  const name = input.clientName ?? 'An unnamed application';
  return page(
    'This sign-in request was refused',
    `<h1 data-testid="authorize-error">This sign-in request was refused</h1>
<p>The request from <strong>${escapeHtml(name)}</strong> cannot be completed: ${escapeHtml(input.description)}</p>
<p class="hint">Nothing was shared. Close this page if you did not expect it.</p>
<p><a data-testid="authorize-error-return" rel="noreferrer" href="${escapeHtml(input.returnUrl)}">Return to <code>${escapeHtml(input.returnHost)}</code></a></p>`,
  );
}

/** The page for a request that cannot be answered to the client. */
export function authorizeErrorPage(title: string, message: string): string {
  return page(title, `<h1 data-testid="authorize-error">${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
