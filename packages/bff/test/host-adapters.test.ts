/**
 * The Next.js and Workers adapters (`@domainkit/bff/next`, `@domainkit/bff/workers`) over a recording handler: what a
 * partner relies on when `next build` imports the route, and what a Worker hands the BFF with each request.
 */
import { describe, expect, it } from 'vitest';
import { toNextRouteHandlers } from '../src/next.ts';
import { createWorker, type WorkerHandler, type WorkerRequestContext } from '../src/workers.ts';

function recordingHandler() {
  const seen: Array<{ url: string; context: WorkerRequestContext | undefined }> = [];
  const rounds: Array<WorkerRequestContext | undefined> = [];
  const handler: WorkerHandler = {
    async fetch(request, context) {
      seen.push({ url: request.url, context });
      return new Response('ok');
    },
    async scheduled(context) {
      rounds.push(context);
      return { done: true };
    },
  };
  return { handler, seen, rounds };
}

describe('toNextRouteHandlers', () => {
  it('creates the handler on the first request, not when the route module is imported, and only once', async () => {
    const { handler, seen } = recordingHandler();
    let created = 0;
    const { GET, POST, OPTIONS, HEAD } = toNextRouteHandlers(() => {
      created++;
      return handler;
    });
    expect(created).toBe(0);
    await GET(new Request('http://shop.example/dk/search?q=coffee'));
    await POST(new Request('http://shop.example/dk/quotes', { method: 'POST', body: '{}' }));
    await OPTIONS(new Request('http://shop.example/dk/quotes', { method: 'OPTIONS' }));
    const head = await HEAD(new Request('http://shop.example/dk/healthz', { method: 'HEAD' }));
    expect(created).toBe(1);
    expect(await head.text()).toBe('ok');
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual(['/dk/search', '/dk/quotes', '/dk/quotes', '/dk/healthz']);
  });

  it('passes the waitUntil it was given with every request', async () => {
    const { handler, seen } = recordingHandler();
    const kept: Array<Promise<unknown>> = [];
    const { GET } = toNextRouteHandlers(handler, { waitUntil: (p) => kept.push(p) });
    await GET(new Request('http://shop.example/dk/readyz'));
    seen[0]!.context!.waitUntil!(Promise.resolve(1));
    expect(kept).toHaveLength(1);
  });
});

describe('createWorker', () => {
  it('creates the handler once per isolate from the first event’s bindings', async () => {
    const { handler } = recordingHandler();
    const envs: unknown[] = [];
    const worker = createWorker((env: { SECRET: string }) => {
      envs.push(env);
      return handler;
    });
    const ctx = { waitUntil() {} };
    await worker.fetch(new Request('http://shop.example/dk/readyz'), { SECRET: 'a' }, ctx);
    await worker.fetch(new Request('http://shop.example/dk/readyz'), { SECRET: 'a' }, ctx);
    await worker.scheduled({}, { SECRET: 'a' }, ctx);
    expect(envs).toEqual([{ SECRET: 'a' }]);
  });

  it('hands the BFF the visitor address from CF-Connecting-IP and the context’s waitUntil', async () => {
    const { handler, seen } = recordingHandler();
    const kept: Array<Promise<unknown>> = [];
    const worker = createWorker(() => handler);
    await worker.fetch(
      new Request('http://shop.example/dk/search?q=tea', { headers: { 'cf-connecting-ip': '203.0.113.9' } }),
      {},
      { waitUntil: (p) => kept.push(p) },
    );
    expect(seen[0]!.context!.clientAddress).toBe('203.0.113.9');
    seen[0]!.context!.waitUntil!(Promise.resolve());
    expect(kept).toHaveLength(1);
  });

  it('runs one background round per cron event, kept alive with waitUntil', async () => {
    const { handler, rounds } = recordingHandler();
    const kept: Array<Promise<unknown>> = [];
    const worker = createWorker(() => handler);
    await worker.scheduled({ cron: '*/1 * * * *' }, {}, { waitUntil: (p) => kept.push(p) });
    expect(rounds).toHaveLength(1);
    expect(kept).toHaveLength(1);
    expect(await kept[0]).toEqual({ done: true });
  });
});
