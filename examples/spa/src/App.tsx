/**
 * Nimbus Names, a React single-page app selling marketplace domains with the domainkit widget. It shows how an
 * SPA uses the two elements through their React components (`@domainkit/widget/react`): properties and typed
 * `onDk*` event props, a payment form in the search's `payment` slot for MoR order mode, and a live log of every widget event.
 */
import { formatPrice, type DkBuyButton, type DkDomainSearch, type DkMode, type OrderDetails } from '@domainkit/widget';
import { BuyButton, CheckoutReturn, DomainSearch } from '@domainkit/widget/react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';

/** One line of the event log. */
interface LogEntry {
  readonly id: number;
  readonly type: string;
  readonly detail: string;
}

/**
 * Where the hosted checkout returns the buyer (after paying or cancelling): this app, wherever it is served (the demo
 * serves it at `/spa/`; the BFF's own return URL is the other demo brand's page).
 */
const RETURN_PATH = new URL('./', document.baseURI).pathname;

/** The demo's test card: the demo BFF's test-card adapter accepts it (see the BFF's order routes). */
const TEST_CARD = '4242 4242 4242 4242';

/** The visitor's colour scheme (`prefers-color-scheme`), kept up to date. */
function useColorScheme(): 'light' | 'dark' {
  const query = '(prefers-color-scheme: dark)';
  const [dark, setDark] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const media = matchMedia(query);
    const follow = () => setDark(media.matches);
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);
  return dark ? 'dark' : 'light';
}

/** The locked price, as the `dk-quote` event gave it (minor units of `currency`). */
interface Locked {
  readonly priceCents: number;
  readonly currency: string;
}

/**
 * The SPA's payment form (MoR mode), slotted into the element whose price is locked: collects the buyer and the
 * (test) card, then asks that element to place the order. Pay says the amount; while the order is under way the
 * whole form is disabled (a `<fieldset disabled>`), so nothing can be edited or sent twice.
 */
function PaymentForm({ locked }: { locked: Locked | undefined }) {
  const [paying, setPaying] = useState(false);
  const amount = locked
    ? formatPrice(locked.priceCents, locked.currency, document.documentElement.lang || undefined)
    : '';

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const details: OrderDetails = {
      buyer: { email: String(data.get('email')), name: String(data.get('name') || '') || undefined },
      payment: { method: 'test_card', card_number: String(data.get('card_number')) },
    };
    // The element the form is slotted into holds the locked price.
    const element = form.closest<DkDomainSearch | DkBuyButton>('dk-domain-search, dk-buy-button');
    setPaying(true);
    try {
      await element?.placeOrder(details);
    } finally {
      setPaying(false);
    }
  }

  return (
    <form slot="payment" className="payment" onSubmit={pay} aria-busy={paying}>
      <fieldset disabled={paying}>
        <legend className="visually-hidden">Payment</legend>
        <label>
          Email <input name="email" type="email" autoComplete="email" required defaultValue="ada@example.com" />
        </label>
        <label>
          Name <input name="name" autoComplete="name" defaultValue="Ada Lovelace" />
        </label>
        <label>
          Card number{' '}
          {/* Card digits read left to right on a right-to-left page too (else the groups come out reversed). */}
          <input
            name="card_number"
            autoComplete="cc-number"
            inputMode="numeric"
            dir="ltr"
            required
            defaultValue={TEST_CARD}
          />
        </label>
        <button type="submit">{paying ? `Paying ${amount}…` : `Pay ${amount}`}</button>
      </fieldset>
    </form>
  );
}

/** Which element the payment form is in: the one that locked a price last (the search, until the featured button does). */
type Payer = 'search' | 'featured';

export function App() {
  const [mode, setMode] = useState<DkMode>('checkout');
  // The visitor's colour scheme, until they pick one with the switch.
  const scheme = useColorScheme();
  const [picked, setTheme] = useState<'light' | 'dark' | undefined>();
  const theme = picked ?? scheme;
  const [locked, setLocked] = useState<Locked>();
  const [log, setLog] = useState<LogEntry[]>([]);
  const [payer, setPayer] = useState<Payer>('search');
  const ids = useRef(0);

  /** Records any dk-* event in the log (newest first). */
  const record = useCallback((event: Event & { detail?: unknown }) => {
    const entry = { id: ++ids.current, type: event.type, detail: JSON.stringify(event.detail ?? null) };
    setLog((entries) => [entry, ...entries].slice(0, 50));
  }, []);

  /** A price was locked: the payment form moves into that element's `payment` slot. */
  const quoted = (by: Payer) => (event: Event & { detail: Locked }) => {
    record(event);
    setPayer(by);
    setLocked({ priceCents: event.detail.priceCents, currency: event.detail.currency });
  };

  return (
    <div className={`page ${theme}`}>
      <header className="top">
        <span className="logo" aria-hidden="true">
          ☁
        </span>
        <strong>Nimbus Names</strong>
        <span className="tagline">domains for cloud-native teams</span>
      </header>

      <main>
        <section className="hero" aria-labelledby="title">
          {/* Back from the hosted checkout (to this app: RETURN_PATH): the sale, once the BFF verified it. */}
          <CheckoutReturn api="/dk" theme={theme} />
          <h1 id="title">Name your next project</h1>
          <fieldset className="controls">
            <legend>Widget options</legend>
            <label>
              Buying flow{' '}
              <select value={mode} onChange={(e) => setMode(e.target.value as DkMode)}>
                <option value="checkout">Hosted checkout</option>
                <option value="order">We are Merchant of Record</option>
              </select>
            </label>
            <label>
              <input
                type="checkbox"
                checked={theme === 'dark'}
                onChange={(e) => setTheme(e.target.checked ? 'dark' : 'light')}
              />{' '}
              Dark theme
            </label>
          </fieldset>

          <DomainSearch
            api="/dk"
            return-path={RETURN_PATH}
            cancel-path={RETURN_PATH}
            mode={mode}
            theme={theme}
            size="large"
            placeholder="Try “cloud”, “data” or “coffee”"
            onDkSearch={record}
            onDkResults={record}
            onDkSelect={record}
            onDkCheckoutStart={record}
            onDkQuote={quoted('search')}
            onDkOrderCreated={record}
            onDkError={record}
          >
            <span slot="label">Search domains</span>
            {payer === 'search' && <PaymentForm locked={locked} />}
          </DomainSearch>
        </section>

        <section className="featured" aria-labelledby="featured-title">
          <h2 id="featured-title">Featured: coffeehouse.com</h2>
          <p>A single Buy button for one domain, in the same buying flow.</p>
          <BuyButton
            api="/dk"
            return-path={RETURN_PATH}
            cancel-path={RETURN_PATH}
            domain="coffeehouse.com"
            mode={mode}
            theme={theme}
            onDkCheckoutStart={record}
            onDkQuote={quoted('featured')}
            onDkOrderCreated={record}
            onDkError={record}
          >
            Buy coffeehouse.com
            {payer === 'featured' && <PaymentForm locked={locked} />}
          </BuyButton>
        </section>

        <section className="log" aria-labelledby="log-title">
          <h2 id="log-title">Widget events</h2>
          {log.length === 0 ? (
            <p className="empty">Type in the search box: every dk-* event the widget fires appears here.</p>
          ) : (
            <ol data-testid="event-log">
              {log.map((entry) => (
                <li key={entry.id}>
                  <code className="type">{entry.type}</code> <code className="detail">{entry.detail}</code>
                </li>
              ))}
            </ol>
          )}
        </section>
      </main>
    </div>
  );
}
