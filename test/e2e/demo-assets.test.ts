/**
 * How the demo serves the widget: under a content-versioned path, compressed (brotli or gzip, as the browser
 * asks), cacheable for a year; the files the entry loads on first use sit beside it under the same version.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useDemoStack } from './demo-stack.ts';

const stack = useDemoStack('domainkit-assets-', { browser: false });

/** GETs `url` with `headers`; the status, headers and the body as sent (not decompressed). */
function fetchRaw(
  url: URL,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const dist = (file: string): string => fileURLToPath(import.meta.resolve(`@domainkit/widget/${file}`));

describe('the stack.demo serves the widget', () => {
  it('under a versioned path, compressed with brotli or gzip, cacheable for a year', async () => {
    const page = await (await fetch(stack.demo.url)).text();
    const src = /<script type="module" src="(\/widget\/[0-9a-f]{12}\/domainkit\.min\.js)"/.exec(page)?.[1];
    expect(src, 'the page names the versioned entry').toBeDefined();
    const raw = await readFile(dist('domainkit.min.js'));
    for (const encoding of ['br', 'gzip']) {
      const answer = await fetchRaw(new URL(src!, stack.demo.url), { 'accept-encoding': encoding });
      const body = answer.body;
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(body.length, `${encoding} is smaller than the file`).toBeLessThan(raw.length / 2);
    }
    const chunk = await fetchRaw(new URL(src!.replace('domainkit.min.js', 'domainkit-order.min.js'), stack.demo.url));
    expect(chunk.status, 'the order flow beside the entry').toBe(200);
    expect(chunk.body.equals(await readFile(dist('domainkit-order.min.js')))).toBe(true);
    const stale = await fetchRaw(new URL('/widget/000000000000/domainkit.min.js', stack.demo.url));
    expect(stale.status, 'another version is not served from this build').not.toBe(200);
  });
});
