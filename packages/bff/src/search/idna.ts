/**
 * Internationalised domain names in search queries (IDNA, UTS #46; RFC 5890): the BFF maps a name typed in Unicode to
 * its ASCII `xn--` form before its cache and the marketplace see it, with WHATWG URL's host parser (which implements
 * UTS #46 processing on every runtime: Node, Bun, Deno, workerd).
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point.
const ASCII = /^[\x00-\x7f]*$/;

/** Characters that would make the URL parser read a word as more than a host (path, query, user, port...). */
const NOT_A_HOST = /[/?#@:\\%[\]]/;

/**
 * `words` (lowercased, single spaces) with each word that holds a character outside ASCII in Unicode NFC and then
 * its IDNA ToASCII form (UTS #46, nontransitional) when it is a valid host name: `münchen.de` → `xn--mnchen-3ya.de`.
 * ASCII (`xn--` forms included) is returned as is: it is NFC already and needs no mapping.
 */
export function idnaWords(words: string): string {
  return ASCII.test(words) ? words : words.normalize('NFC').split(' ').map(asciiName).join(' ');
}

/** `word`'s ToASCII form, or `word` itself when it is ASCII or no valid host name. */
function asciiName(word: string): string {
  if (ASCII.test(word) || NOT_A_HOST.test(word)) return word;
  try {
    const host = new URL(`http://${word}/`).hostname;
    // Full-width digits map to ASCII ones, which the host parser then reads as an IPv4 address: not a name.
    return /^[\d.]+$/.test(host) ? word : host;
  } catch {
    return word;
  }
}
