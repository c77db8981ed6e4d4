// Hono on Node (@hono/node-server): the handler on a `/dk/*` route (given `c.req.raw`, as the README says), beside
// Hono routes answering the bench's baseline constants.
import { serve } from '@hono/node-server';
import { createBffHandler } from '@domainkit/bff/handler';
import { Hono } from 'hono';
import { BARE_ANSWER, bffOptions, sameAnswer } from './options.mjs';

const handler = createBffHandler(bffOptions(process.env));
const app = new Hono();
app.get('/bare', (c) => c.body(BARE_ANSWER, 200, { 'content-type': 'application/json; charset=utf-8' }));
// @hono/node-server's bindings carry Node's request: its socket's peer is the visitor's address.
const same = sameAnswer(process.env);
if (same) app.get('/bare-same', (c) => c.body(same.body, 200, same.headers()));
app.all('/dk/*', (c) => handler.fetch(c.req.raw, { clientAddress: c.env?.incoming?.socket?.remoteAddress }));
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  console.log(`listening http://127.0.0.1:${info.port}`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
