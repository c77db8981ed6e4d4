/**
 * Redirect URIs of public clients (OAuth 2.1 section 2.3, RFC 8252 7, RFC 9700 4.1): which may be registered, and
 * how a presented one is matched to the registered ones.
 *
 * Registrable: `https` URLs; `http` only on a loopback host (`127.0.0.1`, `[::1]`, `localhost`); private-use schemes
 * in reverse-domain form (`com.example.app:/callback`, RFC 8252 7.1). Refused: fragments, user info, relative URIs,
 * and schemes that run or embed content (`javascript:`, `data:`, `vbscript:`, `file:`, `blob:`, `about:` ...).
 *
 * Matching is exact string comparison, except that the port of a loopback `http` URI may differ (RFC 8252 7.3:
 * native apps listen on an ephemeral port).
 */

/** Schemes never accepted, whatever their shape. */
const DANGEROUS_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'filesystem',
  'view-source',
  'ws',
  'wss',
  'ftp',
  'chrome',
  'chrome-extension',
  'moz-extension',
  'jar',
  'mailto',
  'tel',
  'sms',
]);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The problem with a redirect URI, or `undefined` when it may be registered. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (DANGEROUS_SCHEMES.has(scheme)) return `uses the scheme "${scheme}:", which is never allowed`;
  if (uri.includes('#')) return 'contains a fragment (#), which redirect URIs must not have';
  if (url.username !== '' || url.password !== '') return 'contains user information';
  if (scheme === 'https') return url.hostname === '' ? 'has no host' : undefined;
  if (scheme === 'http')
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : 'uses http on a host that is not loopback: use https (http is allowed on 127.0.0.1, [::1] and localhost only)';
  // Private-use URI scheme of a native app: reverse domain name, at least one dot (RFC 8252 7.1).
  if (/^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+$/.test(scheme)) return undefined;
  return `uses the scheme "${scheme}:": use https, http on a loopback address, or a reverse-domain private-use scheme such as "com.example.app:"`;
}

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * True when a registered redirect URI cannot take a browser to another web site: `http` on a loopback host (a native
 * app on the user's own machine, RFC 8252 7.3) or a private-use scheme (a native app, RFC 8252 7.1). The
 * authorization endpoint redirects errors automatically only to these; an `https` URI of a dynamically registered
 * client is anyone's site (RFC 9700 4.11.2).
 */
export function redirectStaysOnDevice(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return false;
  return url.protocol === 'http:' ? isLoopbackHttp(url) : true;
}

/**
 * Finds the registered redirect URI a presented one matches.
 * @returns the presented URI when it equals a registered one (a loopback `http` URI may differ in port only),
 *   else `undefined`.
 */
export function matchRedirectUri(registered: readonly string[], presented: string): string | undefined {
  if (registered.includes(presented)) return presented;
  let url: URL;
  try {
    url = new URL(presented);
  } catch {
    return undefined;
  }
  if (!isLoopbackHttp(url) || presented.includes('#')) return undefined;
  for (const candidate of registered) {
    let reg: URL;
    try {
      reg = new URL(candidate);
    } catch {
      continue;
    }
    if (!isLoopbackHttp(reg)) continue;
    const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
    // Compare the URIs as sent (not normalised), apart from the port.
    const strip = (s: string) => s.replace(/^(http:\/\/(?:\[[^\]]+\]|[^/:?#]+))(?::\d+)?/, '$1');
    if (withoutPort(reg) === withoutPort(url) && strip(candidate) === strip(presented)) return presented;
  }
  return undefined;
}
