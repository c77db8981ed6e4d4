/**
 * The visitor's purchase key: the `Idempotency-Key` header of `POST /quotes` and `POST /orders` (the widget's one
 * random key per purchase attempt; docs/spec-decisions.md "Purchase keys and deadlines").
 */
import { z } from 'zod';
import type { BffRequest } from '../http/index.ts';
import { parseInput } from '../validate.ts';

/** The purchase-key header of `POST /quotes` and `POST /orders` (the IETF `Idempotency-Key` header's name). */
export const PURCHASE_KEY_HEADER = 'Idempotency-Key';

const purchaseKeySchema = z.object({
  key: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{16,128}$/,
      'must be 16 to 128 letters, digits, "-" or "_": a new random key (such as a UUID) per purchase attempt',
    )
    .optional(),
});

/**
 * The visitor's purchase key, or undefined when the request carries none.
 * @throws {BffHttpError} 400 `validation_error` for a malformed key.
 */
export function purchaseKeyOf(req: BffRequest): string | undefined {
  return parseInput(purchaseKeySchema, { key: req.header(PURCHASE_KEY_HEADER) }, 'header', {
    key: { label: `The ${PURCHASE_KEY_HEADER} header`, hint: 'the purchase key', example: '' },
  }).key;
}
