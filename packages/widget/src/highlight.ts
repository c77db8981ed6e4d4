/** Highlighting of the matched part of a domain name in search results. */

/**
 * Splits `name` into `[text, matched]` pieces: every case-insensitive occurrence of each word of `query`
 * (split on anything that is not a letter or a digit) is matched; overlapping matches merge.
 * `highlight('coffeehouse.com', 'coffee house')` → `[['coffee', true], ['house', true], ['.com', false]]`.
 */
export function highlight(name: string, query: string): Array<[string, boolean]> {
  const lower = name.toLowerCase();
  const marked: boolean[] = [];
  for (const word of query.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    for (let at = word ? lower.indexOf(word) : -1; at >= 0; at = lower.indexOf(word, at + 1)) {
      for (let i = at; i < at + word.length; i++) marked[i] = true;
    }
  }
  const pieces: Array<[string, boolean]> = [];
  for (let i = 0; i < name.length; i++) {
    const m = marked[i] === true;
    const last = pieces[pieces.length - 1];
    if (last && last[1] === m) last[0] += name[i];
    else pieces.push([name[i]!, m]);
  }
  return pieces;
}
