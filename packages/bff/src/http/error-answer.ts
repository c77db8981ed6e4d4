/**
 * Anything a route throws becomes the BFF's error answer here, in one place: `BffHttpError` as it is, upstream
 * failures as visitor-safe messages (errors.ts `toAnswer`), everything else 500 `internal_error`, never a stack
 * trace. Upstream failures and defects are logged (defects also published on protocol's `DEFECT_CHANNEL`); `busy`
 * answers are counted and logged once a minute.
 */
import { channel } from 'node:diagnostics_channel';
import { DEFECT_CHANNEL, type DefectReport } from '@domainkit/protocol';
import type { Logger } from 'pino';
import { BffHttpError, busyLog, toAnswer, UpstreamBusyError, upstreamLogFields } from '../errors.ts';
import { redactText } from '../logger.ts';
import { JSON_BODY_LIMIT_BYTES } from './body.ts';
import { errorResponse } from './respond.ts';

const defects = channel(DEFECT_CHANNEL);

/**
 * Makes the BFF's error answerer.
 * @returns `(error, route)` → the answer; `route` (`POST /orders`) names the request in log lines.
 */
export function errorAnswerer(logger: Logger): (error: unknown, route: string) => Response {
  const countBusy = busyLog(logger);
  return function answerError(error, route) {
    const cause = error instanceof BffHttpError && error.cause !== undefined ? error.cause : error;
    const { answer, log } = toAnswer(error, { bodyLimitKb: JSON_BODY_LIMIT_BYTES / 1024 });
    if (log === 'defect') {
      const e = cause as { code?: unknown; message?: unknown };
      const dbMessage = redactText(String(e.message));
      logger.error(
        { route, status: answer.status, defect: true, sqlstate: e.code, db_message: dbMessage },
        'defect: the database refused a value that input validation let through',
      );
      if (defects.hasSubscribers) {
        const report: DefectReport = {
          component: 'bff',
          route,
          sqlstate: typeof e.code === 'string' ? e.code : undefined,
          message: dbMessage,
        };
        defects.publish(report);
      }
    } else if (log === 'error')
      logger.error(
        { route, status: answer.status, ...upstreamLogFields(cause) },
        answer.code === 'upstream_error' ? 'marketplace request failed' : 'unexpected error',
      );
    else if (log === 'busy') countBusy();
    else if (log === 'warn')
      logger.warn(
        { route, status: answer.status, ...upstreamLogFields(cause) },
        cause instanceof UpstreamBusyError
          ? 'upstream budget spent'
          : answer.code === 'unavailable'
            ? 'the database cannot be reached'
            : 'marketplace rate limit reached',
      );
    return errorResponse(answer);
  };
}
