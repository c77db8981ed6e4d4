/**
 * `<dk-console-events>`: the marketplace's event history (Partner API spec 4.1 `GET /events`, paged by `after_id`),
 * each event with its delivery as this BFF received it (when, signature verified, duplicates), for operators.
 *
 * @summary Event history with deliveries.
 * @event dk-console-error - a call failed.
 * @csspart view - the section.  @csspart table - the events table.
 */
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { DkConsoleView } from '../base.ts';
import { codeText } from '../labels.ts';
import { listTable, moreButton } from '../table.ts';

/** An event with its delivery as the BFF received it (null when it never arrived). */
export interface ConsoleEvent {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
  readonly data?: { order?: { public_id?: string; domain?: string; status?: string } } & Record<string, unknown>;
  readonly delivery?: {
    readonly received_at: string;
    /** The BFF inbox's state of it: `pending`, `done` or `failed`. */
    readonly state: string;
    readonly attempts: number;
    readonly handled_at?: string | null;
    readonly last_error?: string | null;
  } | null;
}

/** The events view. */
export class DkConsoleEvents extends DkConsoleView {
  static override properties: PropertyDeclarations = {
    ...DkConsoleView.properties,
    events: { state: true },
    nextCursor: { state: true },
  };
  declare protected events: ConsoleEvent[] | undefined;
  declare protected nextCursor: string | null;

  protected get heading(): string {
    return this.t.events;
  }
  protected hasData(): boolean {
    return this.events !== undefined;
  }

  protected async load(): Promise<void> {
    const page = await this.session.get<{ events: ConsoleEvent[]; next_cursor?: string | null }>('/events', {
      limit: 50,
    });
    this.events = page.events;
    this.nextCursor = page.next_cursor ?? null;
  }

  async #more(): Promise<void> {
    if (!this.nextCursor) return;
    try {
      const page = await this.session.get<{ events: ConsoleEvent[]; next_cursor?: string | null }>('/events', {
        after_id: this.nextCursor,
        limit: 50,
      });
      this.events = [...(this.events ?? []), ...page.events];
      this.nextCursor = page.events.length ? (page.next_cursor ?? null) : null;
    } catch (error) {
      this.fail(error);
    }
  }

  #subject(event: ConsoleEvent): string {
    const order = event.data?.order;
    if (order) return [order.public_id, order.domain, order.status].filter(Boolean).join(' · ');
    const domain = (event.data as { domain?: unknown } | undefined)?.domain;
    return typeof domain === 'string' ? domain : '';
  }

  protected renderBody(): TemplateResult {
    const t = this.t;
    return html`${listTable({
      part: 'table',
      caption: t.events,
      columns: [{ label: t.created }, { label: t.event }, { label: t.order }, { label: t.delivery }],
      items: this.events,
      row: (e) => html`<tr data-event=${e.id}>
                  <td>${this.dateTime(e.created_at)}</td>
                  <td><code>${e.type}</code><br /><span class="muted"><bdi>${e.id}</bdi></span></td>
                  <td><bdi>${this.#subject(e)}</bdi></td>
                  <td>
                    ${
                      e.delivery?.received_at
                        ? html`${this.dateTime(e.delivery.received_at)}${html` <span class="badge">${codeText(t.deliveryStates, e.delivery.state)}</span>${
                            e.delivery.last_error
                              ? html`<br /><span class="muted">${e.delivery.last_error}</span>`
                              : nothing
                          }`}`
                        : html`<span class="muted">${t.notDelivered}</span>`
                    }
                  </td>
                </tr>`,
      empty: t.empty,
    })}
    ${moreButton(this.nextCursor, t.loadMore, () => this.#more())}`;
  }
}
