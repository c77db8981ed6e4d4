// The mistake: a React Server Component importing the element registration. Its code never runs in the browser,
// so the element would stay undefined there; the import must fail the build instead, saying why.
import '@domainkit/widget';

export default function Page() {
  return <dk-domain-search api="/dk"></dk-domain-search>;
}
