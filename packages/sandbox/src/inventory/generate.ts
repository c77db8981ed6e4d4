/**
 * The synthetic inventory: listed domains built from real words over real TLDs, with buy-now and floor prices in
 * minor units, deterministic from a seed (the same seed always gives the same list, in the same order).
 *
 * SANDBOX credentials see 3,000 such domains; LIVE credentials see a separate, smaller inventory (300 domains from a
 * derived seed), so the two environments never share state (Partner API spec 1 "Environments", 9.4).
 */
import type { Environment } from '../scopes.ts';
import { mulberry32, pick, randomInt, type Random } from './prng.ts';
import { WORDS } from './words.ts';

/** The seed used when none is configured. */
export const DEFAULT_INVENTORY_SEED = 1;

/** How many domains each environment lists. */
export const INVENTORY_SIZE: Readonly<Record<Environment, number>> = { SANDBOX: 3000, LIVE: 300 };

/** Real TLDs of the inventory, with how often each is drawn and how it scales a price. */
const TLDS = [
  { tld: 'com', weight: 30, factor: 1 },
  { tld: 'io', weight: 10, factor: 0.75 },
  { tld: 'ai', weight: 8, factor: 0.9 },
  { tld: 'co', weight: 8, factor: 0.6 },
  { tld: 'net', weight: 8, factor: 0.45 },
  { tld: 'org', weight: 7, factor: 0.45 },
  { tld: 'dev', weight: 6, factor: 0.5 },
  { tld: 'app', weight: 6, factor: 0.55 },
  { tld: 'shop', weight: 5, factor: 0.4 },
  { tld: 'store', weight: 4, factor: 0.35 },
  { tld: 'tech', weight: 4, factor: 0.4 },
  { tld: 'blog', weight: 4, factor: 0.35 },
] as const;

/** Buy-now prices lie between these bounds, in whole dollars. */
export const PRICE_RANGE_DOLLARS = { min: 500, max: 25_000 } as const;

/** One generated listing. */
export interface GeneratedDomain {
  readonly name: string;
  readonly label: string;
  readonly tld: string;
  readonly words: readonly string[];
  /** Buy-now price in cents, a whole number of dollars. */
  readonly price_cents: number;
  /** Floor price in cents, a whole number of dollars, below the buy-now price. */
  readonly floor_price_cents: number;
  readonly currency: 'USD';
  readonly listed_at: Date;
}

const LISTING_EPOCH_MS = Date.UTC(2025, 0, 1);
const YEAR_SECONDS = 365 * 24 * 60 * 60;

function seedFor(seed: number, environment: Environment): number {
  // A distinct stream per environment, so the LIVE inventory is not a prefix of the SANDBOX one.
  return environment === 'SANDBOX' ? seed : (seed ^ 0x9e3779b9) >>> 0;
}

function priceDollars(random: Random, words: readonly string[], label: string, factor: number): number {
  const base = words.length === 1 ? randomInt(random, 6_000, 25_000) : randomInt(random, 600, 9_000);
  const shortBonus = label.length <= 6 ? 1.5 : label.length <= 10 ? 1.15 : 1;
  const dollars = Math.round((base * factor * shortBonus) / 5) * 5;
  return Math.min(PRICE_RANGE_DOLLARS.max, Math.max(PRICE_RANGE_DOLLARS.min, dollars));
}

/**
 * Generates an environment's inventory.
 * @param options.seed - any integer (low 32 bits used); default {@link DEFAULT_INVENTORY_SEED}.
 * @param options.count - how many domains; default {@link INVENTORY_SIZE} for the environment.
 * @returns unique domains, in generation order (about a quarter one-word labels, the rest two-word labels).
 * @throws {RangeError} when `count` exceeds what the word list can provide.
 */
export function generateInventory(options: {
  seed?: number;
  environment: Environment;
  count?: number;
}): GeneratedDomain[] {
  const { environment } = options;
  const count = options.count ?? INVENTORY_SIZE[environment];
  const random = mulberry32(seedFor(options.seed ?? DEFAULT_INVENTORY_SEED, environment));
  const weights = TLDS.map((t) => t.weight);
  const seen = new Set<string>();
  const out: GeneratedDomain[] = [];
  for (let attempts = 0; out.length < count; attempts++) {
    if (attempts > count * 50) throw new RangeError(`cannot generate ${count} unique domains from the word list`);
    const first = pick(random, WORDS);
    const words = random() < 0.25 ? [first] : [first, pick(random, WORDS)];
    if (words.length === 2 && words[0] === words[1]) continue;
    const label = words.join('');
    if (label.length > 20) continue;
    const tld = pick(random, TLDS, weights);
    const name = `${label}.${tld.tld}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const dollars = priceDollars(random, words, label, tld.factor);
    const floorDollars = Math.max(250, Math.round(dollars * (0.55 + random() * 0.3)));
    out.push({
      name,
      label,
      tld: tld.tld,
      words,
      price_cents: dollars * 100,
      floor_price_cents: Math.min(floorDollars, dollars - 50) * 100,
      currency: 'USD',
      listed_at: new Date(LISTING_EPOCH_MS + randomInt(random, 0, YEAR_SECONDS - 1) * 1000),
    });
  }
  return out;
}
