/**
 * The widget asks `/dk`, on the page's own origin; the partner's BFF answers there. Here the test's BFF runs
 * elsewhere (`DOMAINKIT_BFF_URL`), so Next.js proxies `/dk/*` to it, as a partner's edge would.
 */
export default {
  async rewrites() {
    const bff = process.env.DOMAINKIT_BFF_URL;
    return bff ? [{ source: '/dk/:path*', destination: `${bff}/:path*` }] : [];
  },
};
