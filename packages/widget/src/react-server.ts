/**
 * What `@domainkit/widget`, `@domainkit/widget/domain-search.js` and `@domainkit/widget/buy-button.js` resolve to in
 * a React Server Component (the `react-server` export condition, which Next.js App Router and other RSC bundlers set
 * for server code). Those entries define the `dk-*` elements in the browser, and a server component's code never
 * runs there: the import would succeed and leave `<dk-domain-search>` an unknown, inert tag. So it throws at once,
 * at build (or render) time, saying where the import belongs, as React's `client-only` package does.
 *
 * @throws Error - always, on evaluation.
 */
throw new Error(
  '@domainkit/widget defines its elements in the browser, and a React Server Component never runs there, so ' +
    '<dk-domain-search> and <dk-buy-button> would stay undefined. Import @domainkit/widget from a Client Component ' +
    "(a file that starts with 'use client'), or render <DomainSearch> and <BuyButton> from " +
    '@domainkit/widget/react, which is one. See the widget\'s README, "React Server Components".',
);
