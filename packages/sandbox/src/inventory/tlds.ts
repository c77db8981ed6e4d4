/**
 * The bundled TLD list behind `GET /api/pricing/tld`, `GET /api/tlds/{tld}/metadata`, domain search siblings and
 * WHOIS (Public API spec 4.2, 2.8): real TLDs with their registry operators, and plausible, synthetic registrar prices (USD,
 * minor units) and registration rules. The prices and rules are the sandbox's own: good enough to build and test
 * against, never a quote of a real registrar.
 */
import type { TldOperation } from '@domainkit/protocol';

/** One TLD: registry, prices and rules. */
export interface TldInfo {
  /** Lowercase, without the dot: `com`. */
  readonly tld: string;
  readonly type: 'gTLD' | 'ccTLD';
  /** The registry operator. */
  readonly registry: string;
  /** USD cents: register and renew per year, transfer (adds one year), restore (out of redemption, flat fee). */
  readonly prices: Readonly<Record<TldOperation, number>>;
  /** Registration term in years. */
  readonly term: { readonly min_years: number; readonly max_years: number };
  /** Who may hold a name. */
  readonly organization: {
    /** An organisation may be the registrant. */
    readonly allowed: boolean;
    /** A local presence (residence, company or trademark) in the territory or union is required. */
    readonly local_presence_required: boolean;
    /** Where local presence is required, which. */
    readonly presence_region: string | null;
    readonly notes: string;
  };
  /** Delegation rules. */
  readonly nameservers: {
    readonly min: number;
    readonly max: number;
    readonly dnssec: boolean;
    /** The registry checks that the nameservers answer for the zone before delegating it. */
    readonly predelegation_check: boolean;
  };
  /** On the HSTS preload list: sites must be served over HTTPS. */
  readonly https_required: boolean;
  /** Internationalised labels accepted. */
  readonly idn: boolean;
  /** How likely a dictionary label is already registered (0–1): drives the synthetic availability. */
  readonly crowding: number;
}

type Row = [
  tld: string,
  type: 'gTLD' | 'ccTLD',
  registry: string,
  register: number,
  renew: number,
  transfer: number,
  restore: number,
  crowding: number,
];

// Prices in USD cents. Order: most popular first (the order siblings are listed in).
const ROWS: readonly Row[] = [
  ['com', 'gTLD', 'VeriSign, Inc.', 1099, 1099, 1099, 8000, 0.95],
  ['net', 'gTLD', 'VeriSign, Inc.', 1299, 1299, 1299, 8000, 0.8],
  ['org', 'gTLD', 'Public Interest Registry', 1099, 1299, 1299, 8000, 0.8],
  ['io', 'ccTLD', 'Internet Computer Bureau Ltd', 3999, 5499, 5499, 12000, 0.7],
  ['ai', 'ccTLD', 'Government of Anguilla', 7999, 7999, 7999, 15000, 0.7],
  ['co', 'ccTLD', '.CO Internet S.A.S.', 2999, 3299, 3299, 10000, 0.6],
  ['dev', 'gTLD', 'Charleston Road Registry Inc.', 1499, 1499, 1499, 8000, 0.45],
  ['app', 'gTLD', 'Charleston Road Registry Inc.', 1699, 1699, 1699, 8000, 0.5],
  ['xyz', 'gTLD', 'XYZ.COM LLC', 299, 1499, 1499, 8000, 0.4],
  ['info', 'gTLD', 'Identity Digital Limited', 499, 2299, 2299, 8000, 0.5],
  ['biz', 'gTLD', 'Registry Services, LLC', 1599, 1999, 1999, 8000, 0.4],
  ['me', 'ccTLD', 'doMEn d.o.o.', 1999, 2199, 2199, 9000, 0.45],
  ['us', 'ccTLD', 'Registry Services, LLC', 899, 1099, 1099, 8000, 0.4],
  ['uk', 'ccTLD', 'Nominet UK', 799, 999, 0, 6000, 0.45],
  ['de', 'ccTLD', 'DENIC eG', 799, 799, 0, 5000, 0.5],
  ['fr', 'ccTLD', 'AFNIC', 999, 999, 999, 6000, 0.35],
  ['eu', 'ccTLD', 'EURid vzw', 999, 999, 999, 6000, 0.35],
  ['nl', 'ccTLD', 'SIDN', 899, 899, 0, 5000, 0.4],
  ['ca', 'ccTLD', 'Canadian Internet Registration Authority', 1399, 1399, 1399, 7000, 0.35],
  ['au', 'ccTLD', 'auDA', 1499, 1499, 0, 7000, 0.3],
  ['ch', 'ccTLD', 'SWITCH', 1299, 1299, 0, 6000, 0.3],
  ['es', 'ccTLD', 'Red.es', 999, 999, 0, 6000, 0.3],
  ['it', 'ccTLD', 'Registro .it', 999, 999, 0, 6000, 0.3],
  ['jp', 'ccTLD', 'Japan Registry Services Co., Ltd.', 3999, 3999, 3999, 12000, 0.3],
  ['in', 'ccTLD', 'National Internet Exchange of India', 999, 1199, 1199, 6000, 0.3],
  ['shop', 'gTLD', 'GMO Registry, Inc.', 299, 3699, 3699, 8000, 0.3],
  ['store', 'gTLD', 'Radix Technologies Inc.', 499, 5499, 5499, 8000, 0.25],
  ['tech', 'gTLD', 'Radix Technologies Inc.', 699, 5499, 5499, 8000, 0.3],
  ['online', 'gTLD', 'Radix Technologies Inc.', 399, 3999, 3999, 8000, 0.3],
  ['site', 'gTLD', 'Radix Technologies Inc.', 299, 3499, 3499, 8000, 0.25],
  ['blog', 'gTLD', 'Knock Knock WHOIS There, LLC', 1999, 2999, 2999, 8000, 0.25],
  ['page', 'gTLD', 'Charleston Road Registry Inc.', 1099, 1099, 1099, 8000, 0.2],
  ['cloud', 'gTLD', 'Aruba PEC S.p.A.', 999, 2399, 2399, 8000, 0.25],
  ['design', 'gTLD', 'Registry Services, LLC', 4799, 4799, 4799, 8000, 0.2],
  ['studio', 'gTLD', 'Identity Digital Limited', 2899, 2899, 2899, 8000, 0.2],
  ['agency', 'gTLD', 'Identity Digital Limited', 2199, 2199, 2199, 8000, 0.2],
  ['club', 'gTLD', 'Registry Services, LLC', 1499, 1899, 1899, 8000, 0.25],
  ['live', 'gTLD', 'Identity Digital Limited', 2999, 2999, 2999, 8000, 0.2],
  ['art', 'gTLD', 'UK Creative Ideas Limited', 1499, 1499, 1499, 8000, 0.2],
];

/** Local-presence rules (ccTLDs that require one), from the registries' published policies, simplified. */
const PRESENCE: Readonly<Record<string, { region: string; notes: string }>> = {
  us: {
    region: 'US',
    notes:
      'The registrant must meet the .us nexus requirements (a US citizen, resident or organisation, or one with a bona fide US presence).',
  },
  eu: { region: 'EU/EEA', notes: 'The registrant must be a citizen, resident or organisation of the EU or EEA.' },
  fr: { region: 'EU/EEA', notes: 'The registrant must be a resident or organisation of the EU, EEA or Switzerland.' },
  it: {
    region: 'EU/EEA',
    notes: 'The registrant must be a resident or organisation of the EU, EEA, Switzerland, San Marino or the Vatican.',
  },
  ca: { region: 'CA', notes: 'The registrant must meet CIRA\u2019s Canadian Presence Requirements.' },
  au: {
    region: 'AU',
    notes: 'The registrant must have an Australian presence (citizen, resident, company or trademark).',
  },
  jp: { region: 'JP', notes: 'The registrant must have a postal address in Japan.' },
};

const TERM: Readonly<Record<string, { min_years: number; max_years: number }>> = {
  ai: { min_years: 2, max_years: 10 },
  au: { min_years: 1, max_years: 5 },
  jp: { min_years: 1, max_years: 1 },
  es: { min_years: 1, max_years: 10 },
};

const PREDELEGATION = new Set(['de', 'ch', 'it', 'fr', 'nl']);
const HSTS = new Set(['dev', 'app', 'page']);
const NO_IDN = new Set(['ai', 'io', 'co', 'us', 'uk', 'au', 'in', 'dev', 'app', 'page']);

function build(row: Row): TldInfo {
  const [tld, type, registry, register, renew, transfer, restore, crowding] = row;
  const presence = PRESENCE[tld];
  return {
    tld,
    type,
    registry,
    // A ccTLD whose registry moves names between registrars without a paid transfer (uk, de, nl...) shows 0.
    prices: { register, renew, transfer, restore },
    term: TERM[tld] ?? { min_years: 1, max_years: 10 },
    organization: {
      allowed: true,
      local_presence_required: presence !== undefined,
      presence_region: presence?.region ?? null,
      notes: presence?.notes ?? 'Open to anyone, individuals and organisations, anywhere.',
    },
    nameservers: { min: 2, max: 13, dnssec: true, predelegation_check: PREDELEGATION.has(tld) },
    https_required: HSTS.has(tld),
    idn: !NO_IDN.has(tld),
    crowding,
  };
}

/** Every TLD the Public API knows, most popular first. */
export const TLDS: readonly TldInfo[] = ROWS.map(build);

const BY_NAME = new Map(TLDS.map((t) => [t.tld, t]));

/** The TLD's record, or `undefined` when the list does not hold it. */
export function findTld(tld: string): TldInfo | undefined {
  return BY_NAME.get(tld.toLowerCase());
}

/** The TLD names, most popular first. */
export const TLD_NAMES: readonly string[] = TLDS.map((t) => t.tld);

/** Years an operation adds to a registration: register and renew their minimum term, transfer one, restore none. */
export function operationPeriodYears(info: TldInfo, op: TldOperation): number | null {
  switch (op) {
    case 'register':
    case 'renew':
      return info.term.min_years;
    case 'transfer':
      return 1;
    case 'restore':
      return null;
  }
}

/** The price in cents of one operation: the yearly price times the period for register and renew. */
export function operationPriceCents(info: TldInfo, op: TldOperation): number {
  const years = operationPeriodYears(info, op);
  return op === 'register' || op === 'renew' ? info.prices[op] * (years ?? 1) : info.prices[op];
}
