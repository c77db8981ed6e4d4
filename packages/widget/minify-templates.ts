/**
 * An esbuild plugin for the script-tag build: minifies the static text of Lit's `html` and `css` tagged
 * templates, which esbuild leaves as written (indentation and all).
 *
 * - `css`: comments dropped, whitespace collapsed, no spaces around `{ } ; , >` or after `:`, no `;` before `}`,
 *   no quotes around identifier attribute values, no leading zero before a decimal point.
 * - `html`: a whitespace run that contains a line break disappears when it stands only between tags, `${…}`
 *   expressions and the template's ends (whitespace-only text, which the widget's block, flex and grid layouts
 *   never render), and becomes one space elsewhere (between attributes, next to text); whitespace between two
 *   tags disappears; attribute values that need no quotes lose them. The widget has no `<pre>` or
 *   `white-space: pre` content, so rendering is unchanged.
 *
 * Only the literal parts change; `${…}` expressions (and templates nested in them) are scanned and kept,
 * with nested tagged templates minified in turn. A `css` template without expressions (every stylesheet of the
 * widget) becomes `unsafeCSS(\`…\`)` of its minified text: the same `CSSResult` (one constructable stylesheet,
 * so CSP-clean), without bundling the `css` tag's value checks, which only matter for interpolated values.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

const minifyCss = (text: string): string =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .replace(/\[([\w-]+)(~?=)'([a-z][\w-]*)'\]/g, '[$1$2$3]')
    .replace(/([^\w.])0\.(\d)/g, '$1.$2');

/** A template's literal parts, in order: `first`/`last` say whether a part begins or ends the template. */
type Minifier = (text: string, first: boolean, last: boolean) => string;

/**
 * The `html` minifier of one template. It follows the markup across the template's parts (inside a tag or
 * not, inside a quoted attribute value or not), since a `${…}` may stand in text or in an attribute.
 */
function htmlMinifier(): Minifier {
  const space = /\s+/y;
  const plainValue = /="([\w.:-]+)"(?![^\s>])/y;
  let inTag = false;
  let quote = '';
  return (text, first, last) => {
    let out = '';
    for (let i = 0; i < text.length; ) {
      const c = text[i]!;
      space.lastIndex = plainValue.lastIndex = i;
      const ws = quote ? undefined : space.exec(text)?.[0];
      const value = inTag && !quote ? plainValue.exec(text) : null;
      if (ws) {
        const before = i === 0 ? (first ? '>' : '}') : text[i - 1]!;
        const after = text[i + ws.length] ?? (last ? '<' : '$');
        if (!ws.includes('\n')) out += before === '>' && after === '<' && !inTag ? '' : ws;
        else if (inTag) out += after === '>' ? '' : ' ';
        else out += /[>}]/.test(before) && /[<$]/.test(after) ? '' : ' ';
        i += ws.length;
      } else if (value) {
        // An attribute value that needs no quotes (no space, quote, `=`, `<`, `>`, backtick or `/`).
        out += `=${value[1]}`;
        i += value[0].length;
      } else {
        if (quote) {
          if (c === quote) quote = '';
        } else if (inTag) {
          if (c === '"' || c === "'") quote = c;
          else if (c === '>') inTag = false;
        } else if (c === '<' && /[a-z/!]/i.test(text[i + 1] ?? '')) {
          inTag = true;
        }
        out += c;
        i++;
      }
    }
    return out;
  };
}

/**
 * Rewrites every `html\`…\`` and `css\`…\`` in `source`. A small scanner, not a parser: it assumes the
 * templates' expressions contain no unbalanced braces in strings or comments (true of this package).
 */
export function minifyTemplates(source: string): string {
  let out = '';
  let i = 0;
  const tag = /\b(html|css)`/g;

  /** Copies the template literal starting after its opening backtick at `i`; returns the text with minified parts. */
  const template = (kind: string | undefined): string => {
    const minify: Minifier = kind === 'html' ? htmlMinifier() : kind === 'css' ? minifyCss : (text) => text;
    let text = '';
    let result = '';
    let first = true;
    while (i < source.length) {
      const c = source[i]!;
      if (c === '\\') {
        text += source.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        i++;
        return `${result}${minify(text, first, true)}\``;
      } else if (c === '$' && source[i + 1] === '{') {
        result += `${minify(text, first, false)}\${`;
        first = false;
        text = '';
        i += 2;
        result += expression();
      } else {
        text += c;
        i++;
      }
    }
    throw new Error('unterminated template literal');
  };

  /** Copies a `${…}` expression up to and including its closing brace, handling nested templates. */
  const expression = (): string => {
    let depth = 0;
    let result = '';
    while (i < source.length) {
      const c = source[i]!;
      if (c === '`') {
        const before = /\b(html|css)$/.exec(result);
        i++;
        result += `\`${template(before?.[1])}`;
      } else if (c === "'" || c === '"') {
        const end = source.indexOf(c, i + 1);
        result += source.slice(i, end + 1);
        i = end + 1;
      } else {
        if (c === '{') depth++;
        if (c === '}' && depth-- === 0) {
          i++;
          return `${result}}`;
        }
        result += c;
        i++;
      }
    }
    throw new Error('unterminated template expression');
  };

  let sheets = false;
  for (let match = tag.exec(source); match; match = tag.exec(source)) {
    out += source.slice(i, match.index);
    i = match.index + match[0].length;
    const text = template(match[1]);
    // A static stylesheet (no `${…}`) needs none of the `css` tag's checks of interpolated values.
    const sheet = match[1] === 'css' && !text.includes('${');
    sheets ||= sheet;
    out += sheet ? `${CSS_SHEET}(\`${text})` : match[0] + text;
    tag.lastIndex = i;
  }
  return out + source.slice(i) + (sheets ? `\nimport { unsafeCSS as ${CSS_SHEET} } from 'lit';\n` : '');
}

/** The local name {@link minifyTemplates} gives Lit's `unsafeCSS` in a module whose static `css` it rewrites. */
const CSS_SHEET = '__dkSheet';

/** The esbuild plugin: applies {@link minifyTemplates} to the package's own `.ts` sources. */
export const minifyTemplatesPlugin = (srcDir: string): Plugin => ({
  name: 'minify-lit-templates',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(srcDir)) return undefined;
      return { contents: minifyTemplates(await readFile(args.path, 'utf8')), loader: 'ts' };
    });
  },
});
