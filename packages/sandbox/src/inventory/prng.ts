/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on every platform,
 * which makes the synthetic inventory reproducible. Not for anything secret.
 */

/** Returns numbers in [0, 1), deterministic for a seed. */
export type Random = () => number;

/**
 * mulberry32 (Tommy Ettinger, public domain): 32-bit state, period 2^32.
 * @param seed - any integer; only its low 32 bits are used.
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max], inclusive. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list, by weight when weights are given. */
export function pick<T>(random: Random, items: readonly T[], weights?: readonly number[]): T {
  if (items.length === 0) throw new RangeError('pick from an empty list');
  if (weights === undefined) return items[Math.floor(random() * items.length)]!;
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i] ?? 0;
    if (r < 0) return items[i]!;
  }
  return items[items.length - 1]!;
}
