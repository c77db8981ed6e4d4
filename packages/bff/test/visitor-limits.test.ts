/**
 * The shared visitor-limit store (visitor-limits.ts) when its database does not answer: the visitor is counted in
 * this process's memory meanwhile (the limit still holds per process), never answered an error for it. Counting
 * across processes on one PostgreSQL is in two-processes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SqlVisitorHitStore } from '../src/http/visitor-limits.ts';
import { captureLogs } from './helpers.ts';

describe('the shared visitor-limit store', () => {
  it('counts in this process when the database fails, and says so once a window', async () => {
    const { logger, lines } = captureLogs();
    const store = new SqlVisitorHitStore({
      db: () => Promise.reject(new Error('connection refused')),
      prefix: 'search:',
      now: () => Date.UTC(2030, 0, 1),
      logger,
    });
    store.init({ windowMs: 60_000 });

    const counts = [];
    for (let i = 0; i < 3; i++) counts.push((await store.increment('203.0.113.7')).totalHits);
    const other = await store.increment('198.51.100.9');

    expect(counts).toEqual([1, 2, 3]);
    expect(other.totalHits).toBe(1);
    const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/counting in this process only/);
    expect(lines.join('\n')).not.toContain('203.0.113.7');
  });
});
