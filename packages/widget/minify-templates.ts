/**
 * An esbuild plugin for the script-tag build: minifies the static text of Lit's `html` and `css` tagged
 * templates, which esbuild leaves as written (indentation and all).
 *
 * - `css`: comments dropped, whitespace collapsed, no spaces around `{ } ; , >` or after `:`, no `;` before `}`,
 *   no quotes around identifier attribute values, no leading zero before a decimal point.
 * - `html`: every whitespace run that contains a line break becomes one space, and whitespace between two tags
 *   disappears (the widget has no `<pre>` or `white-space: pre` content, so rendering is unchanged).
 *
 * Only the literal parts change; `${…}` expressions (and templates nested in them) are scanned and kept,
 * with nested tagged templates minified in turn.
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

const minifyHtml = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/>\s+</g, '><');

/**
 * Rewrites every `html\`…\`` and `css\`…\`` in `source`. A small scanner, not a parser: it assumes the
 * templates' expressions contain no unbalanced braces in strings or comments (true of this package).
 */
export function minifyTemplates(source: string): string {
  let out = '';
  let i = 0;
  const tag = /\b(html|css)`/g;

  /** Copies the template literal starting after its opening backtick at `i`; returns the text with minified parts. */
  const template = (minify: ((text: string) => string) | undefined): string => {
    let text = '';
    let result = '';
    while (i < source.length) {
      const c = source[i]!;
      if (c === '\\') {
        text += source.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        i++;
        return result + (minify ? minify(text) : text) + '`';
      } else if (c === '$' && source[i + 1] === '{') {
        result += (minify ? minify(text) : text) + '${';
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
        result += '`' + template(before ? (before[1] === 'css' ? minifyCss : minifyHtml) : undefined);
      } else if (c === "'" || c === '"') {
        const end = source.indexOf(c, i + 1);
        result += source.slice(i, end + 1);
        i = end + 1;
      } else {
        if (c === '{') depth++;
        if (c === '}' && depth-- === 0) {
          i++;
          return result + '}';
        }
        result += c;
        i++;
      }
    }
    throw new Error('unterminated template expression');
  };

  for (let match = tag.exec(source); match; match = tag.exec(source)) {
    out += source.slice(i, match.index) + match[0];
    i = match.index + match[0].length;
    out += template(match[1] === 'css' ? minifyCss : minifyHtml);
    tag.lastIndex = i;
  }
  return out + source.slice(i);
}

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
