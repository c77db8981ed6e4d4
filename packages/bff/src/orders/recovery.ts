/**
 * The recovery pass: on start and periodically, finish every order intent a visitor's request left unfinished
 * (the BFF died, or upstream failed, between the payment and the record). A `paid` intent is recorded with its
 * stored Idempotency-Key and body, so the marketplace records it once however often this runs; a `created` intent
 * whose payment outcome was lost is settled by asking the payment provider.
 */
import { MarketplaceError } from '@domainkit/client';
import type { Buyer } from '@domainkit/protocol';
import { markClosed, markPaid, claimForRecovery, countUnfinished, releaseForRetry } from './store.ts';
import { orderRequestBody, recordIntent, type OrderFlowDeps } from './place-order.ts';

/** What one pass did. */
export interface RecoveryReport {
  /** Intents recorded upstream. */
  recorded: number;
  /** Intents the marketplace refused for good (their payments refunded). */
  rejected: number;
  /** Intents still waiting (upstream failing or busy); retried later with back-off. */
  pending: number;
  /** `created` intents closed: payment declined, or its outcome unknowable. */
  closed: number;
  /**
   * Intents of this credential still unfinished after the pass (`created` or `paid`), including those another
   * worker holds or whose retry is not due yet: 0 means every paid order has been recorded or refused.
   */
  outstanding: number;
}

/** Options of one pass. */
export interface RecoveryOptions {
  /** Take intents created before this instant whatever their lease (embedded PGlite at start: their lease holder is dead). */
  readonly ignoreLeasesBefore?: Date | undefined;
}

/**
 * Runs one recovery pass.
 * @returns counts of what it did; errors of single intents are logged and counted as pending.
 */
export async function recoverIntents(deps: OrderFlowDeps, options: RecoveryOptions = {}): Promise<RecoveryReport> {
  const report: RecoveryReport = { recorded: 0, rejected: 0, pending: 0, closed: 0, outstanding: 0 };
  const now = () => new Date(deps.now());
  const claimed = await claimForRecovery(deps.db, {
    keyId: deps.keyId,
    now: now(),
    leaseUntil: new Date(deps.now() + deps.timings.leaseMs),
    limit: deps.timings.recoveryBatch,
    ignoreLeasesBefore: options.ignoreLeasesBefore,
  });
  for (let intent of claimed) {
    try {
      if (intent.state === 'created') {
        const payment = deps.payments.retrievePayment
          ? await deps.payments.retrievePayment({ intentId: intent.intent_id })
          : undefined;
        if (payment === undefined) {
          const age = deps.now() - intent.created_at.getTime();
          if (age >= deps.timings.abandonAfterMs || deps.payments.retrievePayment === undefined) {
            await markClosed(deps.db, intent.intent_id, 'abandoned', { error: 'payment outcome unknown', now: now() });
            deps.logger.warn(
              { intent: intent.intent_id, adapter: deps.payments.name },
              'order intent abandoned: the payment outcome could not be learned; check the provider',
            );
            report.closed++;
          } else {
            await releaseForRetry(deps.db, intent.intent_id, {
              error: 'payment outcome not known yet',
              retryAt: new Date(deps.now() + deps.timings.leaseMs),
              now: now(),
            });
            report.pending++;
          }
          continue;
        }
        if (payment.status === 'declined') {
          await markClosed(deps.db, intent.intent_id, 'declined', {
            error: payment.declineReason ?? 'declined',
            now: now(),
          });
          report.closed++;
          continue;
        }
        const buyer = JSON.parse(intent.buyer) as Buyer;
        intent = await markPaid(deps.db, intent.intent_id, {
          reference: payment.reference,
          requestBody: JSON.stringify(orderRequestBody(intent, buyer, payment.reference)),
          leaseUntil: new Date(deps.now() + deps.timings.leaseMs),
          now: now(),
        });
      }
      const outcome = await recordIntent(deps, intent, { maxWaitMs: deps.timings.recoveryRecordWaitMs });
      report[outcome.kind === 'recorded' ? 'recorded' : outcome.kind === 'rejected' ? 'rejected' : 'pending']++;
    } catch (error) {
      report.pending++;
      deps.logger.error(
        { intent: intent.intent_id, error: error instanceof MarketplaceError ? error.toJSON() : String(error) },
        'recovery of an order intent failed',
      );
    }
  }
  report.outstanding = await countUnfinished(deps.db, deps.keyId);
  if (claimed.length > 0) deps.logger.info({ ...report }, 'order recovery pass');
  return report;
}
