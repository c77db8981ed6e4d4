/**
 * Checks every answer of the BFF's widget routes against `@domainkit/protocol`'s widget ↔ BFF API, the schemas the
 * widget's types are pinned to: success bodies against the route's response schema, error bodies against
 * `widgetErrorSchema`. Unknown fields count as drift too (the answer must equal what the schema keeps), so the BFF
 * cannot send a field protocol does not declare. `call()` (helpers.ts) runs it on every answer it receives.
 */
import {
  widgetBrokerageCaseSchema,
  widgetBrokerageEligibilitySchema,
  widgetCheckoutResponseSchema,
  widgetCheckoutReturnResponseSchema,
  widgetDomainSchema,
  widgetErrorSchema,
  widgetOrderResponseSchema,
  widgetOrderStatusSchema,
  widgetOrderTrackSchema,
  widgetQuoteAnswerSchema,
  widgetSearchResponseSchema,
  widgetSiblingsResponseSchema,
  widgetWhoisResponseSchema,
} from '@domainkit/protocol';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';

/** A widget route: method, the end of its path (after the BFF's mount path), and its success schema. */
interface WidgetRoute {
  readonly method: string;
  readonly path: RegExp;
  readonly schema: z.ZodType;
}

const WIDGET_ROUTES: readonly WidgetRoute[] = [
  { method: 'GET', path: /\/search$/, schema: widgetSearchResponseSchema },
  { method: 'GET', path: /\/siblings$/, schema: widgetSiblingsResponseSchema },
  { method: 'GET', path: /\/whois$/, schema: widgetWhoisResponseSchema },
  { method: 'GET', path: /\/domains\/[^/]+$/, schema: widgetDomainSchema },
  { method: 'POST', path: /\/checkout$/, schema: widgetCheckoutResponseSchema },
  { method: 'GET', path: /\/checkout\/return$/, schema: widgetCheckoutReturnResponseSchema },
  { method: 'POST', path: /\/quotes$/, schema: widgetQuoteAnswerSchema },
  { method: 'POST', path: /\/orders$/, schema: widgetOrderResponseSchema },
  { method: 'GET', path: /\/orders\/[^/]+$/, schema: widgetOrderStatusSchema },
  { method: 'GET', path: /\/orders\/[^/]+\/status$/, schema: widgetOrderTrackSchema },
  { method: 'GET', path: /\/brokerage\/eligibility$/, schema: widgetBrokerageEligibilitySchema },
  { method: 'POST', path: /\/brokerage$/, schema: widgetBrokerageCaseSchema },
];

/**
 * The protocol schema a BFF answer must match, or `undefined` when the request is not one of the widget routes
 * (health checks, webhooks, the stub marketplace's own `/api/...` paths).
 */
export function widgetAnswerSchema(method: string, url: string, status: number): z.ZodType | undefined {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/api/')) return undefined;
  const route = WIDGET_ROUTES.find((r) => r.method === method.toUpperCase() && r.path.test(pathname));
  if (route === undefined) return undefined;
  return status >= 400 ? widgetErrorSchema : route.schema;
}

/**
 * Throws when `json`, the body of a widget route's answer, is not exactly what protocol's schema declares (a
 * missing or mistyped field, or a field protocol does not know). Answers of other routes pass unchecked.
 */
export function checkWidgetAnswer(method: string, url: string, status: number, json: unknown): void {
  if (status === 204 || status === 304 || status === 405) return;
  const schema = widgetAnswerSchema(method, url, status);
  if (schema === undefined) return;
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `${method} ${url} answered ${status} with a body protocol's widget API does not declare: ${JSON.stringify(json)}\n${parsed.error.message}`,
    );
  }
  if (!isDeepStrictEqual(parsed.data, json)) {
    throw new Error(
      `${method} ${url} answered ${status} with fields protocol's widget API does not declare: ${JSON.stringify(json)} (protocol keeps ${JSON.stringify(parsed.data)})`,
    );
  }
}
