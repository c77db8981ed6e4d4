// The bench's second baseline on Next.js: a route handler answering the cached search's own answer as a constant.
import { sameAnswer } from '../../options.mjs';

export const dynamic = 'force-dynamic';
const same = sameAnswer(process.env);
export function GET() {
  if (!same) return new Response(null, { status: 404 });
  return new Response(same.body, { headers: same.headers() });
}
