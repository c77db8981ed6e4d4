/**
 * What this package's adapters reach inside a handler made by `createBffHandler` (the Node and Express adapters:
 * the hot path, the route match, the logger). Not part of the public surface.
 */
import type { Logger } from 'pino';
import type { ComposedBff } from './compose.ts';
import type { BffHandler } from './handler-types.ts';

/** A handler's parts: its assembled BFF (made on first use), base path and logger. */
export interface HandlerParts {
  core(): ComposedBff;
  readonly basePath: string;
  readonly logger: Logger;
}

/** The parts of each handler, by handler. */
export const handlerParts = new WeakMap<BffHandler, HandlerParts>();
