// Cloudflare Workers (workerd): the BFF as a module worker, beside the bench's baseline routes answering constants.
import { createBffHandler } from '@domainkit/bff/handler';
import { createWorker } from '@domainkit/bff/workers';
import { BARE_ANSWER, bffOptions, sameAnswer } from './options.mjs';

const bff = createWorker((env) => createBffHandler({ ...bffOptions(env), background: 'scheduled' }));

/** The bench's same-answer constant, read from the bindings on first use (`null`: none set). */
let same;

export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === '/bare') {
      return new Response(BARE_ANSWER, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    if (pathname === '/bare-same') {
      same ??= sameAnswer(env) ?? null;
      if (same) return new Response(same.body, { headers: same.headers() });
    }
    return bff.fetch(request, env, ctx);
  },
  scheduled: bff.scheduled,
};
