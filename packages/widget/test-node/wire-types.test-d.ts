/**
 * The widget's hand-written wire types (`src/types.ts`) are the widget ↔ BFF API of `@domainkit/protocol`
 * (`schemas/widget-api.ts`), which the BFF answers with. The widget cannot import protocol at run time, so this
 * type-level test (vitest typecheck mode) pins each of its types to protocol's: a field added, removed, renamed,
 * made nullable or retyped on either side fails here.
 */
import type {
  Buyer as ProtocolBuyer,
  WidgetBrokerageCase as ProtocolWidgetBrokerageCase,
  WidgetBrokerageEligibility as ProtocolWidgetBrokerageEligibility,
  WidgetCheckoutResponse,
  WidgetCheckoutReturnResponse,
  WidgetDomain as ProtocolWidgetDomain,
  WidgetError,
  WidgetErrorCode as ProtocolWidgetErrorCode,
  WidgetExactDomain,
  WidgetOrderRequest,
  WidgetOrderResponse as ProtocolWidgetOrderResponse,
  WidgetOrderStatus as ProtocolWidgetOrderStatus,
  WidgetQuoteAnswer as ProtocolWidgetQuoteAnswer,
  WidgetQuoteResponse as ProtocolWidgetQuoteResponse,
  WidgetSearchResponse,
  WidgetSibling,
} from '@domainkit/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  BffErrorBody,
  Buyer,
  CheckoutSession,
  ExactDomain,
  WidgetDomain,
  WidgetOrderResponse,
  OrderDetails,
  WidgetOrderStatus,
  WidgetQuoteAnswer,
  WidgetQuoteResponse,
  SearchResponse,
  Sibling,
  WidgetErrorCode,
  WidgetBrokerageCase,
  WidgetBrokerageEligibility,
} from '../src/types.ts';
import type { CheckoutResult } from '../src/api.ts';

/** The widget reads answers as read-only: protocol's `z.infer` types, every property and array made readonly. */
type ReadOnlyWire<T> = T extends readonly (infer U)[]
  ? readonly ReadOnlyWire<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadOnlyWire<T[K]> }
    : T;

describe("the widget's wire types equal protocol's widget ↔ BFF API", () => {
  it('GET /search', () => {
    expectTypeOf<WidgetDomain>().toEqualTypeOf<ReadOnlyWire<ProtocolWidgetDomain>>();
    expectTypeOf<SearchResponse>().toEqualTypeOf<ReadOnlyWire<WidgetSearchResponse>>();
  });

  it('GET /siblings', () => {
    expectTypeOf<Sibling>().toEqualTypeOf<ReadOnlyWire<WidgetSibling>>();
    expectTypeOf<ExactDomain>().toEqualTypeOf<ReadOnlyWire<WidgetExactDomain>>();
  });

  it('POST /checkout', () => {
    expectTypeOf<CheckoutSession>().toEqualTypeOf<ReadOnlyWire<WidgetCheckoutResponse>>();
  });

  it('GET /checkout/return', () => {
    expectTypeOf<CheckoutResult>().toEqualTypeOf<ReadOnlyWire<WidgetCheckoutReturnResponse>>();
  });

  it('GET /brokerage/eligibility and POST /brokerage', () => {
    expectTypeOf<WidgetBrokerageEligibility>().toEqualTypeOf<ReadOnlyWire<ProtocolWidgetBrokerageEligibility>>();
    expectTypeOf<WidgetBrokerageCase>().toEqualTypeOf<ReadOnlyWire<ProtocolWidgetBrokerageCase>>();
  });

  it('error answers', () => {
    expectTypeOf<BffErrorBody>().toEqualTypeOf<ReadOnlyWire<WidgetError>>();
    // Every code the BFF may answer has its string in the widget (strings.ts), and no other.
    expectTypeOf<WidgetErrorCode>().toEqualTypeOf<ProtocolWidgetErrorCode>();
  });

  it('POST /quotes', () => {
    expectTypeOf<WidgetQuoteResponse>().toEqualTypeOf<ReadOnlyWire<ProtocolWidgetQuoteResponse>>();
    expectTypeOf<WidgetQuoteAnswer>().toEqualTypeOf<ReadOnlyWire<ProtocolWidgetQuoteAnswer>>();
  });

  it('POST /orders: the body the widget sends, and the answer', () => {
    expectTypeOf<Buyer>().toEqualTypeOf<ReadOnlyWire<ProtocolBuyer>>();
    expectTypeOf<OrderDetails>().toEqualTypeOf<ReadOnlyWire<Omit<WidgetOrderRequest, 'quote_id'>>>();
    expectTypeOf<WidgetOrderResponse>().toEqualTypeOf<ReadOnlyWire<ProtocolWidgetOrderResponse>>();
  });

  it('GET /orders/:id', () => {
    expectTypeOf<WidgetOrderStatus>().toEqualTypeOf<ReadOnlyWire<ProtocolWidgetOrderStatus>>();
  });
});
