/**
 * The overall deadline of a visitor request (option `requestDeadlineSeconds`, default 15 s): a slow or hanging
 * marketplace never keeps a visitor (or the proxy in front of the BFF) waiting past it. When it passes before the
 * route has answered, the visitor gets the route's deadline answer if it registered one (a purchase under way:
 * 202 `PROCESSING` with its order id and view token), else 504 `upstream_timeout`. The route's work goes on in the
 * background (an order's record is finished by the request or by the recovery pass); whatever it answers later is
 * dropped.
 */
import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { BffHttpError, sendError } from './errors.ts';

/** What a route answers when its deadline passes. */
export interface DeadlineAnswer {
  readonly status: number;
  readonly body: unknown;
}

const ANSWER = 'domainkitDeadlineAnswer';

/** Registers what to answer if the request's deadline passes from now on (a purchase under way). */
export function setDeadlineAnswer(res: Response, answer: () => DeadlineAnswer): void {
  res.locals[ANSWER] = answer;
}

/** The message of a 504 `upstream_timeout`. */
export const UPSTREAM_TIMEOUT_MESSAGE = 'The marketplace is taking too long to answer; try again shortly.';

/**
 * The deadline middleware.
 * @param deadlineMs - the deadline in milliseconds, counted from when the request reaches the BFF's router.
 */
export function requestDeadline(deadlineMs: number, logger: Logger): RequestHandler {
  return function domainkitBffDeadline(req, res, next) {
    const arrived = Date.now();
    // The route runs first: an answer given at once (a cached search) needs no timer. Otherwise the timer is armed
    // for what is left of the deadline, counted from arrival.
    next();
    if (res.writableEnded) return;
    const timer = setTimeout(
      () => {
        if (res.headersSent) return;
        const answer = (res.locals[ANSWER] as (() => DeadlineAnswer) | undefined)?.();
        logger.warn(
          {
            route: `${req.method} ${req.originalUrl.split('?', 1)[0]}`,
            deadline_ms: deadlineMs,
            status: answer?.status ?? 504,
          },
          'visitor request passed its deadline; answered now, the work goes on',
        );
        if (answer !== undefined) res.status(answer.status).json(answer.body);
        else sendError(res, new BffHttpError('upstream_timeout', UPSTREAM_TIMEOUT_MESSAGE));
        // The visitor has an answer: drop whatever the route sends when its work ends.
        res.status = () => res;
        res.setHeader = () => res;
        res.json = () => res;
        res.send = () => res;
        res.end = () => res;
      },
      Math.max(0, deadlineMs - (Date.now() - arrived)),
    );
    timer.unref();
    const clear = () => clearTimeout(timer);
    res.once('finish', clear);
    res.once('close', clear);
  };
}
