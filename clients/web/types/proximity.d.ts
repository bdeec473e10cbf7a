/** @typedef {import('./places.js').PlacesPart} PlacesPart */
/**
 * Points sorted by geohash cell (ProximityIndex): the places part itself, or one category's points (`rows`: their
 * rows in the places part).
 * @typedef {object} PointIndex
 * @property {Float64Array} cells
 * @property {Float64Array} ids
 * @property {Float64Array} lats
 * @property {Float64Array} lons
 * @property {number} precision
 * @property {Int32Array} [rows]
 */
/** @typedef {{i: number, id: number, d: number}} Hit A point of an index (`i`), its id and its distance in metres. */
/**
 * Haversine distance in metres between two points in degrees (GreatCircle.distance).
 * @param {number} lat1
 * @param {number} lon1
 * @param {number} lat2
 * @param {number} lon2
 * @returns {number}
 */
export function distance(lat1: number, lon1: number, lat2: number, lon2: number): number;
/**
 * The geohash string of a point (Geohash.encode): `precision` base-32 characters, 1…10 (50 bits fit a double).
 * @param {number} lat
 * @param {number} lon
 * @param {number} [precision]
 * @returns {string}
 */
export function geohash(lat: number, lon: number, precision?: number | undefined): string;
/**
 * The integer cell of a geohash string (base 32, most significant character first).
 * @param {string} text
 * @returns {number}
 */
export function geohashCell(text: string): number;
/**
 * Every point of an index (`{cells, ids, lats, lons, precision}`) within `radius` metres, as {i, id, d} sorted by
 * (distance, id): ProximityIndex.within.
 * @param {PointIndex} index
 * @param {number} lat
 * @param {number} lon
 * @param {number} radius
 * @returns {Hit[]}
 */
export function within(index: PointIndex, lat: number, lon: number, radius: number): Hit[];
/**
 * Every point of an index with its distance, sorted by (distance, id): ProximityIndex.bruteForce.
 * @param {PointIndex} index
 * @param {number} lat
 * @param {number} lon
 * @returns {Hit[]}
 */
export function everyPoint(index: PointIndex, lat: number, lon: number): Hit[];
/**
 * Whether row i of the places part has a name of its own (a POI's name or names, a stop's non-empty name).
 * @param {PlacesPart} places
 * @param {number | undefined} i
 */
export function isNamed(places: PlacesPart, i: number | undefined): boolean;
/**
 * The proximity index of one category's places (built on first use), or of every place without a category.
 * @param {PlacesPart} places
 * @param {string | undefined} category
 * @returns {PointIndex}
 */
export function categoryIndex(places: PlacesPart, category: string | undefined): PointIndex;
/**
 * Ids in order, one per place: an id whose place (`groups`, else itself) came earlier is left out (Swift `folded`).
 * @param {PlacesPart} places
 * @param {number[]} ids
 * @returns {number[]}
 */
export function foldLinked(places: PlacesPart, ids: number[]): number[];
/**
 * Ids sorted in listing order (named first, stations before other places before entrances, then id).
 * @param {PlacesPart} places
 * @param {number[]} ids
 * @returns {number[]}
 */
export function byListing(places: PlacesPart, ids: number[]): number[];
/**
 * The `count` nearest places of the categories after folding, nearest first (Swift `nearest`): exact.
 * @param {PlacesPart} places
 * @param {string[]} categories
 * @param {number} lat
 * @param {number} lon
 * @param {number} count
 * @returns {Hit[]}
 */
export function nearest(places: PlacesPart, categories: string[], lat: number, lon: number, count: number): Hit[];
export type PlacesPart = import('./places.js').PlacesPart;
/**
 * Points sorted by geohash cell (ProximityIndex): the places part itself, or one category's points (`rows`: their
 * rows in the places part).
 */
export type PointIndex = {
    cells: Float64Array;
    ids: Float64Array;
    lats: Float64Array;
    lons: Float64Array;
    precision: number;
    rows?: Int32Array | undefined;
};
/**
 * A point of an index (`i`), its id and its distance in metres.
 */
export type Hit = {
    i: number;
    id: number;
    d: number;
};
import { DEFAULT_LISTING_LIMIT } from "./constants.js";
import { DEFAULT_NEARBY_LIMIT } from "./constants.js";
import { DEFAULT_SEARCH_LIMIT } from "./constants.js";
export { DEFAULT_LISTING_LIMIT, DEFAULT_NEARBY_LIMIT, DEFAULT_SEARCH_LIMIT };
