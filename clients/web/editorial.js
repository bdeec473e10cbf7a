// The editorial part: problem cards, situations, actions and walking routes, with texts picked by locale.

import { omitNull } from './format.js';

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
export function loadEditorial(json) {
  return json;
}

/**
 * The text of `locale` (its language, the pack's default locale, else the alphabetically first), or null.
 * @param {CityPack} pack
 * @param {Texts | undefined} texts
 * @param {string | undefined} locale
 * @returns {string | null}
 */
function pick(pack, texts, locale) {
  if (!texts) return null;
  const keys = Object.keys(texts);
  if (keys.length === 0) return null;
  /** @type {string[]} */
  const chain = [];
  if (locale != null) {
    chain.push(locale);
    const language = locale.split(/[-_]/)[0];
    if (language !== locale) chain.push(language);
  }
  if (!chain.includes(pack.defaultLocale)) chain.push(pack.defaultLocale);
  for (const l of chain) if (Object.prototype.hasOwnProperty.call(texts, l)) return texts[l];
  return texts[keys.sort()[0]];
}

/**
 * Problem cards in display order, titles in `locale` (`homeOnly`: only those on the home screen).
 * @param {CityPack} pack
 * @param {string} [locale]
 * @param {{homeOnly?: boolean}} options
 * @returns {Card[]}
 */
export function cards(pack, locale, { homeOnly = false } = {}) {
  const e = pack._part('editorial');
  return e.cards
    .filter((c) => !homeOnly || c.home)
    .map((c) => omitNull({ id: c.id, title: pick(pack, c.title, locale) ?? '', icon: c.icon, home: c.home, position: c.position }));
}

/**
 * Situations of a card in display order.
 * @param {CityPack} pack
 * @param {string} card
 * @param {string} [locale]
 * @returns {Situation[]}
 */
export function situations(pack, card, locale) {
  return pack._part('editorial')
    .situations.filter((s) => s.card === card)
    .map((s) => omitNull({ id: s.id, card: s.card, title: pick(pack, s.title, locale) ?? '', body: pick(pack, s.body, locale), position: s.position }));
}

/**
 * Actions of a situation in display order.
 * @param {CityPack} pack
 * @param {string} situation
 * @param {string} [locale]
 * @returns {Action[]}
 */
export function actions(pack, situation, locale) {
  return pack._part('editorial')
    .actions.filter((a) => a.situation === situation)
    .map((a) =>
      omitNull({ id: a.id, situation: a.situation, kind: a.kind, target: a.target, label: pick(pack, a.label, locale) ?? '', text: pick(pack, a.text, locale), position: a.position }),
    );
}

/**
 * @param {CityPack} pack
 * @param {any} r the route as the part holds it
 * @param {string | undefined} locale
 * @param {boolean} withWaypoints
 * @returns {Route}
 */
function routeRow(pack, r, locale, withWaypoints) {
  const [minLon, minLat, maxLon, maxLat] = r.region;
  /** @type {Route} */
  const out = /** @type {any} */ (omitNull({
    id: r.id,
    name: pick(pack, r.name, locale) ?? '',
    description: pick(pack, r.description, locale),
    lengthMetres: r.lengthM,
    region: { minLon, minLat, maxLon, maxLat },
    position: r.position,
  }));
  out.waypoints = !withWaypoints
    ? []
    : r.waypoints.map((/** @type {any} */ w) => {
        let name = pick(pack, w.name, locale);
        if (name == null && w.poi != null && pack.has('places')) name = pack.place(w.poi, locale)?.name ?? null;
        return omitNull({ sequence: w.sequence, poi: w.poi, lat: w.lat, lon: w.lon, radius: w.radius, name });
      });
  return out;
}

/**
 * Walking routes in display order, without waypoints.
 * @param {CityPack} pack
 * @param {string} [locale]
 * @returns {Route[]}
 */
export function routes(pack, locale) {
  return pack._part('editorial').routes.map((r) => routeRow(pack, r, locale, false));
}

/**
 * One walking route with its region and waypoints (names from the POIs when the places part is loaded).
 * @param {CityPack} pack
 * @param {string} id
 * @param {string} [locale]
 * @returns {Route | null}
 */
export function route(pack, id, locale) {
  const r = pack._part('editorial').routes.find((x) => x.id === id);
  return r ? routeRow(pack, r, locale, true) : null;
}
