/**
 * Settlement statements, the transaction history and payouts (Partner API spec 2.7, 4.1 "Settlement, history, refunds"):
 * reporting endpoints, 30 requests per minute per credential (Partner API spec 8). All are cursor lists.
 */
import {
  dateWindowParamsSchema,
  listTransactionsParamsSchema,
  payoutListSchema,
  settlementListSchema,
  transactionListSchema,
} from '@domainkit/protocol';
import { PARTNER_API_PREFIX, defineEndpoint } from '../endpoint.ts';

/** `GET /settlements` (scope `buy`): per-period statements: gross sold, commission retained, amount owed. */
export const listSettlementsEndpoint = defineEndpoint({
  name: 'settlements.list',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/settlements`,
  input: dateWindowParamsSchema,
  response: settlementListSchema,
  rateClass: 'reporting',
});

/** `GET /transactions` (scope `report`): the sales history, filtered by `from`, `to`, `status`, `payment_model`. */
export const listTransactionsEndpoint = defineEndpoint({
  name: 'transactions.list',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/transactions`,
  input: listTransactionsParamsSchema,
  response: transactionListSchema,
  rateClass: 'reporting',
});

/** `GET /payouts` (scope `report`): payouts made to the partner (non-MoR commissions, brokerage). */
export const listPayoutsEndpoint = defineEndpoint({
  name: 'payouts.list',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/payouts`,
  input: dateWindowParamsSchema,
  response: payoutListSchema,
  rateClass: 'reporting',
});
