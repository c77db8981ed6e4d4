/**
 * The `lit` of the script-tag build (`build-options.ts` aliases `lit` to this module there; the npm build and
 * the test suites use Lit itself, and the browser suites run a second time against this module):
 *
 * - `html`, `nothing` and rendering: lit-html, Lit's template engine, as it is;
 * - `LitElement` and `css`: the part of Lit's `ReactiveElement`/`LitElement` the widget's elements use,
 *   with the same semantics (see {@link LitElement}): reactive properties declared in `static properties`
 *   (`attribute`, `type` Number/Boolean, `reflect`, `state`), batched asynchronous updates (`requestUpdate`,
 *   `willUpdate`, `update`, `updated`, `updateComplete`), reactive controllers, and `static styles` adopted
 *   as constructable style sheets (a `<style>` element where a browser cannot adopt them, like Lit).
 *
 * What it leaves out (decorators and their metadata, custom converters, `hasChanged`, `shouldUpdate`,
 * `firstUpdated`, controllers' update hooks, async directives' connection tracking, polyfill and
 * SSR-hydration hooks, dev-mode warnings) the widget does not use. It keeps the
 * script-tag file about 2 KB smaller gzip'd, which is what lets the widget meet its 12 KB budget.
 *
 * @see https://lit.dev/docs/components/lifecycle/ (the lifecycle it follows)
 */
import { render, type RenderOptions } from 'lit/html.js';

export { html, nothing } from 'lit/html.js';

/** How a reactive property is declared in `static properties` (the subset of Lit's `PropertyDeclaration` used). */
export interface PropertyDeclaration {
  /** How the attribute's text becomes the value: `Number`, `Boolean`, or (default) the text itself. */
  readonly type?: unknown;
  /** The attribute's name; default the property name in lowercase; `false`: no attribute. */
  readonly attribute?: string | boolean;
  /** Whether a change of the value is written back to the attribute. */
  readonly reflect?: boolean;
  /** Internal state: re-renders, no attribute. */
  readonly state?: boolean;
}

/** A reactive controller: what `addController` accepts (the connection hooks of Lit's `ReactiveController`). */
export interface ReactiveController {
  hostConnected?(): void;
  hostDisconnected?(): void;
}

/** Where a browser can adopt constructable style sheets (`adoptedStyleSheets`), which a strict CSP allows. */
const adopts = (): boolean => 'adoptedStyleSheets' in Document.prototype && 'replace' in CSSStyleSheet.prototype;

/** A style sheet's text, made by {@link css}; its `CSSStyleSheet` is built once, when first adopted. */
export class CSSResult {
  readonly cssText: string;
  #sheet: CSSStyleSheet | undefined;

  constructor(cssText: string) {
    this.cssText = cssText;
  }

  get styleSheet(): CSSStyleSheet {
    if (!this.#sheet) {
      this.#sheet = new CSSStyleSheet();
      this.#sheet.replaceSync(this.cssText);
    }
    return this.#sheet;
  }
}

/** Lit's `css` tag: the text of a style sheet; values may be other `css` results or numbers. */
export const css = (strings: TemplateStringsArray, ...values: Array<CSSResult | number>): CSSResult =>
  new CSSResult(
    strings.reduce((text, string, i) => {
      const value = values[i - 1];
      return text + (value instanceof CSSResult ? value.cssText : value) + string;
    }),
  );

/** Every declared property of a class (its own and its ancestors'), with its attribute name, once per class. */
interface Finalized {
  readonly properties: Map<string, PropertyDeclaration & { key: symbol }>;
  /** Attribute name → property name. */
  readonly attributes: Map<string, string>;
  readonly styles: CSSResult[];
}
const finalized = new WeakMap<object, Finalized>();

/** The attribute of property `name`, or `undefined` when it has none. */
const attributeOf = (name: string, { attribute, state }: PropertyDeclaration): string | undefined =>
  state || attribute === false ? undefined : typeof attribute === 'string' ? attribute : name.toLowerCase();

/** Whether a value changed (Lit's `notEqual`). */
const changed = (value: unknown, old: unknown): boolean => !Object.is(value, old);

/**
 * A custom element that renders a lit-html template into its shadow root whenever one of its reactive
 * properties changes, like Lit's `LitElement` (the same lifecycle: properties set → one update per microtask →
 * `willUpdate`, `update` (reflection, then rendering), `updated`; nothing renders before the element is first
 * connected; controllers hear of connection and disconnection).
 */
export class LitElement extends HTMLElement {
  /** The reactive properties of the class. */
  declare static properties?: Record<string, PropertyDeclaration>;
  /** The styles of the class's shadow root. */
  declare static styles?: CSSResult | ReadonlyArray<CSSResult | ReadonlyArray<CSSResult>>;

  /** The class's properties, attributes and styles; prepares the class on first use (accessors included). */
  static #finalize(ctor: typeof LitElement): Finalized {
    let done = finalized.get(ctor);
    if (done) return done;
    const parent = Object.getPrototypeOf(ctor) as typeof LitElement;
    const inherited = ctor === LitElement ? undefined : LitElement.#finalize(parent);
    done = {
      properties: new Map(inherited?.properties),
      attributes: new Map(inherited?.attributes),
      styles: [...new Set([ctor.styles ?? []].flat(2).reverse())].reverse(),
    };
    if (Object.hasOwn(ctor, 'properties')) {
      for (const [name, declaration] of Object.entries(ctor.properties!)) {
        const key = Symbol(name);
        done.properties.set(name, { ...declaration, key });
        const attribute = attributeOf(name, declaration);
        if (attribute) done.attributes.set(attribute, name);
        Object.defineProperty(ctor.prototype, name, {
          get(this: Record<symbol, unknown>) {
            return this[key];
          },
          set(this: LitElement & Record<symbol, unknown>, value: unknown) {
            const old = this[key];
            this[key] = value;
            this.requestUpdate(name, old);
          },
          configurable: true,
          enumerable: true,
        });
      }
    }
    finalized.set(ctor, done);
    return done;
  }

  static get observedAttributes(): string[] {
    return [...LitElement.#finalize(this).attributes.keys()];
  }

  /** Whether an update is scheduled and not yet done. */
  isUpdatePending = false;
  /** Whether the element has rendered once. */
  hasUpdated = false;
  /** Where the element renders: its shadow root, created when it is first connected. */
  declare renderRoot: ShadowRoot;
  /** Options of lit-html's `render` (event listeners are called with the element as `this`). */
  readonly renderOptions: RenderOptions = { host: this };

  #changed = new Map<PropertyKey, unknown>();
  #controllers = new Set<ReactiveController>();
  #updatePromise: Promise<boolean>;
  #enableUpdating!: (value: boolean) => void;
  /** Values set on the instance before the element was upgraded (they shadow the accessors), re-set on the first update. */
  #early = new Map<string, unknown>();
  /** The property being set from its attribute, or written to it (so neither write echoes the other). */
  #reflecting: string | undefined;
  /** Changed properties to write to their attributes in the next update. */
  #toReflect = new Set<string>();

  constructor() {
    super();
    this.#updatePromise = new Promise((resolve) => (this.#enableUpdating = resolve));
    for (const name of LitElement.#finalize(this.constructor as typeof LitElement).properties.keys()) {
      if (Object.hasOwn(this, name)) {
        this.#early.set(name, this[name as keyof this]);
        delete this[name as keyof this];
      }
    }
    this.requestUpdate();
  }

  /** Registers a controller; it hears about connection and updates from now on. */
  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
    if (this.renderRoot !== undefined && this.isConnected) controller.hostConnected?.();
  }

  /** Creates the shadow root and adopts the class's styles into it. */
  protected createRenderRoot(): ShadowRoot {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const styles = LitElement.#finalize(this.constructor as typeof LitElement).styles;
    if (adopts()) {
      root.adoptedStyleSheets = styles.map((style) => style.styleSheet);
    } else {
      for (const style of styles) {
        const element = document.createElement('style');
        const nonce = (globalThis as { litNonce?: string }).litNonce;
        if (nonce !== undefined) element.setAttribute('nonce', nonce);
        element.textContent = style.cssText;
        root.append(element);
      }
    }
    return root;
  }

  connectedCallback(): void {
    this.renderRoot ??= this.createRenderRoot();
    this.#enableUpdating(true);
    for (const controller of this.#controllers) controller.hostConnected?.();
  }

  disconnectedCallback(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
  }

  attributeChangedCallback(attribute: string, _old: string | null, value: string | null): void {
    const { attributes, properties } = LitElement.#finalize(this.constructor as typeof LitElement);
    const name = attributes.get(attribute);
    if (name === undefined || this.#reflecting === name) return;
    const { type } = properties.get(name)!;
    this.#reflecting = name;
    (this as Record<string, unknown>)[name] = type === Boolean ? value !== null : type === Number && value !== null ? Number(value) : value;
    this.#reflecting = undefined;
  }

  /**
   * Schedules an update. With `name` (a property that was just set; `oldValue` its previous value), records
   * the change, and does nothing when the value did not change.
   */
  requestUpdate(name?: PropertyKey, oldValue?: unknown): void {
    if (name !== undefined) {
      if (!changed(this[name as keyof this], oldValue)) return;
      // Lit's rule: before the first update, every change is recorded as coming from `undefined`.
      if (!this.#changed.has(name)) this.#changed.set(name, this.hasUpdated ? oldValue : undefined);
      const declaration = LitElement.#finalize(this.constructor as typeof LitElement).properties.get(name as string);
      if (declaration?.reflect && this.#reflecting !== name) this.#toReflect.add(name as string);
    }
    if (!this.isUpdatePending) this.#updatePromise = this.#enqueueUpdate();
  }

  async #enqueueUpdate(): Promise<boolean> {
    this.isUpdatePending = true;
    try {
      await this.#updatePromise;
    } catch (error) {
      void Promise.reject(error);
    }
    this.performUpdate();
    return !this.isUpdatePending;
  }

  /** Resolves once the pending update (if any) is done: `true` when no other update was requested meanwhile. */
  get updateComplete(): Promise<boolean> {
    return this.#updatePromise;
  }

  /** Runs the update now (normally from the microtask {@link requestUpdate} scheduled). */
  protected performUpdate(): void {
    if (!this.isUpdatePending) return;
    if (!this.hasUpdated) {
      this.renderRoot ??= this.createRenderRoot();
      for (const [name, value] of this.#early) (this as Record<string, unknown>)[name] = value;
      this.#early.clear();
    }
    const changes = this.#changed;
    try {
      this.willUpdate(changes);
      this.update(changes);
    } catch (error) {
      this.#markUpdated();
      throw error;
    }
    this.hasUpdated = true;
    this.updated(changes);
  }

  #markUpdated(): void {
    this.#changed = new Map();
    this.isUpdatePending = false;
  }

  /** Before rendering: compute what `render` needs from the `changed` properties (their previous values). */
  protected willUpdate(_changed: Map<PropertyKey, unknown>): void {}

  /** Reflects the changed properties declared with `reflect`, then renders {@link render} into the shadow root. */
  protected update(changes: Map<PropertyKey, unknown>): void {
    const value = this.render();
    const { properties } = LitElement.#finalize(this.constructor as typeof LitElement);
    for (const name of this.#toReflect) {
      const declaration = properties.get(name)!;
      const attribute = attributeOf(name, declaration);
      const current = this[name as keyof this];
      const text = declaration.type === Boolean ? (current ? '' : null) : current;
      if (attribute === undefined) continue;
      this.#reflecting = name;
      if (text == null) this.removeAttribute(attribute);
      else this.setAttribute(attribute, String(text));
      this.#reflecting = undefined;
    }
    this.#toReflect.clear();
    this.#markUpdated();
    render(value, this.renderRoot, this.renderOptions);
  }

  /** After rendering (focus management and the like). */
  protected updated(_changed: Map<PropertyKey, unknown>): void {}

  /** The element's template. */
  protected render(): unknown {
    return undefined;
  }
}
