/**
 * The checkout feature's options (`returnUrl`, `cancelUrl`, `checkoutReturnOrigins`, `onCheckoutCompleted`), their
 * defaults and their environment variables (`DOMAINKIT_RETURN_URL`, `DOMAINKIT_CANCEL_URL`).
 */
import type { CheckoutReturn } from '@domainkit/protocol';
import { z } from 'zod';
import { firstMessage, httpUrl, isFunction, originSchema, type EnvReader, type EnvVariable } from '../config/kit.ts';

/** The `createBff` options of the checkout feature, as checked at creation (in the order `BffOptions` lists them). */
export const checkoutOptionsShape = {
  returnUrl: httpUrl.optional(),
  cancelUrl: httpUrl.optional(),
  checkoutReturnOrigins: z
    .array(originSchema, { error: 'must be an array of origins such as ["https://shop.example"]' })
    .optional(),
  onCheckoutCompleted: z
    .custom<(sale: CheckoutReturn) => void>(isFunction, { error: 'must be a function (sale) => void' })
    .optional(),
};

/**
 * Origins a widget may name in `return_url` / `cancel_url` of `POST /checkout`: `checkoutReturnOrigins`, default
 * `allowedOrigins` plus the origins of `returnUrl` and `cancelUrl`.
 */
export function resolveCheckoutReturnOrigins(o: {
  readonly checkoutReturnOrigins?: readonly string[] | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly returnUrl?: string | undefined;
  readonly cancelUrl?: string | undefined;
}): ReadonlySet<string> {
  return new Set(
    o.checkoutReturnOrigins ?? [
      ...(o.allowedOrigins ?? []),
      ...[o.returnUrl, o.cancelUrl].filter((u): u is string => u !== undefined).map((u) => new URL(u).origin),
    ],
  );
}

/** The checkout feature's environment variables, in the order the README documents them. */
export const CHECKOUT_ENV_VARIABLES: readonly EnvVariable[] = [
  {
    name: 'DOMAINKIT_RETURN_URL',
    required: false,
    description: 'where the hosted checkout returns the buyer after paying',
  },
  {
    name: 'DOMAINKIT_CANCEL_URL',
    required: false,
    description: 'where the hosted checkout returns the buyer after cancelling',
  },
];

/** `returnUrl` and `cancelUrl` from `DOMAINKIT_RETURN_URL` and `DOMAINKIT_CANCEL_URL`. */
export function readCheckoutEnv(env: EnvReader): { returnUrl?: string; cancelUrl?: string } {
  const urls: Record<string, string | undefined> = {};
  for (const name of ['DOMAINKIT_RETURN_URL', 'DOMAINKIT_CANCEL_URL']) {
    const value = env.get(name);
    const message = value === undefined ? undefined : firstMessage(httpUrl, value);
    if (message) env.problem(name, `${message}; received ${JSON.stringify(value)}`);
    urls[name] = value;
  }
  return {
    ...(urls.DOMAINKIT_RETURN_URL !== undefined && { returnUrl: urls.DOMAINKIT_RETURN_URL }),
    ...(urls.DOMAINKIT_CANCEL_URL !== undefined && { cancelUrl: urls.DOMAINKIT_CANCEL_URL }),
  };
}
