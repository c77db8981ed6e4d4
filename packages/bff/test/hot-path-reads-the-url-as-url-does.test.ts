import { describe, expect, it } from 'vitest';
import { pathAndQuery } from '../src/http/serve.ts';

// The hot path reads a request's path and query off `request.url` without parsing it: for every URL a `Request`
// can carry, it must read what `new URL()` reads, or a cached search would be served for the wrong path or query.
describe('pathAndQuery', () => {
  const urls = [
    'http://localhost/dk/search?q=coffee',
    'https://shop.example:8443/dk/search?q=caf%C3%A9&x=1',
    'http://127.0.0.1:8080/',
    'http://[::1]:3000/dk/search?',
    'http://localhost/dk/search?q=a?b#frag',
    'http://localhost/dk/a%2Fb/../search?q=%20',
    'http://localhost/dk/search?q=%2F%3F%23&r=/x',
    'http://localhost/dk//search?q=%',
    'http://localhost',
    'http://localhost?q=1',
    'http://localhost/#only-a-fragment',
  ];
  for (const given of urls) {
    it(`reads ${given} as URL does`, () => {
      const url = new Request(given).url;
      const parsed = new URL(url);
      expect(pathAndQuery(url)).toEqual([parsed.pathname, parsed.search.slice(1)]);
    });
  }
});
