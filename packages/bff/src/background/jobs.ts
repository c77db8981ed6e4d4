/**
 * The BFF's job scheduler: background tasks tracked until they settle (so tests and graceful stops can wait for
 * them), one-shot and repeating timers that never keep the process alive, and one abort signal for work in
 * flight when the BFF closes. With timers off (`background.mode: 'scheduled'`: serverless hosts and Workers, where
 * nothing runs between requests) no timer is ever set: the work runs when the host calls `scheduled()`.
 */
import type { Logger } from 'pino';
import { errorFields } from '../logger.ts';
import { unrefTimer } from '../platform.ts';

/** Runs and tracks the background work of one router. */
export class JobScheduler {
  readonly #logger: Logger;
  readonly #tasks = new Set<Promise<unknown>>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #abort = new AbortController();
  readonly #useTimers: boolean;
  #stopping = false;

  /** @param options.timers - false: {@link after} and {@link every} set no timer (default true). */
  constructor(logger: Logger, options: { readonly timers?: boolean } = {}) {
    this.#logger = logger;
    this.#useTimers = options.timers !== false;
  }

  /** Aborted when the scheduler stops, after the grace period: long work in flight should give up. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** True once {@link stop} was called: no new timer starts. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Runs `task` now, tracked by {@link idle}; a failure is logged (unless stopping), never raised. */
  track<T>(name: string, task: () => Promise<T>): Promise<T | undefined> {
    const promise = (async () => {
      try {
        return await task();
      } catch (error) {
        if (!this.#stopping) this.#logger.error({ task: name, ...errorFields(error) }, 'background task failed');
        return undefined;
      }
    })();
    this.#tasks.add(promise);
    void promise.finally(() => this.#tasks.delete(promise));
    return promise;
  }

  /** Resolves when no tracked task is running. */
  async idle(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.allSettled([...this.#tasks]);
  }

  /** Calls `run` once after `ms` (not when stopping, nor with timers off). */
  after(ms: number, run: () => void): void {
    if (this.#stopping || !this.#useTimers) return;
    const t = setTimeout(() => {
      this.#timers.delete(t);
      run();
    }, ms);
    unrefTimer(t);
    this.#timers.add(t);
  }

  /**
   * Runs `task` (tracked) every `intervalMs` after the previous run settled; nothing when `intervalMs` ≤ 0 or with
   * timers off.
   */
  every(intervalMs: number, name: string, task: () => Promise<unknown>): void {
    if (intervalMs <= 0) return;
    const loop = () =>
      this.after(intervalMs, () => {
        void this.track(name, task).finally(loop);
      });
    loop();
  }

  /**
   * Stops the timers, lets tracked tasks finish for at most `graceMs`, then aborts {@link signal}. Idempotent in
   * effect; each call waits again.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    const timeout = new Promise<void>((resolve) => unrefTimer(setTimeout(resolve, graceMs)));
    await Promise.race([this.idle(), timeout]);
    this.#abort.abort();
  }
}
