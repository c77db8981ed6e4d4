/**
 * Catch-up (Partner API spec 4.1 `GET /events`, 6 rule 4): on start and periodically, fetch every event after the stored
 * cursor and put it in the inbox. The cursor advances only after a page's events are stored, and only from the
 * value this process read (compare-and-set), so a crash or a second process never skips an event.
 */
import type { MarketplaceEvent } from '@domainkit/protocol';
import type { Logger } from 'pino';
import type { BffDb } from '../db/tables.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import { advanceEventsCursor, readEventsCursor } from './cursor-store.ts';
import { eventDomains } from './inbox.ts';
import { storeEvents } from './inbox-store.ts';

/** What one catch-up did. */
export interface CatchUpReport {
  /** Events fetched. */
  fetched: number;
  /** Of those, events the inbox did not hold yet. */
  stored: number;
  /** The cursor after the run. */
  cursor: string | undefined;
}

/**
 * Fetches and stores every event after the stored cursor.
 * @param options.pageLimit - `limit` of each `GET /events` page (1–100).
 * @throws {MarketplaceError} when a page cannot be fetched (the cursor stays at the last stored page).
 */
export async function catchUpEvents(
  deps: {
    db: BffDb;
    keyId: string;
    client: MarketplaceApi;
    logger: Logger;
    now: () => number;
    domainChanged?: ((domain: string) => void) | undefined;
  },
  options: { pageLimit: number; signal?: AbortSignal },
): Promise<CatchUpReport> {
  let cursor = await readEventsCursor(deps.db, deps.keyId);
  const report: CatchUpReport = { fetched: 0, stored: 0, cursor };
  const pages = deps.client.events.list(
    { ...(cursor !== undefined && { after_id: cursor }), limit: options.pageLimit },
    { signal: options.signal, context: { maxWaitMs: 0 } },
  );
  for await (const page of pages.pages()) {
    const events = page.items as MarketplaceEvent[];
    if (events.length === 0) break;
    report.fetched += events.length;
    report.stored += await storeEvents(deps.db, deps.keyId, events, 'catch_up', new Date(deps.now()));
    for (const domain of eventDomains(events)) deps.domainChanged?.(domain);
    const last = events[events.length - 1]!.id;
    if (!(await advanceEventsCursor(deps.db, deps.keyId, cursor, last))) {
      deps.logger.debug({ cursor, last }, 'event cursor moved by another process; stopping this catch-up');
      break;
    }
    cursor = last;
    report.cursor = cursor;
  }
  if (report.fetched > 0) deps.logger.info({ ...report }, 'caught up with the event history');
  return report;
}
