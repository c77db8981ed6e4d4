/**
 * Event handlers are typed per event type (checked by `pnpm typecheck`, which covers this file) and an unknown
 * type is refused when the handler is registered, with the likely intended type.
 */
import type { MarketplaceEvent, MarketplaceEventOf } from '@domainkit/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BffOptionsError, createBff, type EventHandlerMap } from '../src/index.ts';
import { KEY_ID, SECRET } from './helpers.ts';

const marketplace = { baseUrl: 'https://marketplace.example', keyId: KEY_ID, secret: SECRET };

describe('typed event handlers', () => {
  it('bff.on("order.setled") does not compile and throws, suggesting order.settled', () => {
    const bff = createBff({ marketplace, logger: false });
    // @ts-expect-error: 'order.setled' is no event type
    expect(() => bff.on('order.setled', () => {})).toThrow(
      new TypeError(
        'bff.on("order.setled", handler): received event type `order.setled`; did you mean `order.settled`?',
      ),
    );
    // @ts-expect-error: nor is a name from another system
    expect(() => bff.on('charge.succeeded', () => {})).toThrow(/known types: order\.recorded, .*, \*$/);
    expect(bff.on('order.settled', () => {})).toBe(bff);
  });

  it('onEvent with an unknown type fails at creation with a did-you-mean', () => {
    let error: unknown;
    try {
      // @ts-expect-error: 'order.refund' is no event type
      createBff({ marketplace, logger: false, onEvent: { 'order.refund': () => {} } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BffOptionsError);
    expect((error as BffOptionsError).problems).toEqual([
      '`onEvent` received event type `order.refund`; did you mean `order.refunded`?',
    ]);
  });

  it('each handler receives its own event: data.order is required on order events, data.case on brokerage', () => {
    const handlers: EventHandlerMap = {
      'order.settled': (event) => {
        expectTypeOf(event).toEqualTypeOf<MarketplaceEventOf<'order.settled'>>();
        expectTypeOf(event.data.order.domain).toEqualTypeOf<string>(); // no `!`
        expectTypeOf(event.data.order.sale_price_cents).toEqualTypeOf<number>();
      },
      'brokerage.case_completed': (event) => {
        expectTypeOf(event.data.case.case_id).toEqualTypeOf<string>();
      },
      '*': (event) => {
        expectTypeOf(event).toEqualTypeOf<MarketplaceEvent>();
        if (event.type === 'order.refunded') expectTypeOf(event.data.order.public_id).toEqualTypeOf<string>();
      },
    };
    const bff = createBff({ marketplace, logger: false, onEvent: handlers });
    bff.on('order.transfer_completed', (event) => {
      expectTypeOf(event.type).toEqualTypeOf<'order.transfer_completed'>();
    });
    // @ts-expect-error: an order.settled event has no data.case
    bff.on('order.settled', (event) => event.data.case.case_id);
    expect(typeof bff).toBe('function');
  });
});
