/**
 * JSX typings for React 19: `<dk-domain-search>` and `<dk-buy-button>` with their properties and their
 * `dk-*` events as `on<event-name>` props (React 19 adds a listener for the event named after `on`, e.g.
 * `ondk-select` listens to `dk-select`). Opt in once from any file of the app:
 *
 * ```ts
 * import type {} from '@domainkit/widget/react';
 * ```
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { DkBuyButton } from '../buy-button/buy-button.component.ts';
import type { DkDomainSearch } from '../domain-search/domain-search.component.ts';
import type {
  DkBuyButtonEvents,
  DkBuyButtonProps,
  DkDomainSearchEvents,
  DkDomainSearchProps,
} from './element-types.ts';

/** `on<event>` props for an event map. */
type ReactEvents<Events> = { [K in keyof Events & string as `on${K}`]?: (event: Events[K]) => void };

/** Everything a JSX tag of element `E` accepts. */
type Tag<E extends HTMLElement, Props, Events> = DetailedHTMLProps<HTMLAttributes<E>, E> & Props & ReactEvents<Events>;

/** What the raw `<dk-domain-search>` JSX tag accepts. */
export type DkDomainSearchTag = Tag<DkDomainSearch, DkDomainSearchProps, DkDomainSearchEvents>;
/** What the raw `<dk-buy-button>` JSX tag accepts. */
export type DkBuyButtonTag = Tag<DkBuyButton, DkBuyButtonProps, DkBuyButtonEvents>;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's JSX typings live in this namespace.
  namespace JSX {
    interface IntrinsicElements {
      'dk-domain-search': DkDomainSearchTag;
      'dk-buy-button': DkBuyButtonTag;
    }
  }
}
