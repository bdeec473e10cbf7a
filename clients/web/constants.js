// The constants the JS reader shares with the Swift format: the block between the marks is generated from Swift
// (`WebFlavour.javaScriptConstants`; Tests/CityPackFormatTests/WebConstantsTests.swift compares it, and
// `RECORD_GOLDENS=1` rewrites it). Do not edit the block by hand.

// <generated: WebFlavour.javaScriptConstants>
/** Web format version this reader understands (manifest `web.format` and each part's `format`). */
export const WEB_FORMAT = 2;

const EARTH_RADIUS = 6371008.8; // metres, GreatCircle.earthRadius
const COVER_CELLS = 4; // ProximityIndex.coverCells
const PAD_DEGREES = 1e-07; // GeohashCover.padDegrees
const GEOHASH_ALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz'; // Geohash.alphabet
/** How the writer cuts the places rows into chunks (WebFlavour.rowChunk*; docs/WEB.md), for tools and tests. */
export const ROW_CHUNKING = { minBytes: 1000, maxBytes: 2500, divisor: 4, rowBytes: 80 };
/** Letters users type without → what they type instead (SearchFold.table): folded in the index and in queries. */
export const SEARCH_FOLDS = { ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ð: 'd', Ð: 'd', ł: 'l', Ł: 'l', þ: 'th', Þ: 'th', ı: 'i', ħ: 'h', Ħ: 'h', ŧ: 't', Ŧ: 't', ĳ: 'ij', Ĳ: 'ij', ﬁ: 'fi', ﬂ: 'fl' };

/** Radius of `nearby`, metres (ReaderDefaults.nearbyRadiusMetres). */
export const DEFAULT_RADIUS = 25;
/** Results `search` returns when no limit is given (ReaderDefaults.searchLimit). */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Results `nearby` returns when no limit is given (ReaderDefaults.nearbyLimit). */
export const DEFAULT_NEARBY_LIMIT = 50;
/** Places `places(box)` returns when no limit is given (ReaderDefaults.listingLimit). */
export const DEFAULT_LISTING_LIMIT = 1000;
/** Departures `departures` returns when no limit is given (ReaderDefaults.departuresLimit). */
export const DEFAULT_DEPARTURES_LIMIT = 10;
const FIRST_RING_METRES = 250; // ReaderDefaults.firstRingMetres
/** Journey options when none are given (ReaderDefaults, TransitWalking.speed). */
export const JOURNEY_DEFAULTS = Object.freeze({ maxTransfers: 5, walkSpeed: 1.25, maxWalkMetres: 800, minChangeSeconds: 60, wheelchair: false });
const INF = 1073741823; // ReaderDefaults.unreachedSeconds
const DETOUR = 1.3; // TransitWalking.detour
// </generated>

export { COVER_CELLS, DETOUR, EARTH_RADIUS, FIRST_RING_METRES, GEOHASH_ALPHABET, INF, PAD_DEGREES };
