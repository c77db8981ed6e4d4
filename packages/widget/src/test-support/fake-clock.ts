/** A hand-driven {@link DkClock} for tests: time only moves when the test calls {@link FakeClock.advance}. */
import type { DkClock } from '../clock.ts';

export class FakeClock implements DkClock {
  #now: number;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #ids = 0;

  /** @param start the initial time, ms since the epoch. */
  constructor(start = Date.parse('2030-01-01T12:00:00Z')) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): number {
    this.#timers.set(++this.#ids, { at: this.#now + Math.max(0, ms), callback });
    return this.#ids;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** How many timers are pending. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running every timer that falls due, in order (timers they set included). */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = due[1].at;
      due[1].callback();
    }
    this.#now = end;
  }
}
