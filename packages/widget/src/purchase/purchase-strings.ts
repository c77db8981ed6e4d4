/**
 * The English defaults of the strings both buying flows may need once a purchase was refused (see `DkStrings`); they
 * load with the flows, never with the search box.
 */
import type { DkPurchaseStringKey, DkStrings } from '../strings.ts';

export const purchaseStrings: Pick<DkStrings, DkPurchaseStringKey> = {
  domainReserved:
    'Another buyer is completing a purchase of this domain. If they stop, it is for sale again within 10 minutes.',
  reserved: 'Reserved',
  rateLimitedFor: (seconds) =>
    `Busy right now. Please try again in ${
      seconds < 90 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`
    }.`,
};
