// What tools and tests of the CityPack web reader use beyond the app's API (`@citypack/web/internal`): the
// constants shared with the Swift writer, the search text folding, packs from parts at hand, the pieces of the
// format's verification. Not a stable API: apps import citypack.js and library.js.

export { ROW_CHUNKING, SEARCH_FOLDS } from './constants.js';
export { canonicalJSON, reencodingHint, sha256 } from './format.js';
export { packFromParts } from './pack.js';
export { geohashCell } from './proximity.js';
export { decodePatterns } from './timetable.js';
export { cjkBigrams, foldToken, searchFold, searchWords, unicode61Tokens } from './tokens.js';
