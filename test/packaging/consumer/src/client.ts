// A Node script on the Partner API client (run with `node src/client.ts`): prints the first search result.
import { MarketplaceError, PartnerClient } from '@domainkit/client';

const client = new PartnerClient({
  baseUrl: process.env.DOMAINKIT_API_BASE_URL ?? '',
  keyId: process.env.DOMAINKIT_KEY_ID ?? '',
  secret: process.env.DOMAINKIT_API_SECRET ?? '',
});
try {
  const { domains } = await client.searchDomains('coffee');
  console.log(JSON.stringify(domains[0]));
} catch (error) {
  if (error instanceof MarketplaceError) console.error(error.code, error.message);
  process.exitCode = 1;
}
