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
// </generated>

export { COVER_CELLS, EARTH_RADIUS, GEOHASH_ALPHABET, PAD_DEGREES };
