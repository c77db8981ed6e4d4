/**
 * The checkout feature (`POST /checkout`, `GET /checkout/return`): hosted checkout sessions and their verified return
 * (Partner API spec 4.1, 7). The entry every other module of the BFF imports it through.
 */
export { checkoutRoute, returnTarget, type CheckoutRouteDeps } from './route.ts';
export { checkoutReturnRoute, type CheckoutReturnDeps } from './return-route.ts';
