// A React Server Component (no 'use client' here): it renders the widget's React component, which is a Client
// Component, so the element is defined in the browser.
import { DomainSearch } from '@domainkit/widget/react';

export default function Page() {
  return (
    <main>
      <h1>Find a domain</h1>
      <DomainSearch api="/dk" label="Search domains" />
    </main>
  );
}
