/**
 * The recovery pass: on start and periodically, finish every order intent a visitor's request left unfinished
 * (the BFF died, or upstream failed, between the payment and the record). A `paid` intent is recorded with its
 * stored Idempotency-Key and body, so the marketplace records it once however often this runs; a `created` intent
 * whose payment outcome was lost is settled by asking the payment provider.
 */
import type { Buyer } from '@domainkit/protocol';
import { upstreamLogFields } from '../errors.ts';
import { isTwoPhase } from './payments.ts';
import {
  markClosed,
  markPaid,
  claimForRecovery,
  countUnfinished,
  releaseForRetry,
  type Intent,
} from './order-store.ts';
import type { OrderFlowDeps } from './deps.ts';
import { captureIntent, orderRequestBody, recordIntent, reportFailure, unwindPayment } from './settle.ts';

/** What one pass did. */
export interface RecoveryReport {
  /** Intents recorded upstream. */
  recorded: number;
  /** Intents the marketplace refused for good, or whose capture was refused (their payments voided or refunded). */
  rejected: number;
  /** Intents given up after the record deadline (their payments voided or refunded, and reported). */
  gaveUp: number;
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
  const report: RecoveryReport = { recorded: 0, rejected: 0, gaveUp: 0, pending: 0, closed: 0, outstanding: 0 };
  const pastDeadline = (intent: Intent) => deps.now() >= intent.created_at.getTime() + deps.timings.recordDeadlineMs;
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
          phase: isTwoPhase(deps.payments) ? (payment.status === 'authorized' ? 'authorized' : 'captured') : undefined,
        });
      }
      let orderId = intent.order_id;
      if (intent.state === 'paid') {
        const outcome = await recordIntent(deps, intent, { maxWaitMs: deps.timings.recoveryRecordWaitMs });
        if (outcome.kind === 'rejected') {
          report.rejected++;
          continue;
        }
        if (outcome.kind === 'pending') {
          if (pastDeadline(intent)) {
            // Transient failures until the deadline: give up, give the money back, report the intent.
            const money = await unwindPayment(deps, intent);
            await markClosed(deps.db, intent.intent_id, 'abandoned', {
              error: 'not recorded before the deadline',
              refundState: money,
              phase: money === 'voided' || money === 'void_failed' ? money : undefined,
              now: now(),
            });
            await reportFailure(deps, intent, { reason: 'gave_up', detail: String(intent.last_error ?? ''), money });
            report.gaveUp++;
          } else report.pending++;
          continue;
        }
        orderId = outcome.order.public_id;
      }
      if (intent.payment_phase === 'authorized' && orderId !== null && isTwoPhase(deps.payments)) {
        const captured = await captureIntent(deps, intent, orderId, { pastDeadline: pastDeadline(intent) });
        if (captured.kind === 'failed') {
          report.rejected++;
          continue;
        }
        if (captured.kind === 'pending') {
          report.pending++;
          continue;
        }
      }
      report.recorded++;
    } catch (error) {
      report.pending++;
      deps.logger.error(
        { intent: intent.intent_id, ...upstreamLogFields(error) },
        'recovery of an order intent failed',
      );
    }
  }
  report.outstanding = await countUnfinished(deps.db, deps.keyId);
  if (claimed.length > 0) deps.logger.info({ ...report }, 'order recovery pass');
  return report;
}
