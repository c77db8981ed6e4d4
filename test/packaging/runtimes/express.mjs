// Express on Node: `createBff` mounted under /dk, beside the bench's baseline routes answering constants.
import { createBff } from '@domainkit/bff';
import express from 'express';
import { BARE_ANSWER, bffOptions, sameAnswer } from './options.mjs';

const app = express();
app.get('/bare', (_req, res) => {
  res.type('json').send(BARE_ANSWER);
});
const same = sameAnswer(process.env);
if (same) app.get('/bare-same', (_req, res) => res.set(same.headers()).send(same.body));
const { basePath, ...options } = bffOptions(process.env);
app.use(basePath, createBff(options));
const server = app.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
