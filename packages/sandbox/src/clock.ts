/**
 * The sandbox's clock: milliseconds since the Unix epoch, injectable so tests can move time (token expiry, nonce
 * tracking, timestamp skew) without waiting.
 */

/** Returns the current time in milliseconds since the Unix epoch (the shape of `Date.now`). */
export type Clock = () => number;

/** The real clock. */
export const systemClock: Clock = () => Date.now();

/** Whole Unix seconds of a clock reading. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
