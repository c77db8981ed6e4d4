// Node's own http server: the handler through `toNodeListener`, beside the bench's baseline routes answering constants.
import { createServer } from 'node:http';
import { createBffHandler } from '@domainkit/bff/handler';
import { toNodeListener } from '@domainkit/bff/node';
import { BARE_ANSWER, bffOptions, sameAnswer } from './options.mjs';

const bff = toNodeListener(createBffHandler(bffOptions(process.env)));
const same = sameAnswer(process.env);
const server = createServer((req, res) => {
  if (req.url === '/bare') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(BARE_ANSWER);
    return;
  }
  if (same && req.url === '/bare-same') {
    res.writeHead(200, same.headers()).end(same.body);
    return;
  }
  bff(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
