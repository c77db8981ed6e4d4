/**
 * Builds a {@link PageIterator} over a cursor-list endpoint: each page is one signed call through the
 * {@link RequestSender}, asked for with the previous page's `next_cursor`.
 */
import type { z } from 'zod';
import type { Endpoint } from './endpoint.ts';
import { PageIterator } from './pagination.ts';
import type { CallOptions, RequestSender } from './request-sender.ts';

/** Options of a read: an abort signal and the budget context (no idempotency key: reads are safe to repeat). */
export type ListOptions = Pick<CallOptions, 'signal' | 'context'>;

/**
 * @param itemsKey - the plural key of the list (`orders`, `events`, ...).
 * @param cursorParam - the query parameter taking the cursor: `cursor` (docs/architecture.md "Lists") or `after_id` (events).
 * @param params - the list's filters; a cursor among them is where the walk starts.
 */
export function listPages<TInput extends z.ZodType, TResponse extends z.ZodType, TItem>(
  sender: RequestSender,
  endpoint: Endpoint<TInput, TResponse>,
  itemsKey: string,
  cursorParam: 'cursor' | 'after_id',
  params: Record<string, unknown>,
  options: ListOptions = {},
): PageIterator<TItem, z.output<TResponse>> {
  const { [cursorParam]: start, ...filters } = params;
  return new PageIterator<TItem, z.output<TResponse>>(
    async (cursor, signal) => {
      const input = (cursor === undefined ? filters : { ...filters, [cursorParam]: cursor }) as z.input<TInput>;
      const raw = await sender.send(endpoint, input, { signal, context: options.context });
      const answer = raw as Record<string, unknown>;
      const next = answer.next_cursor;
      return { items: answer[itemsKey] as TItem[], nextCursor: typeof next === 'string' ? next : null, raw };
    },
    typeof start === 'string' ? start : undefined,
    options.signal,
  );
}
