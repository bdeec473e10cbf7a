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

// The types an app names (declarations: types/citypack.d.ts, generated from these modules by tsc).
/** @typedef {import('./format.js').PackErrorCode} PackErrorCode */
/** @typedef {import('./format.js').ResponseLike} ResponseLike */
/** @typedef {import('./format.js').FetchLike} FetchLike */
/** @typedef {import('./format.js').SignatureOptions} SignatureOptions */
/** @typedef {import('./format.js').SignatureState} SignatureState */
/** @typedef {import('./format.js').WebChunk} WebChunk */
/** @typedef {import('./format.js').WebPart} WebPart */
/** @typedef {import('./format.js').WebFile} WebFile */
/** @typedef {import('./format.js').Manifest} Manifest */
/** @typedef {import('./pack.js').OpenOptions} OpenOptions */
/** @typedef {import('./pack.js').Stop} Stop */
/** @typedef {import('./places.js').Place} Place */
/** @typedef {import('./places.js').Box} Box */
/** @typedef {import('./places.js').NearbyOptions} NearbyOptions */
/** @typedef {import('./places.js').ListingOptions} ListingOptions */
/** @typedef {import('./search.js').SearchOptions} SearchOptions */
/** @typedef {import('./editorial.js').Card} Card */
/** @typedef {import('./editorial.js').Situation} Situation */
/** @typedef {import('./editorial.js').Action} Action */
/** @typedef {import('./editorial.js').Waypoint} Waypoint */
/** @typedef {import('./editorial.js').Route} Route */
/** @typedef {import('./stop-names.js').StopNameMatch} StopNameMatch */
/** @typedef {import('./timetable.js').Departure} Departure */
/** @typedef {import('./timetable.js').TimetableCoverage} TimetableCoverage */
/** @typedef {import('./journey-json.js').JourneyPlace} JourneyPlace */
/** @typedef {import('./journey-json.js').JourneyLeg} JourneyLeg */
/** @typedef {import('./journey-json.js').Journey} Journey */
/** @typedef {import('./journey-json.js').JourneyOptions} JourneyOptions */
/** @typedef {import('./journey-json.js').JourneyLookup} JourneyLookup */
