/** Test fixtures: fresh elements in a fresh container, removed after each test. */
import type { DkBuyButton } from '../buy-button/buy-button.component.ts';
import type { DkDomainSearch } from '../domain-search/domain-search.component.ts';

const containers: HTMLElement[] = [];

/** Creates `tag` with `attributes` in a new container in the document and waits for its first render. */
export async function fixture<K extends 'dk-domain-search' | 'dk-buy-button'>(
  tag: K,
  attributes: Record<string, string> = {},
): Promise<HTMLElementTagNameMap[K]> {
  const container = document.createElement('div');
  containers.push(container);
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  container.append(element);
  document.body.append(container);
  await (element as DkDomainSearch | DkBuyButton).updateComplete;
  return element;
}

/** Removes every fixture of the test. */
export function cleanup(): void {
  for (const container of containers.splice(0)) container.remove();
}

/** The first element matching `selector` in `element`'s shadow root; fails the test when there is none. */
export function part<E extends Element = HTMLElement>(element: Element, selector: string): E {
  const found = element.shadowRoot?.querySelector<E>(selector);
  if (!found) throw new Error(`no ${selector} in <${element.localName}>'s shadow root`);
  return found;
}

/** Types `text` into `<dk-domain-search>`'s input the way a visitor's keystroke does (an `input` event). */
export function type(search: DkDomainSearch, text: string): void {
  const input = part<HTMLInputElement>(search, '[part="input"]');
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' }));
}

const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Lets an answered fetch run to completion: reading a `Response` body and updating the element take a few
 * tasks. Used before asserting that something did NOT change.
 */
export async function settle(element: DkDomainSearch | DkBuyButton): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await nextTask();
    await element.updateComplete;
  }
}

/** Waits (task by task, at most 500 tasks) until `condition()` holds; fails naming `what` otherwise. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await nextTask();
  }
  throw new Error(`gave up waiting until ${what}`);
}

/** Waits until `<dk-domain-search>` reports `state` as its `data-state`, then for its render. */
export async function untilState(search: DkDomainSearch, state: string): Promise<void> {
  await until(() => search.dataset.state === state, `data-state is "${state}" (it is "${search.dataset.state}")`);
  await search.updateComplete;
}

/** Resolves with the next `type` event reaching `target`. */
export function nextEvent<K extends keyof GlobalEventHandlersEventMap>(
  target: EventTarget,
  type: K,
): Promise<GlobalEventHandlersEventMap[K]> {
  return new Promise((resolve) =>
    target.addEventListener(type, (event) => resolve(event as GlobalEventHandlersEventMap[K]), { once: true }),
  );
}

/** Waits `ms` milliseconds (only to show that something does NOT happen within a debounce). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Text content with template whitespace collapsed (ASCII only: prices contain no-break spaces). */
export const text = (element: Element | null | undefined): string =>
  element?.textContent?.replace(/[ \t\r\n]+/g, ' ').trim() ?? '';

/** The result rows of `<dk-domain-search>`. */
export const rows = (search: DkDomainSearch): HTMLElement[] => [
  ...search.shadowRoot!.querySelectorAll<HTMLElement>('[part="option"]'),
];

/** Waits until an element reports purchase phase `phase` as its `data-purchase`, then for its render. */
export async function untilPurchase(element: DkDomainSearch | DkBuyButton, phase: string): Promise<void> {
  await until(
    () => element.dataset.purchase === phase,
    `data-purchase is "${phase}" (it is "${element.dataset.purchase}")`,
  );
  await element.updateComplete;
}
