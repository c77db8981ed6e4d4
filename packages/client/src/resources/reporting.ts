/**
 * Settlement statements, the transaction history and payouts (Partner API spec 2.7, 4.1 "Settlement, history, refunds"):
 * reporting endpoints, 30 requests per minute per credential (Partner API spec 8). All are cursor lists.
 */
import { PARTNER_API_OPERATIONS as OPS } from '@domainkit/protocol';
import { partnerEndpoint } from '../endpoint.ts';

/** `GET /settlements` (scope `buy`): per-period statements: gross sold, commission retained, amount owed. */
export const listSettlementsEndpoint = partnerEndpoint('settlements.list', OPS.listSettlements);

/** `GET /transactions` (scope `report`): the sales history, filtered by `from`, `to`, `status`, `payment_model`. */
export const listTransactionsEndpoint = partnerEndpoint('transactions.list', OPS.listTransactions);

/** `GET /payouts` (scope `report`): payouts made to the partner (non-MoR commissions, brokerage). */
export const listPayoutsEndpoint = partnerEndpoint('payouts.list', OPS.listPayouts);
