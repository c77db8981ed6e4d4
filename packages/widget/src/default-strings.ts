/** Every English default string of the widget, in one object (the npm build's `defaultStrings` export). */
import { popupStrings } from './domain-search/popup.ts';
import { siblingStrings } from './domain-search/siblings.ts';
import { returnStrings } from './purchase/checkout-flow.ts';
import { orderStrings } from './purchase/order-strings.ts';
import { purchaseStrings } from './purchase/purchase-strings.ts';
import { baseStrings, type DkStrings } from './strings.ts';

export type { DkStrings };

/** The English defaults of every string (see {@link DkStrings}). */
export const defaultStrings: DkStrings = {
  ...baseStrings,
  ...siblingStrings,
  ...popupStrings,
  ...orderStrings,
  ...returnStrings,
  ...purchaseStrings,
};
