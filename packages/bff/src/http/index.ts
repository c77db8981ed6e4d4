/**
 * The BFF's web-standard HTTP layer, shared by every feature and host: the request routes see ({@link BffRequest}),
 * the route shape ({@link RouteHandler}), body readers, answers and the error type. Nothing here imports a host's
 * framework.
 */
export type { BffRequest, RouteHandler, DeadlineAnswer, QueryValues } from './request.ts';
export { readJson, readRawBody, refuseDeclaredOverLimit, BodyTooLargeError, JSON_BODY_LIMIT_BYTES } from './body.ts';
export { json, jsonText, errorResponse, JSON_CONTENT_TYPE } from './respond.ts';
export { Routes, methodNotAllowed, type RouteSpec, type RouteMatch, type VisitorLimitClass } from './routes.ts';
export { errorAnswerer } from './error-answer.ts';
export { BffHttpError } from '../errors.ts';
