/**
 * The order recovery job: runs the recovery pass (`recovery.ts`) over the credential's unfinished order
 * intents. On embedded PGlite (one process), a lease on an intent created before this router started belongs to a
 * dead process, so such intents are taken whatever their lease.
 */
import type { OrderFlowDeps } from './deps.ts';
import { recoverIntents, type RecoveryReport } from './recovery.ts';

/** Runs recovery passes for one router. */
export class OrderRecovery {
  readonly #orderFlow: () => Promise<OrderFlowDeps>;
  readonly #ignoreLeasesBefore: Date | undefined;

  /**
   * @param orderFlow - what the order flow needs (throws 503/404 as the router's `orderFlow`).
   * @param options.embeddedSince - when the router started, on embedded PGlite only.
   */
  constructor(orderFlow: () => Promise<OrderFlowDeps>, options: { embeddedSince: Date | undefined }) {
    this.#orderFlow = orderFlow;
    this.#ignoreLeasesBefore = options.embeddedSince;
  }

  /** One recovery pass. */
  async run(): Promise<RecoveryReport> {
    return recoverIntents(await this.#orderFlow(), { ignoreLeasesBefore: this.#ignoreLeasesBefore });
  }
}
