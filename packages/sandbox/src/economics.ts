/**
 * The sandbox's money rules (Partner API spec 1, 2.7 show none of the rates: docs/spec-decisions.md). Amounts are integer minor
 * units; a share is computed in basis points and rounded half up to the cent.
 *
 * | payment model | who collects | partner earns | rate |
 * |---|---|---|---|
 * | `mor` (orders) | the partner | keeps its margin; owes the service the rest at settlement | 10 % |
 * | `non_mor` (hosted lander) | the service | commission, paid out at settlement | 8 % |
 * | referral (tracked links) | the service | affiliate commission, in the ledger until paid out | 5 % |
 * | `brokerage` (a case closed with a deal) | the service | a cut of the deal price, paid out at settlement | 5 % |
 */

/** Basis points (1/100 %) of each share. */
export const COMMISSION_BPS = {
  mor: 1000,
  non_mor: 800,
  referral: 500,
  brokerage: 500,
} as const;

/** The share `bps` of an amount in minor units. */
export function shareOf(amountCents: number, bps: number): number {
  return Math.round((amountCents * bps) / 10_000);
}
