/**
 * Order statuses in lifecycle order (Partner API spec 3), so an event that arrives late never moves an order back.
 *
 * Events are applied in the order of their `created_at` (the marketplace's clock); the rank breaks ties between
 * events stamped in the same instant, and a final status (settled, refunded, cancelled) is never left for an
 * earlier one.
 */

/** Rank of each status of Partner API spec 3 (and domainkit's names for the ones it leaves open). */
export const ORDER_STATUS_RANK: Readonly<Record<string, number>> = {
  EXTERNALLY_PAID: 10,
  HELD_FOR_REVIEW: 15,
  TRANSFER_IN_PROGRESS: 20,
  TRANSFER_COMPLETED: 30,
  SETTLED: 40,
  REFUNDED: 50,
  CANCELLED: 50,
};

/** Statuses an order never leaves. */
export const FINAL_ORDER_STATUSES: ReadonlySet<string> = new Set(['SETTLED', 'REFUNDED', 'CANCELLED']);

/** The rank of a status; an unknown (newer) status ranks with `EXTERNALLY_PAID`. */
export function statusRank(status: string): number {
  return ORDER_STATUS_RANK[status] ?? 10;
}

/** What the BFF last applied to an order. */
export interface AppliedState {
  readonly status: string;
  readonly lastEventAt: Date | null;
}

/**
 * Whether an event (its order status and its `created_at`) moves an order forward from `current`.
 * @returns true for a newer event, false for one older than (or as old as, and not above) what was applied.
 */
export function movesForward(current: AppliedState | undefined, next: { status: string; createdAt: Date }): boolean {
  if (current === undefined) return true;
  if (FINAL_ORDER_STATUSES.has(current.status) && !FINAL_ORDER_STATUSES.has(next.status)) return false;
  if (current.lastEventAt === null) return statusRank(next.status) >= statusRank(current.status);
  const delta = next.createdAt.getTime() - current.lastEventAt.getTime();
  if (delta !== 0) return delta > 0;
  return statusRank(next.status) > statusRank(current.status);
}
