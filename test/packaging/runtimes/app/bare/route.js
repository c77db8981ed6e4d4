// The bench's baseline on Next.js: a route handler answering a constant.
import { BARE_ANSWER } from '../../options.mjs';

export const dynamic = 'force-dynamic';
export function GET() {
  return new Response(BARE_ANSWER, { headers: { 'content-type': 'application/json; charset=utf-8' } });
}
