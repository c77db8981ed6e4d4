/**
 * The base of the widget's two controllers (the search of `<dk-domain-search>`, the purchase of both elements),
 * modelled on `@lit/task`: a status that re-renders the host when it changes, one request at a time (starting
 * one aborts the one before through its `AbortSignal`, so a late answer finds its signal aborted and is
 * dropped), one timer (debounce, countdowns, polling) on the host's clock, and failures shown and fired as
 * `dk-error`.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isAbortError, toApiError, type DkApiError } from './api.ts';
import type { DkClock } from './clock.ts';
import { DkErrorEvent } from './events/dk-error.ts';
import { errorMessage, type DkStrings } from './strings.ts';

/** What a controller reads from its host element (read at each use, so a replaced `clock` is honoured). */
export interface DkHost extends ReactiveControllerHost, EventTarget {
  /** Base URL of the partner's BFF. */
  readonly api: string;
  /** The time source of timers and countdowns. */
  readonly clock: DkClock;
  /** The strings in use (failures are fired with the message the element shows). */
  readonly texts: DkStrings;
}

/** One request at a time, one timer and a status, for a host element. */
export class DkController<S extends string> implements ReactiveController {
  /** Where the controller stands; its host reflects it as a `data-*` attribute. */
  declare status: S;
  /** The last failure, shown until the next request starts. */
  declare error: DkApiError | undefined;
  declare protected readonly host: DkHost;
  #abort: AbortController | undefined;
  #timer: unknown;

  /** Registers with `host`, in `status`. */
  constructor(host: DkHost, status: S) {
    this.host = host;
    this.status = status;
    host.addController(this);
  }

  /** Enters `status` and re-renders the host. */
  set(status: S): void {
    this.status = status;
    this.host.requestUpdate();
  }

  /** Starts a request: stops what runs, clears the error, enters `status`; returns the new request's signal. */
  start(status: S): AbortSignal {
    this.stop();
    this.error = undefined;
    this.set(status);
    this.#abort = new AbortController();
    return this.#abort.signal;
  }

  /** Aborts the request in flight and cancels the timer. */
  stop(): void {
    this.#abort?.abort();
    this.#abort = undefined;
    this.wait();
  }

  /**
   * Runs `callback` after `ms` milliseconds of the host's clock, replacing the timer set before (if any);
   * without a callback, only cancels that timer.
   */
  wait(callback?: () => void, ms = 0): void {
    const clock = this.host.clock;
    if (this.#timer !== undefined) clock.clearTimeout(this.#timer);
    this.#timer = callback && clock.setTimeout(callback, ms);
  }

  /** Re-renders the host on each second boundary until the clock reaches `at` (ms since the epoch), then runs `done`. */
  countdown(at: number, done: () => void): void {
    const left = at - this.host.clock.now();
    if (left <= 0) {
      done();
      return;
    }
    this.host.requestUpdate();
    this.wait(() => this.countdown(at, done), left % 1000 || 1000);
  }

  /**
   * Records the failure `caught` of a request (as a {@link DkApiError}), enters `status` and fires `dk-error`
   * with the message the element shows. Changes nothing (and returns `undefined`) when `caught` is an abort.
   */
  fail(caught: unknown, status: S): DkApiError | undefined {
    if (isAbortError(caught)) return undefined;
    const error = toApiError(caught);
    this.error = error;
    this.set(status);
    this.host.dispatchEvent(new DkErrorEvent({ code: error.code, message: errorMessage(error, this.host.texts) }));
    return error;
  }

  hostDisconnected(): void {
    // The element is gone: nothing may run for it later.
    this.stop();
  }
}
