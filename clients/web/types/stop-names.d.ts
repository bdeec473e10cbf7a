/**
 * `text` folded as Foundation folds it case- and diacritic-insensitively (CFStringFold), in NFC.
 * @param {string} text
 * @returns {string}
 */
export function foldName(text: string): string;
/**
 * A name as compared (Swift `PackReader.nameKey`): folded like search (case, diacritics, SearchFold), whitespace
 * and punctuation collapsed to single spaces, none at either end.
 * @param {string} text
 * @param {(text: string) => string} searchFold SearchFold (citypack.js `searchFold`)
 */
export function nameKey(text: string, searchFold: (text: string) => string): string;
/** @typedef {import('./places.js').Place} Place */
/**
 * What a typed stop name names as a journey's end (`pack.stopsNamed`, Swift `stops(named:locale:)`): one station
 * (standing for its platforms) or stop; same-named stops side by side without a station (the point between
 * them); several places (stations first, then by name and id); or none. `endpoint` is what `journeys()` takes.
 * @typedef {{kind: 'stop', stop: Place, endpoint: string | null}
 *   | {kind: 'place', name: string, lat: number, lon: number, stops: Place[], endpoint: string}
 *   | {kind: 'ambiguous', candidates: Place[], endpoint: null}
 *   | {kind: 'none', endpoint: null}} StopNameMatch
 */
/** @typedef {{stop: Place, key: string, station: boolean}} Candidate */
/**
 * The stop or station a name means (Swift `stops(named:locale:)`), through search over the stops' names (any
 * locale; case, diacritics and SearchFold ignored). Names equal to the text win over names that only contain it;
 * a station stands for the same-named stops around it (its platforms); same-named stops side by side without a
 * station are one place; distinct places are ambiguous.
 * @param {string} text what the person typed
 * @param {{search: (text: string) => Place[], stop: (stopId: string) => Place | null,
 *   distance: (lat1: number, lon1: number, lat2: number, lon2: number) => number,
 *   searchFold: (text: string) => string}} reader search: every result of a name query (NAME_SEARCH_LIMIT) in the
 *   locale; stop: a stop by stop_id as search gives it, in the locale
 * @returns {StopNameMatch} endpoint: what CityPack.journeys takes (a stop_id, or `lat,lon`)
 */
export function stopsNamed(text: string, reader: {
    search: (text: string) => Place[];
    stop: (stopId: string) => Place | null;
    distance: (lat1: number, lon1: number, lat2: number, lon2: number) => number;
    searchFold: (text: string) => string;
}): StopNameMatch;
/** Stops of one name closer than this (metres) are one place: platforms, the two sides of a street (Swift `sameStopMetres`). */
export const SAME_STOP_METRES: 400;
/** How many search results a name is resolved from (Swift: `search(text, locale:, limit: 100_000)`). */
export const NAME_SEARCH_LIMIT: 100000;
export type Place = import('./places.js').Place;
/**
 * What a typed stop name names as a journey's end (`pack.stopsNamed`, Swift `stops(named:locale:)`): one station
 * (standing for its platforms) or stop; same-named stops side by side without a station (the point between
 * them); several places (stations first, then by name and id); or none. `endpoint` is what `journeys()` takes.
 */
export type StopNameMatch = {
    kind: 'stop';
    stop: Place;
    endpoint: string | null;
} | {
    kind: 'place';
    name: string;
    lat: number;
    lon: number;
    stops: Place[];
    endpoint: string;
} | {
    kind: 'ambiguous';
    candidates: Place[];
    endpoint: null;
} | {
    kind: 'none';
    endpoint: null;
};
export type Candidate = {
    stop: Place;
    key: string;
    station: boolean;
};
