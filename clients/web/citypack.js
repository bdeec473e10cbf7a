// CityPack web reader: opens the web flavour of a pack (outputs/<city>/web/, listed in manifest.json) and answers
// nearby, search, cards, routes, strings and departures with the same results as the Swift reader (CityPackKit).
// ES modules with no dependencies; run in browsers and in Node 20. See docs/WEB.md.
//
//   import { openPack } from './citypack.js';
//   const pack = await openPack(fetch, 'outputs/vaduz/manifest.json', { publicKey: 'base64…' });
//   pack.nearby(47.141, 9.5209, 25);            // [{id, kind, osm, name, category, lat, lon, distance_m}, …]
//   pack.search('toilet', 'de');
//   pack.departures('11515', '2014-10-20', '07:45', 5);
//
// This module is the package's entry (`@citypack/web`): what an app uses. The work is done by the modules of each
// job (pack.js, places.js, proximity.js, search.js, tokens.js, editorial.js, timetable.js, journeys.js, format.js);
// what tools and tests use besides is exported by internal.js (`@citypack/web/internal`).

export { WEB_FORMAT } from './constants.js';
export { PackError, verifySignature, webFiles } from './format.js';
export { CityPack, openPack } from './pack.js';
export { DEFAULT_LISTING_LIMIT, DEFAULT_NEARBY_LIMIT, DEFAULT_SEARCH_LIMIT, distance, geohash } from './proximity.js';
