/**
 * The options of `createBffHandler` read once: those of `createBff` (options.ts, resolved-options.ts) plus the
 * handler's own (`basePath`, `trustProxy`, `background: 'timers' | 'scheduled'`).
 */
import type { BffHandlerOptions } from './handler-types.ts';
import { readTrustProxy, type TrustProxySetting } from './http/proxy-trust.ts';
import { BffOptionsError, unknownEventTypeProblem, validateBffOptions } from './options.ts';
import { type ResolvedBffOptions, resolveBffOptions } from './resolved-options.ts';
import type { EventHandler } from './webhooks/index.ts';

/** The handler's options, resolved. */
export interface ResolvedHandlerOptions {
  readonly o: ResolvedBffOptions;
  /** `''` or a path such as `/dk`. */
  readonly basePath: string;
  readonly trustProxy: TrustProxySetting;
}

/**
 * Validates and resolves the options. `createBff` (where = `createBff`) takes none of the handler's own options:
 * there they are unknown options. `background: 'scheduled'` is short for `background: { mode: 'scheduled' }`.
 * @throws {BffOptionsError} listing every bad option with the fix.
 */
export function resolveHandlerOptions(options: BffHandlerOptions, where: string): ResolvedHandlerOptions {
  const own = where !== 'createBff';
  const { basePath = '', trustProxy, background, ...rest } = own ? (options ?? {}) : ({} as BffHandlerOptions);
  const problems: string[] = [];
  if (typeof basePath !== 'string' || !/^(\/[A-Za-z0-9._~-]+)*$/.test(basePath))
    problems.push('`basePath` must be "" or a path such as "/dk" (no trailing "/")');
  const trust = trustProxy === undefined ? { setting: 0 } : readTrustProxy(trustProxy);
  if ('problem' in trust) problems.push(`\`trustProxy\` ${trust.problem}`);
  if (problems.length > 0 || 'problem' in trust) throw new BffOptionsError(problems, where);
  const mode = background === 'timers' || background === 'scheduled' ? { mode: background } : background;
  const o = resolveBffOptions(validateBffOptions(own ? { ...rest, background: mode } : options, where));
  return { o, basePath, trustProxy: trust.setting };
}

/**
 * An event handler given to `on(type, handler)`, checked.
 * @throws {TypeError} for an unknown event type (with the likely intended one) or a handler that is no function.
 */
export function checkedEventHandler(type: string, handler: unknown): EventHandler {
  const unknownType = unknownEventTypeProblem(String(type));
  if (unknownType) throw new TypeError(`bff.on(${JSON.stringify(type)}, handler): ${unknownType}`);
  if (typeof handler !== 'function')
    throw new TypeError(
      `bff.on(${JSON.stringify(type)}, handler): handler must be a function (event, context) => void`,
    );
  return handler as EventHandler;
}
