/**
 * The shapes of the web-standard BFF (handler.ts): its options, the handler, and what `scheduled()` reports.
 */
import type { CatchUpReport } from './webhooks/index.ts';
import type { EventHandler, EventHandlerType } from './webhooks/index.ts';
import type { CredentialStatus, ProbeOptions } from './upstream/credential-check.ts';
import type { BffRequestContext } from './http/pipeline.ts';
import type { BffMetrics } from './metrics.ts';
import type { BackgroundOptions, BffOptions } from './options.ts';
import type { RecoveryReport } from './purchase/index.ts';
import type { BackgroundReport } from './scheduled-round.ts';
import type { SearchStats } from './search/index.ts';

export type { BffRequestContext, BackgroundReport };

/** Options of `createBffHandler`: those of `createBff` plus where it is served and how it runs background work. */
export interface BffHandlerOptions extends Omit<BffOptions, 'background'> {
  /**
   * The path prefix the BFF is served under, such as `/dk` (stripped before routing; a request outside it answers
   * 404). Default `''`.
   */
  readonly basePath?: string | undefined;
  /**
   * How background work (order recovery, events catch-up, the inbox) runs: `'timers'` in this process, for hosts
   * whose process lives on (Node, Bun, Deno); `'scheduled'` without timers, for serverless and edge hosts: a
   * platform cron calls `scheduled()` (Workers `scheduled`, a Vercel cron route), and a stored webhook's handlers
   * run through the request's `waitUntil`. Short for `{ mode }`; or the object of `createBff`'s `background`.
   */
  readonly background?: 'timers' | 'scheduled' | BackgroundOptions | undefined;
  /**
   * The reverse proxies in front whose forwarding headers are believed: a number of hops (`1`), or their addresses
   * and CIDR ranges (`["10.0.0.0/8"]`, `"loopback"`). Through them the BFF learns the visitor's IP (visitor limits)
   * and the shop's own origin (cross-site checks). Default none. `true` is refused (any client could forge
   * `X-Forwarded-For`). Behind a Vercel- or Cloudflare-style platform proxy the own origin needs no listing: the
   * platform's own headers say it (docs/spec-decisions.md).
   */
  readonly trustProxy?: number | string | readonly string[] | false | undefined;
}

/** The BFF as one web-standard handler, for any host (Express, Node `http`, Next.js, Hono, Bun, Deno, Workers). */
export interface BffHandler {
  /**
   * The BFF: any request under `basePath` → its answer; anything else → 404 `not_found` JSON. Never throws nor
   * rejects. The answer is a `Response` or a promise of one, as the platforms' own handlers (`Bun.serve`,
   * `Deno.serve`, Workers `fetch`) may answer: a cached search comes back at once, without a promise; a caller that
   * needs a promise `await`s it. The first call opens storage (and starts the timers, in `'timers'` mode).
   */
  fetch(request: Request, context?: BffRequestContext): Response | Promise<Response>;
  /**
   * One round of background work (webhook registration while pending, the order recovery pass, events catch-up, due
   * inbox events) for a platform cron (Workers `scheduled`, a Vercel cron route). Resolves with what it did; never
   * rejects (scheduled-round.ts).
   */
  scheduled(context?: BffRequestContext): Promise<BackgroundReport>;
  /**
   * Resolves when the database is open and migrated and the start tasks are under way: reading it starts the BFF,
   * as `start()` does.
   */
  readonly ready: Promise<void>;
  /** `pglite`, `postgres`, or `none` when no enabled feature needs a database. */
  readonly databaseKind: 'pglite' | 'postgres' | 'none';
  /** Whether `/readyz` proves the credential (option `checkCredential`). */
  readonly credentialChecked: boolean;
  /** The BFF's metrics (metrics.ts). */
  readonly metrics: BffMetrics;
  /**
   * Opens storage and, in `'timers'` mode, runs the start tasks and sets the timers; resolves when the database is
   * open (rejects when it cannot open; a later call tries again).
   */
  start(): Promise<void>;
  /** Stops the background work and closes the database the BFF opened (not one passed in). Nothing to do unstarted. */
  close(graceMs?: number): Promise<void>;
  /**
   * Adds an event handler for a type (`order.settled`, …) or `*`; returns the handler.
   * @throws {TypeError} for an unknown event type (with the likely intended one) or a handler that is no function.
   */
  on<T extends EventHandlerType>(type: T, handler: EventHandler<T>): BffHandler;
  /** Runs one recovery pass of unfinished order intents now. */
  recover(): Promise<RecoveryReport>;
  /** Catches up with `GET /events` now, then handles the new events. */
  catchUp(): Promise<CatchUpReport>;
  /** Handles the due inbox events now. */
  processInbox(): Promise<void>;
  /** Resolves when no background work is running. */
  idle(): Promise<void>;
  /** Probes the marketplace credential now and caches the outcome `/readyz` answers with. Never throws. */
  checkCredential(options?: ProbeOptions): Promise<CredentialStatus>;
  /** What the search did so far (running totals, and visitors waiting now). */
  searchStats(): SearchStats;
  /** Reads other processes' search evictions, answers and listings now (done every second by itself). */
  syncSearch(): Promise<void>;
}
