/**
 * The base of every `dk-*` event: bubbles and is composed (crosses shadow roots), with a typed `detail`.
 * Each subclass names its event in `static type` (and says whether it is `cancelable`).
 */
export class DkEvent<T> extends Event {
  /** The event's name, e.g. `dk-select`. */
  declare static readonly type: string;
  /** Whether `preventDefault()` cancels the element's default action. */
  static readonly cancelable: boolean = false;
  /** What happened; see each event's detail interface. */
  declare readonly detail: T;

  constructor(detail: T) {
    const { type, cancelable } = new.target as typeof DkEvent;
    super(type, { bubbles: true, composed: true, cancelable });
    this.detail = detail;
  }
}
