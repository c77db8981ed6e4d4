/**
 * The checkout feature (`POST /checkout`, `GET /checkout/return`): hosted checkout sessions and their verified return
 * (Partner API spec 4.1, 7). The entry every other module of the BFF imports it through.
 */
import type { RouteSpec } from '../http/index.ts';
import { checkoutReturnRoute, type CheckoutReturnDeps } from './return-route.ts';
import { checkoutRoute, type CheckoutRouteDeps } from './route.ts';

export { checkoutRoute, returnTarget, type CheckoutRouteDeps } from './route.ts';
export { checkoutReturnRoute, type CheckoutReturnDeps } from './return-route.ts';

/** What the checkout feature uses: what its two routes use (`domainChanged` is the same function for both). */
export type CheckoutFeatureDeps = CheckoutRouteDeps & CheckoutReturnDeps;

/** What the handler composes of the checkout feature. */
export interface CheckoutFeature {
  /**
   * `GET /checkout/return` (counted as a search by the visitor limits) and `POST /checkout` (a write: cross-site
   * requests refused, counted as a write); both answered within the visitor deadline.
   */
  readonly routes: readonly RouteSpec[];
}

/** The checkout feature's routes, made once per BFF. */
export function checkoutFeature(deps: CheckoutFeatureDeps): CheckoutFeature {
  return {
    routes: [
      { path: '/checkout/return', GET: checkoutReturnRoute(deps), limit: 'search' },
      { path: '/checkout', POST: checkoutRoute(deps), limit: 'write', sameSiteWrite: true },
    ],
  };
}
export {
  checkoutOptionsShape,
  resolveCheckoutReturnOrigins,
  CHECKOUT_ENV_VARIABLES,
  readCheckoutEnv,
} from './options.ts';
