/**
 * One round of background work, for hosts where nothing runs between requests (serverless functions, Cloudflare
 * Workers): the platform's cron calls `scheduled()` (Workers `scheduled`, a Vercel cron route), and each call runs
 * webhook registration while it is pending, one order recovery pass, one catch-up with `GET /events` and the due
 * inbox events. The money rules hold as under timers: recovery records, or gives up and voids at the record deadline,
 * whichever pass comes first after it; a cron every minute keeps the bound within a minute of the deadline.
 */
import type { Logger } from 'pino';
import type { RecoveryReport } from './purchase/index.ts';
import type { CatchUpReport } from './webhooks/index.ts';
import { errorFields } from './logger.ts';

/** What one round did. */
export interface BackgroundReport {
  /** The recovery pass (MoR enabled), or `undefined` when MoR is off or the pass failed. */
  readonly recovery?: RecoveryReport | undefined;
  /** The catch-up with `GET /events` (webhooks enabled), or `undefined` when off or it failed. */
  readonly catchUp?: CatchUpReport | undefined;
  /** Inbox events still waiting after the round (a retry not due yet, a handler failing); webhooks only. */
  readonly inboxPending?: number | undefined;
  /** Parts that failed (`webhook registration`, `recovery`, `catch-up`, `inbox`), with the error's message; the others still ran. */
  readonly failed: ReadonlyArray<{ readonly task: string; readonly message: string }>;
}

/** The parts a round runs, each present only when its feature is enabled. */
export interface RoundParts {
  readonly registerWebhook?: (() => Promise<unknown>) | undefined;
  readonly recover?: (() => Promise<RecoveryReport>) | undefined;
  readonly catchUp?: (() => Promise<CatchUpReport>) | undefined;
  /** Handles the due inbox events, then tells how many are still waiting. */
  readonly processInbox?: (() => Promise<number>) | undefined;
  readonly logger: Logger;
}

/**
 * Runs one round: registration, recovery, catch-up, inbox, one after the other (a failing part is logged and
 * reported, the next still runs).
 */
export async function runBackgroundRound(parts: RoundParts): Promise<BackgroundReport> {
  const failed: Array<{ task: string; message: string }> = [];
  const attempt = async <T>(task: string, run: (() => Promise<T>) | undefined): Promise<T | undefined> => {
    if (run === undefined) return undefined;
    try {
      return await run();
    } catch (error) {
      parts.logger.error({ task, ...errorFields(error) }, 'background task failed');
      failed.push({ task, message: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  };
  await attempt('webhook registration', parts.registerWebhook);
  const recovery = await attempt('recovery', parts.recover);
  const catchUp = await attempt('catch-up', parts.catchUp);
  const inboxPending = await attempt('inbox', parts.processInbox);
  return { recovery, catchUp, inboxPending, failed };
}
