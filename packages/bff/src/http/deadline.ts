/**
 * The overall deadline of a visitor request (option `requestDeadlineSeconds`, default 15 s): a slow or hanging
 * marketplace never keeps a visitor (or the proxy in front of the BFF) waiting past it. When it passes before the
 * route has answered, the visitor gets the route's deadline answer if it registered one (`req.onDeadline`: a
 * purchase under way, 202 `PROCESSING` with its order id and view token), else 504 `upstream_timeout`; the
 * request's `deadline` signal is aborted. The route's work goes on in the background (an order's record is finished
 * by the request or by the recovery pass); whatever it answers later is dropped.
 */
import type { Logger } from 'pino';
import { BffHttpError } from '../errors.ts';
import type { DeadlineAnswer } from './request.ts';
import { json } from './respond.ts';

/** The message of a 504 `upstream_timeout`. */
export const UPSTREAM_TIMEOUT_MESSAGE = 'The marketplace is taking too long to answer; try again shortly.';

/** What {@link withinDeadline} needs of the request. */
export interface DeadlineScope {
  /** Aborted when the deadline passes. */
  readonly controller: AbortController;
  /** The route's registered deadline answer, if any. */
  readonly answer: () => DeadlineAnswer | undefined;
  /** `POST /orders`, for the log line. */
  readonly route: string;
  /** Keeps the host alive for the route's work that goes on. */
  readonly waitUntil: (promise: Promise<unknown>) => void;
}

/**
 * Runs a route within `deadlineMs` (counted from `arrivedMs`).
 * @returns the route's answer, or at the deadline the registered answer ({@link DeadlineAnswer}).
 * @throws what the route throws before the deadline; {@link BffHttpError} 504 `upstream_timeout` at the deadline
 *   when the route registered no answer.
 */
export function withinDeadline(
  run: Promise<Response>,
  deadlineMs: number,
  arrivedMs: number,
  scope: DeadlineScope,
  logger: Logger,
): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passed = new Promise<Response>((resolve, reject) => {
    timer = setTimeout(
      () => {
        const answer = scope.answer();
        logger.warn(
          { route: scope.route, deadline_ms: deadlineMs, status: answer?.status ?? 504 },
          'visitor request passed its deadline; answered now, the work goes on',
        );
        scope.controller.abort(new BffHttpError('upstream_timeout', UPSTREAM_TIMEOUT_MESSAGE));
        // The visitor has an answer: the route's work goes on, its answer (or failure) is dropped.
        scope.waitUntil(run.catch(() => {}));
        if (answer === undefined) reject(new BffHttpError('upstream_timeout', UPSTREAM_TIMEOUT_MESSAGE));
        else resolve(json(answer.body, answer.status));
      },
      Math.max(0, deadlineMs - (Date.now() - arrivedMs)),
    );
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([run, passed]).finally(() => clearTimeout(timer));
}
