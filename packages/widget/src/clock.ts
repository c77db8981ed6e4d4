/**
 * The time source of the widget: every countdown (quote lock, busy retry), debounce and poll reads the time
 * and sets its timers through one {@link DkClock}, so tests (and pages) can replace it. Each element has a
 * `clock` property defaulting to {@link systemClock}.
 */

/** A clock: the current time and one-shot timers. */
export interface DkClock {
  /** Milliseconds since the Unix epoch, like `Date.now()`. */
  now(): number;
  /** Runs `callback` once after `ms` milliseconds; returns a handle for {@link clearTimeout}. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a timer of {@link setTimeout}; ignores unknown or spent handles. */
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now` and the global timers (read when called, never at import). */
export const systemClock: DkClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as number),
};

/** Formats a duration for a countdown: `mm:ss` (`09:59`), never negative. */
export function mmss(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}
