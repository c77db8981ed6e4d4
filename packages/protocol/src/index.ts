/**
 * @domainkit/protocol: the marketplace wire contract (spec sections 2, 5, 7, 8). No I/O.
 */
export * from './headers.ts';
export * from './request-id.ts';
export * from './limits.ts';
export * from './errors.ts';
export * from './defects.ts';
export * from './canonical-request.ts';
export * from './sign.ts';
export * from './verify.ts';
export * from './webhook-signature.ts';
export * from './checkout-return.ts';
export * from './schemas/common.ts';
export * from './schemas/input-policy.ts';
export * from './schemas/discovery.ts';
export * from './schemas/checkout.ts';
export * from './schemas/widget-api.ts';
export * from './schemas/widget-brokerage.ts';
export * from './schemas/lists.ts';
export * from './schemas/orders.ts';
export * from './schemas/events.ts';
export * from './schemas/reporting.ts';
export * from './schemas/console-api.ts';
export * from './schemas/public/index.ts';
export * from './operations.ts';
export { buildPartnerApiDocument } from './openapi/partner-api.ts';
