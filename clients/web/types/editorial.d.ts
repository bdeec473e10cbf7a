/** @typedef {import('./pack.js').CityPack} CityPack */
/** @typedef {Record<string, string>} Texts A text by locale. */
/**
 * The editorial part as the pack holds it (docs/schemas/web-editorial.schema.json): texts by locale.
 * @typedef {{cards: any[], situations: any[], actions: any[], routes: any[]}} EditorialPart
 */
/** @typedef {{id: string, title: string, icon?: string, home?: boolean, position?: number}} Card */
/** @typedef {{id: string, card: string, title: string, body?: string, position?: number}} Situation */
/** @typedef {{id: string, situation: string, kind: string, target?: string, label: string, text?: string, position?: number}} Action */
/** @typedef {{sequence: number, poi?: number, lat: number, lon: number, radius?: number, name?: string}} Waypoint */
/**
 * A walking route: its region, and its waypoints (empty in `routes()`).
 * @typedef {object} Route
 * @property {string} id
 * @property {string} name
 * @property {string} [description]
 * @property {number} lengthMetres
 * @property {{minLon: number, minLat: number, maxLon: number, maxLat: number}} region
 * @property {number} [position]
 * @property {Waypoint[]} waypoints
 */
/**
 * @param {EditorialPart} json
 * @returns {EditorialPart}
 */
export function loadEditorial(json: EditorialPart): EditorialPart;
/**
 * Problem cards in display order, titles in `locale` (`homeOnly`: only those on the home screen).
 * @param {CityPack} pack
 * @param {string} [locale]
 * @param {{homeOnly?: boolean}} options
 * @returns {Card[]}
 */
export function cards(pack: CityPack, locale?: string | undefined, { homeOnly }?: {
    homeOnly?: boolean;
}): Card[];
/**
 * Situations of a card in display order.
 * @param {CityPack} pack
 * @param {string} card
 * @param {string} [locale]
 * @returns {Situation[]}
 */
export function situations(pack: CityPack, card: string, locale?: string | undefined): Situation[];
/**
 * Actions of a situation in display order.
 * @param {CityPack} pack
 * @param {string} situation
 * @param {string} [locale]
 * @returns {Action[]}
 */
export function actions(pack: CityPack, situation: string, locale?: string | undefined): Action[];
/**
 * Walking routes in display order, without waypoints.
 * @param {CityPack} pack
 * @param {string} [locale]
 * @returns {Route[]}
 */
export function routes(pack: CityPack, locale?: string | undefined): Route[];
/**
 * One walking route with its region and waypoints (names from the POIs when the places part is loaded).
 * @param {CityPack} pack
 * @param {string} id
 * @param {string} [locale]
 * @returns {Route | null}
 */
export function route(pack: CityPack, id: string, locale?: string | undefined): Route | null;
export type CityPack = import('./pack.js').CityPack;
/**
 * A text by locale.
 */
export type Texts = Record<string, string>;
/**
 * The editorial part as the pack holds it (docs/schemas/web-editorial.schema.json): texts by locale.
 */
export type EditorialPart = {
    cards: any[];
    situations: any[];
    actions: any[];
    routes: any[];
};
export type Card = {
    id: string;
    title: string;
    icon?: string;
    home?: boolean;
    position?: number;
};
export type Situation = {
    id: string;
    card: string;
    title: string;
    body?: string;
    position?: number;
};
export type Action = {
    id: string;
    situation: string;
    kind: string;
    target?: string;
    label: string;
    text?: string;
    position?: number;
};
export type Waypoint = {
    sequence: number;
    poi?: number;
    lat: number;
    lon: number;
    radius?: number;
    name?: string;
};
/**
 * A walking route: its region, and its waypoints (empty in `routes()`).
 */
export type Route = {
    id: string;
    name: string;
    description?: string | undefined;
    lengthMetres: number;
    region: {
        minLon: number;
        minLat: number;
        maxLon: number;
        maxLat: number;
    };
    position?: number | undefined;
    waypoints: Waypoint[];
};
