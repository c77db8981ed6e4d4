// Deno: `Deno.serve` with the handler, beside the bench's baseline routes answering constants.
import { createBffHandler } from '@domainkit/bff/handler';
import { BARE_ANSWER, bffOptions, sameAnswer } from './options.mjs';

const env = Deno.env.toObject();
const handler = createBffHandler(bffOptions(env));
const same = sameAnswer(env);
const server = Deno.serve(
  { hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening http://127.0.0.1:${port}`) },
  (request, info) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/bare') {
      return new Response(BARE_ANSWER, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    if (same && pathname === '/bare-same') return new Response(same.body, { headers: same.headers() });
    // The peer address only when the BFF reads it (not on a cached search).
    return handler.fetch(request, { clientAddress: () => info.remoteAddr.hostname });
  },
);
Deno.addSignalListener('SIGTERM', async () => {
  await server.shutdown();
  await handler.close();
  Deno.exit(0);
});
