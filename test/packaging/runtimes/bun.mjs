// Bun: `Bun.serve` with the handler, beside the bench's baseline routes answering constants.
import { createBffHandler } from '@domainkit/bff/handler';
import { BARE_ANSWER, bffOptions, sameAnswer } from './options.mjs';

const handler = createBffHandler(bffOptions(process.env));
const same = sameAnswer(process.env);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  routes: {
    '/bare': () => new Response(BARE_ANSWER, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
    ...(same && { '/bare-same': () => new Response(same.body, { headers: same.headers() }) }),
  },
  // The peer address only when the BFF reads it (not on a cached search): `requestIP` costs about 2 µs a request.
  fetch: (request, server) => handler.fetch(request, { clientAddress: () => server.requestIP(request)?.address }),
});
console.log(`listening http://127.0.0.1:${server.port}`);
process.on('SIGTERM', async () => {
  await server.stop(true);
  await handler.close();
  process.exit(0);
});
