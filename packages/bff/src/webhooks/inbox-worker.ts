/**
 * The inbox worker of one router: handles the due inbox events (`inbox.ts`) whenever a webhook stored one
 * or catch-up fetched some, coalescing calls that arrive during a run, and sets a timer for the next event whose
 * retry is due. Catch-up (`catch-up.ts`) feeds it from `GET /events` (Partner API spec 4.1, 6 rule 4).
 */
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../db/handle.ts';
import { catchUpEvents, type CatchUpReport } from './catch-up.ts';
import { processInbox, type EventHandlers, type InboxTimings } from './inbox.ts';
import { nextPendingEventAt } from './inbox-store.ts';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import type { JobScheduler } from '../background/jobs.ts';

/** What the worker needs. */
export interface InboxWorkerDeps {
  readonly database: DatabaseHandle;
  readonly jobs: JobScheduler;
  readonly client: MarketplaceApi;
  readonly handlers: EventHandlers;
  readonly logger: Logger;
  /** The credential whose events this worker handles. */
  readonly keyId: string;
  readonly now: () => number;
  readonly timings: InboxTimings;
  /** Told each domain an event names (drops cached searches). */
  readonly domainChanged: (domain: string) => void;
}

/** Handles inbox events in the background. */
export class InboxWorker {
  readonly #deps: InboxWorkerDeps;
  #running = false;
  #again = false;

  constructor(deps: InboxWorkerDeps) {
    this.#deps = deps;
  }

  /**
   * Handles the due inbox events now (coalesced: a call during a run makes the run go on). With a connection per
   * request (Cloudflare Workers) each call runs on its own instead: a request must not wait on work another request
   * owns, and events are claimed under a lease, so two runs never handle one event twice.
   */
  kick(): Promise<unknown> {
    const { database, jobs } = this.#deps;
    if (!database.configured || jobs.stopping) return Promise.resolve();
    if (database.perRequest) return jobs.track('inbox', () => this.#runOnce());
    if (this.#running) {
      this.#again = true;
      return jobs.idle();
    }
    this.#running = true;
    return jobs.track('inbox', async () => {
      try {
        const { keyId, handlers, logger, now, timings } = this.#deps;
        do {
          this.#again = false;
          await processInbox(
            { db: await database.db(), keyId, handlers, logger, now, timings },
            { signal: jobs.signal },
          );
        } while (this.#again && !jobs.stopping);
        await this.#scheduleNextRun();
      } finally {
        this.#running = false;
      }
    });
  }

  /** One pass over the due events on this request's connection (per-request mode: no timer is set after it). */
  async #runOnce(): Promise<void> {
    const { database, jobs, keyId, handlers, logger, now, timings } = this.#deps;
    await processInbox({ db: await database.db(), keyId, handlers, logger, now, timings }, { signal: jobs.signal });
  }

  async #scheduleNextRun(): Promise<void> {
    const { database, jobs, keyId, now, timings } = this.#deps;
    const at = await nextPendingEventAt(await database.db(), keyId);
    if (at === undefined) return;
    jobs.after(Math.max(timings.minRescheduleMs, at.getTime() - now()), () => void this.kick());
  }

  /** Catches up with `GET /events`, then handles the new events. */
  async catchUp(): Promise<CatchUpReport> {
    const { database, jobs, keyId, client, logger, now, timings, domainChanged } = this.#deps;
    const report = await catchUpEvents(
      { db: await database.db(), keyId, client, logger, now, domainChanged },
      { pageLimit: timings.catchUpPageLimit, signal: jobs.signal },
    );
    await this.kick();
    return report;
  }
}
