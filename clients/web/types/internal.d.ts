export { packFromParts } from "./pack.js";
export { geohashCell } from "./proximity.js";
export { decodePatterns } from "./timetable.js";
export { ROW_CHUNKING, SEARCH_FOLDS } from "./constants.js";
export { canonicalJSON, reencodingHint, sha256 } from "./format.js";
export { cjkBigrams, foldToken, searchFold, searchWords, unicode61Tokens } from "./tokens.js";
