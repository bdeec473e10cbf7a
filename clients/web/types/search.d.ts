/** @typedef {import('./pack.js').CityPack} CityPack */
/** @typedef {import('./places.js').Place} Place */
/** @typedef {import('./places.js').PlacesPart} PlacesPart */
/**
 * Options of `search`: near (a position: nearest first, with distances), limit (default DEFAULT_SEARCH_LIMIT),
 * offset for paging, openAt to keep only the places open then.
 * @typedef {{near?: {lat: number, lon: number} | [number, number], limit?: number, offset?: number, openAt?: Date|number}} SearchOptions
 */
/**
 * The search part as `loadSearch` takes it: per searchable row its id and its name and terms tokens (indexes into
 * `vocab`), the column weights, and the part's own category words.
 * @typedef {object} SearchColumns
 * @property {number} [format]
 * @property {[number, number]} weights
 * @property {string[]} vocab
 * @property {number[]} rowid
 * @property {number[][]} name
 * @property {number[][]} terms
 * @property {Record<string, string[]>} [categoryTerms]
 */
/**
 * The loaded search part: the columns, postings per term (row, hits in name, hits in terms), row sizes.
 * @typedef {object} SearchPart
 * @property {string[]} vocab
 * @property {[number, number]} weights
 * @property {number[]} rowid
 * @property {number[][]} name
 * @property {number[][]} terms
 * @property {Record<string, string[]>} categoryTerms
 * @property {Float64Array} size
 * @property {number} rows
 * @property {number} avgdl
 * @property {number[][]} postings
 * @property {Map<string, number>} termIndex
 * @property {number[]} sorted vocab indexes in string order
 * @property {Map<string, {category: string, language: string | null}[]>} [categoryWordMap] built on first use
 */
/**
 * The search part from its head and the places part's rows (web format 2), as the columns `loadSearch` takes:
 * rows are the places with a search row, tokens numbered by a vocabulary made of them.
 * @param {any} head the part's head file (weights, terms texts, category terms)
 * @param {{id: number[], tokens: (string|null)[], terms: (string|number)[]}} places the places part (its rows' search tokens)
 * @returns {SearchColumns}
 */
export function assembleSearch(head: any, places: {
    id: number[];
    tokens: (string | null)[];
    terms: (string | number)[];
}): SearchColumns;
/**
 * @param {SearchColumns} json
 * @returns {SearchPart}
 */
export function loadSearch(json: SearchColumns): SearchPart;
/**
 * `CityPack.search` (see there).
 * @param {CityPack} pack
 * @param {string} text
 * @param {string | undefined} locale
 * @param {SearchOptions & {evaluatedAt?: number}} options
 * @returns {Place[]}
 */
export function search(pack: CityPack, text: string, locale: string | undefined, options: SearchOptions & {
    evaluatedAt?: number;
}): Place[];
export type CityPack = import('./pack.js').CityPack;
export type Place = import('./places.js').Place;
export type PlacesPart = import('./places.js').PlacesPart;
/**
 * Options of `search`: near (a position: nearest first, with distances), limit (default DEFAULT_SEARCH_LIMIT),
 * offset for paging, openAt to keep only the places open then.
 */
export type SearchOptions = {
    near?: {
        lat: number;
        lon: number;
    } | [number, number];
    limit?: number;
    offset?: number;
    openAt?: Date | number;
};
/**
 * The search part as `loadSearch` takes it: per searchable row its id and its name and terms tokens (indexes into
 * `vocab`), the column weights, and the part's own category words.
 */
export type SearchColumns = {
    format?: number | undefined;
    weights: [number, number];
    vocab: string[];
    rowid: number[];
    name: number[][];
    terms: number[][];
    categoryTerms?: Record<string, string[]> | undefined;
};
/**
 * The loaded search part: the columns, postings per term (row, hits in name, hits in terms), row sizes.
 */
export type SearchPart = {
    vocab: string[];
    weights: [number, number];
    rowid: number[];
    name: number[][];
    terms: number[][];
    categoryTerms: Record<string, string[]>;
    size: Float64Array;
    rows: number;
    avgdl: number;
    postings: number[][];
    termIndex: Map<string, number>;
    /**
     * vocab indexes in string order
     */
    sorted: number[];
    /**
     * built on first use
     */
    categoryWordMap?: Map<string, {
        category: string;
        language: string | null;
    }[]> | undefined;
};
