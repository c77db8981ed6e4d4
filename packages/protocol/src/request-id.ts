/**
 * Request ids (`X-Request-Id`): not in the spec, the de-facto header of proxies and platforms (Heroku, Render,
 * nginx `$request_id`). The widget may send one, the BFF accepts a well-formed one or makes its own and forwards it
 * upstream, and the sandbox logs the one it received next to its own (docs/spec-decisions.md "Request ids").
 */

/** The header, as sent and answered. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A well-formed request id: 1–128 characters of letters, digits and `. _ : ~ -`, beginning with a letter or digit. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:~-]{0,127}$/;

/** Whether a received request id may be adopted (and logged) as it is; anything else is replaced, never echoed. */
export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_ID_PATTERN.test(value);
}
