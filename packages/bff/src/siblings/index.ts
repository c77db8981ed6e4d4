/**
 * The siblings feature (`GET /siblings?q=`): the visitor's word under other TLDs, read anonymously through the
 * marketplace's Public API and cached like searches. The entry every other module of the BFF imports it through.
 */
export {
  resolveSiblings,
  resolveSiblingsCache,
  siblingsOptionsShape,
  siblingsProblem,
  type SiblingsOptions,
} from './options.ts';
export {
  exactDomain,
  siblingsFeature,
  siblingsRoute,
  siblingLabel,
  toExactDomain,
  toWidgetSiblings,
  type SiblingsDeps,
} from './route.ts';
