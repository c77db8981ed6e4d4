/**
 * Entry of the script-tag build (`domainkit.min.js`): defines `<dk-domain-search>` and `<dk-buy-button>` and
 * exports nothing, to stay small. Pages that want the classes, events or helpers import the npm build.
 */
import './domain-search/domain-search.ts';
import './buy-button/buy-button.ts';
import './checkout-return/checkout-return.ts';
