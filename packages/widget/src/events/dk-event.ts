/** The base of every `dk-*` event: bubbles and is composed (crosses shadow roots), with a typed `detail`. */
export class DkEvent<T> extends Event {
  /** What happened; see each event's detail interface. */
  readonly detail: T;

  constructor(type: string, detail: T, cancelable = false) {
    super(type, { bubbles: true, composed: true, cancelable });
    this.detail = detail;
  }
}
