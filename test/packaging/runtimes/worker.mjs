// Cloudflare Workers (workerd): the BFF as a module worker, beside a route answering a constant.
import { createBffHandler } from '@domainkit/bff/handler';
import { createWorker } from '@domainkit/bff/workers';
import { BARE_ANSWER, bffOptions } from './options.mjs';

const bff = createWorker((env) => createBffHandler({ ...bffOptions(env), background: 'scheduled' }));

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/bare') {
      return new Response(BARE_ANSWER, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    return bff.fetch(request, env, ctx);
  },
  scheduled: bff.scheduled,
};
