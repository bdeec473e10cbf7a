/** @typedef {import('./pack.js').CityPack} CityPack */
/**
 * A POI or stop row, as `citypack query --format json` prints it.
 * @typedef {object} Place
 * @property {number} id
 * @property {'poi'|'stop'} kind
 * @property {string} [osm]
 * @property {string} [stop_id]
 * @property {string} name Never empty: an unnamed place has its category's label in the locale (then `named` is false).
 * @property {boolean} named
 * @property {string} category The main category (the first of `categories`).
 * @property {string[]} categories Every category the place is, main first (a pub with Wi-Fi: ["bar", "wifi"]).
 * @property {string[]} [also] The categories after the main one; absent when none.
 * @property {string} [wheelchair] OSM `wheelchair` (yes, limited, no); absent when unknown.
 * @property {number} [linked_id] The other id of a GTFS stop and OSM feature of the same place (one result).
 * @property {number} lat
 * @property {number} lon
 * @property {number} [distance_m] Metres, when a position is given (nearby, search near a point).
 * @property {string} [opening_hours] OSM `opening_hours` as in the source; absent when none.
 * @property {'open'|'closed'|'unknown'} open At `openAt`, else now, in the city's time zone: 'unknown' without
 *   readable hours or when a holiday decides.
 * @property {string} [next_change] When `open` changes: ISO 8601 local minute with the offset; absent when unknown
 *   or beyond the horizon.
 */
/** @typedef {{minLon: number, minLat: number, maxLon: number, maxLat: number}} Box A bounding box in degrees (minLon > maxLon crosses the antimeridian). */
/**
 * Options of `nearby`: limit (default DEFAULT_NEARBY_LIMIT), offset for paging, locale of the display names,
 * category (an id) to keep, openAt to keep only the places open then.
 * @typedef {{limit?: number, offset?: number, locale?: string, category?: string, openAt?: Date|number}} NearbyOptions
 */
/** @typedef {{category?: string, limit?: number, offset?: number, locale?: string}} ListingOptions Options of `places(box)` (limit default DEFAULT_LISTING_LIMIT). */
/**
 * The places part as `loadPlaces` takes it (the layout `packFromParts` accepts).
 * @typedef {object} PlacesColumns
 * @property {number} [format]
 * @property {string} [city]
 * @property {string} [defaultLocale]
 * @property {string[]} [locales]
 * @property {number} precision
 * @property {string[]} cells geohash cells, ascending
 * @property {number[]} counts rows per cell
 * @property {number[]} id
 * @property {number[]} lat
 * @property {number[]} lon
 * @property {string[]} osm
 * @property {string[]} category
 * @property {(string|null)[]} name
 * @property {Record<string, string>[]} names
 * @property {Record<string, string>[]} tags
 * @property {(string|null)[]} stopId
 * @property {(string|null)[]} [wheelchair]
 * @property {(string|null)[]} [hours]
 * @property {Record<string, string[]>} [also]
 * @property {(string|null)[]} tokens
 * @property {(string|number)[]} terms
 * @property {Record<string, Record<string, string>>} [labels]
 * @property {Record<string, number>} [links]
 * @property {Record<string, number>} [groups]
 */
/**
 * The loaded places part: the columns, the proximity index (`cells`, `ids`, `lats`, `lons`) and lookups.
 * @typedef {object} PlacesPart
 * @property {number} precision
 * @property {string[] | undefined} locales
 * @property {Float64Array} cells
 * @property {Float64Array} ids
 * @property {Float64Array} lats
 * @property {Float64Array} lons
 * @property {number[]} id
 * @property {number[]} lat
 * @property {number[]} lon
 * @property {string[]} osm
 * @property {string[]} category
 * @property {(string|null)[]} name
 * @property {Record<string, string>[]} names
 * @property {Record<string, string>[]} tags
 * @property {(string|null)[]} stopId
 * @property {(string|null)[]} wheelchair
 * @property {(string|null)[]} hours
 * @property {Record<string, string[]>} also
 * @property {(string|null)[]} tokens
 * @property {(string|number)[]} terms
 * @property {Record<string, Record<string, string>>} labels
 * @property {Map<number, number>} links
 * @property {Map<number, number>} groups
 * @property {Map<string, import('./proximity.js').PointIndex>} byCategory
 * @property {Map<number, number>} rowOf
 */
/**
 * The places part from its head and row chunks (web format 2), as the columns `loadPlaces` takes (the layout
 * `packFromParts` accepts): cells from each indexed row's coordinates (the same exact grid as Swift's
 * `Geohash`), OSM refs from ids, categories and tag keys from the head's tables. The chunks' search columns
 * (`tokens`, `terms`) are kept for the search part.
 * @param {any} head the part's head file (columns, categories, tag keys, labels)
 * @param {unknown[][]} chunks each row chunk's columns
 * @returns {PlacesColumns}
 */
export function assemblePlaces(head: any, chunks: unknown[][]): PlacesColumns;
/**
 * @param {PlacesColumns} json
 * @returns {PlacesPart}
 */
export function loadPlaces(json: PlacesColumns): PlacesPart;
/**
 * A places row (`i`) as the CLI's JSON prints it, with its distance (metres, or null) and open state at `at`.
 * @param {CityPack} pack
 * @param {PlacesPart} places
 * @param {number} i
 * @param {string | undefined} locale
 * @param {number | null} dist
 * @param {number} [at] UTC milliseconds
 * @returns {Place}
 */
export function placeRow(pack: CityPack, places: PlacesPart, i: number, locale: string | undefined, dist: number | null, at?: number | undefined): Place;
/**
 * A category's label: the locale, shorter prefixes of its tag, the default locale, English, else the id.
 * @param {CityPack} pack
 * @param {PlacesPart} places
 * @param {string} category
 * @param {string | undefined} locale
 * @returns {string}
 */
export function label(pack: CityPack, places: PlacesPart, category: string, locale: string | undefined): string;
/**
 * The rows of `ids` (those in the part), in order.
 * @param {CityPack} pack
 * @param {PlacesPart} places
 * @param {number[]} ids
 * @param {string | undefined} locale
 * @param {Map<number, number> | null} distances
 * @param {number} [at]
 * @returns {Place[]}
 */
export function rows(pack: CityPack, places: PlacesPart, ids: number[], locale: string | undefined, distances: Map<number, number> | null, at?: number | undefined): Place[];
/**
 * The instant of an `openAt` option (a Date or UTC milliseconds), or undefined.
 * @param {Date | number | undefined | null} value
 * @returns {number | undefined}
 */
export function instant(value: Date | number | undefined | null): number | undefined;
/**
 * `CityPack.nearby` (see there).
 * @param {CityPack} pack
 * @param {number} lat
 * @param {number} lon
 * @param {number} radius
 * @param {NearbyOptions} options
 * @returns {Place[]}
 */
export function nearby(pack: CityPack, lat: number, lon: number, radius: number, options: NearbyOptions): Place[];
/**
 * `CityPack.places` (see there).
 * @param {CityPack} pack
 * @param {Box} box
 * @param {ListingOptions} options
 * @returns {Place[]}
 */
export function placesInBox(pack: CityPack, box: Box, options: ListingOptions): Place[];
export type CityPack = import('./pack.js').CityPack;
/**
 * A POI or stop row, as `citypack query --format json` prints it.
 */
export type Place = {
    id: number;
    kind: 'poi' | 'stop';
    osm?: string | undefined;
    stop_id?: string | undefined;
    /**
     * Never empty: an unnamed place has its category's label in the locale (then `named` is false).
     */
    name: string;
    named: boolean;
    /**
     * The main category (the first of `categories`).
     */
    category: string;
    /**
     * Every category the place is, main first (a pub with Wi-Fi: ["bar", "wifi"]).
     */
    categories: string[];
    /**
     * The categories after the main one; absent when none.
     */
    also?: string[] | undefined;
    /**
     * OSM `wheelchair` (yes, limited, no); absent when unknown.
     */
    wheelchair?: string | undefined;
    /**
     * The other id of a GTFS stop and OSM feature of the same place (one result).
     */
    linked_id?: number | undefined;
    lat: number;
    lon: number;
    /**
     * Metres, when a position is given (nearby, search near a point).
     */
    distance_m?: number | undefined;
    /**
     * OSM `opening_hours` as in the source; absent when none.
     */
    opening_hours?: string | undefined;
    /**
     * At `openAt`, else now, in the city's time zone: 'unknown' without
     * readable hours or when a holiday decides.
     */
    open: 'open' | 'closed' | 'unknown';
    /**
     * When `open` changes: ISO 8601 local minute with the offset; absent when unknown
     * or beyond the horizon.
     */
    next_change?: string | undefined;
};
/**
 * A bounding box in degrees (minLon > maxLon crosses the antimeridian).
 */
export type Box = {
    minLon: number;
    minLat: number;
    maxLon: number;
    maxLat: number;
};
/**
 * Options of `nearby`: limit (default DEFAULT_NEARBY_LIMIT), offset for paging, locale of the display names,
 * category (an id) to keep, openAt to keep only the places open then.
 */
export type NearbyOptions = {
    limit?: number;
    offset?: number;
    locale?: string;
    category?: string;
    openAt?: Date | number;
};
/**
 * Options of `places(box)` (limit default DEFAULT_LISTING_LIMIT).
 */
export type ListingOptions = {
    category?: string;
    limit?: number;
    offset?: number;
    locale?: string;
};
/**
 * The places part as `loadPlaces` takes it (the layout `packFromParts` accepts).
 */
export type PlacesColumns = {
    format?: number | undefined;
    city?: string | undefined;
    defaultLocale?: string | undefined;
    locales?: string[] | undefined;
    precision: number;
    /**
     * geohash cells, ascending
     */
    cells: string[];
    /**
     * rows per cell
     */
    counts: number[];
    id: number[];
    lat: number[];
    lon: number[];
    osm: string[];
    category: string[];
    name: (string | null)[];
    names: Record<string, string>[];
    tags: Record<string, string>[];
    stopId: (string | null)[];
    wheelchair?: (string | null)[] | undefined;
    hours?: (string | null)[] | undefined;
    also?: Record<string, string[]> | undefined;
    tokens: (string | null)[];
    terms: (string | number)[];
    labels?: Record<string, Record<string, string>> | undefined;
    links?: Record<string, number> | undefined;
    groups?: Record<string, number> | undefined;
};
/**
 * The loaded places part: the columns, the proximity index (`cells`, `ids`, `lats`, `lons`) and lookups.
 */
export type PlacesPart = {
    precision: number;
    locales: string[] | undefined;
    cells: Float64Array;
    ids: Float64Array;
    lats: Float64Array;
    lons: Float64Array;
    id: number[];
    lat: number[];
    lon: number[];
    osm: string[];
    category: string[];
    name: (string | null)[];
    names: Record<string, string>[];
    tags: Record<string, string>[];
    stopId: (string | null)[];
    wheelchair: (string | null)[];
    hours: (string | null)[];
    also: Record<string, string[]>;
    tokens: (string | null)[];
    terms: (string | number)[];
    labels: Record<string, Record<string, string>>;
    links: Map<number, number>;
    groups: Map<number, number>;
    byCategory: Map<string, import('./proximity.js').PointIndex>;
    rowOf: Map<number, number>;
};
import { openAt } from "./opening-hours.js";
