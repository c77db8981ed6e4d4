// A partner's Express 5 app mounting the BFF, as the README shows it (run with `node src/server.ts`).
import express from 'express';
import { createBff, testCardPayments } from '@domainkit/bff';

const env = (name: string): string => process.env[name] ?? '';
const app = express();
const bff = createBff({
  marketplace: {
    baseUrl: env('DOMAINKIT_API_BASE_URL'),
    keyId: env('DOMAINKIT_KEY_ID'),
    secret: env('DOMAINKIT_API_SECRET'),
  },
  webhook: { secret: env('DOMAINKIT_WEBHOOK_SECRET') },
  payments: testCardPayments(),
  database: { memory: true },
  onEvent: { 'order.settled': (event) => console.log('settled', event.data.order) },
});
app.use('/dk', bff);
const server = app.listen(0, '127.0.0.1', () => console.log(`listening ${JSON.stringify(server.address())}`));
process.on('SIGTERM', () => server.close(() => void bff.close()));
