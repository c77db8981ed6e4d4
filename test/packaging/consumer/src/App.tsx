// A React 19 + TypeScript component using the widget's React components and the raw tags, typed events included.
import type { DkSelectEvent } from '@domainkit/widget';
import { BuyButton, DomainSearch } from '@domainkit/widget/react';
import { useState } from 'react';

export function App() {
  const [chosen, setChosen] = useState('');
  const select = (event: DkSelectEvent): void => setChosen(event.detail.domain);
  return (
    <main>
      <DomainSearch api="/dk" mode="order" onDkSelect={select} onDkError={(event) => console.warn(event.detail.code)} />
      <BuyButton
        api="/dk"
        domain="coffeehouse.com"
        onDkCheckoutStart={(event) => console.log(event.detail.checkoutUrl)}
      />
      <dk-domain-search api="/dk" ondk-results={(event) => console.log(event.detail.results.length)} />
      <p>{chosen}</p>
      {/* @ts-expect-error: a dk-select detail has no checkoutUrl */}
      <DomainSearch onDkSelect={(event) => event.detail.checkoutUrl} />
      {/* @ts-expect-error: mode is 'checkout' or 'order' */}
      <BuyButton mode="mor" />
    </main>
  );
}
