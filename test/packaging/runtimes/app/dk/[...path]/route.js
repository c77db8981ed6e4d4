// Next.js App Router: every method under /dk goes to the BFF, created on the first request (never by `next build`).
import { createBffHandler } from '@domainkit/bff/handler';
import { toNextRouteHandlers } from '@domainkit/bff/next';
import { bffOptions } from '../../../options.mjs';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, POST, OPTIONS, HEAD } = toNextRouteHandlers(() => createBffHandler(bffOptions(process.env)));
