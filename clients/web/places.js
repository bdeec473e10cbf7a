// The places part: its rows assembled from the head and row chunks, loaded as columns with the proximity index,
// and the rows as `citypack query --format json` prints them (names by locale, category labels, linked pairs,
// opening hours); nearby and the places in a box (Swift PackReader's proximity queries).

import { PackError, compareStrings, omitNull } from './format.js';
import { openAt } from './opening-hours.js';
import { DEFAULT_LISTING_LIMIT, DEFAULT_NEARBY_LIMIT, byListing, categoryIndex, foldLinked, geohash, geohashCell, within } from './proximity.js';

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
export function assemblePlaces(head, chunks) {
  /** @type {PlacesColumns & {also: Record<string, string[]>, links: Record<string, number>, groups: Record<string, number>, wheelchair: (string|null)[], hours: (string|null)[]}} */
  const out = {
    format: head.format, city: head.city, defaultLocale: head.defaultLocale, locales: head.locales, precision: head.precision,
    cells: [], counts: [], id: [], lat: [], lon: [], osm: [], category: [], name: [], names: [], tags: [], stopId: [], wheelchair: [], hours: [], also: {},
    tokens: [], terms: [], labels: head.labels ?? {}, links: {}, groups: {},
  };
  /** @type {Record<string, string>} */
  const tagKeys = head.tagKeys ?? {};
  let indexedDone = false;
  for (const columns of chunks) {
    if (!Array.isArray(columns) || columns.length !== head.columns.length) throw new PackError('part', 'places: a row chunk does not have the head\'s columns');
    // The chunk's columns by the head's names; null is an absent column.
    /** @type {Record<string, any>} */
    const c = {};
    head.columns.forEach((/** @type {string} */ name, /** @type {number} */ k) => {
      if (columns[k] != null) c[name] = columns[k];
    });
    const n = c.id.length;
    const indexed = c.indexed ?? n;
    if (indexed > 0 && indexedDone) throw new PackError('part', 'places: indexed rows after unindexed ones');
    let lat = 0;
    let lon = 0;
    for (let i = 0; i < n; i++) {
      const id = c.id[i];
      let la;
      let lo;
      if (c.lat7) {
        lat += c.lat7[i];
        lon += c.lon7[i];
        la = lat / 1e7;
        lo = lon / 1e7;
      } else {
        la = c.lat[i];
        lo = c.lon[i];
      }
      if (i < indexed) {
        const cell = geohash(la, lo, head.precision);
        const lastCell = out.cells[out.cells.length - 1];
        if (lastCell === cell) out.counts[out.counts.length - 1] += 1;
        else {
          // Rows come in cell order; a cell out of order means the grid here is not the writer's.
          if (lastCell !== undefined && cell < lastCell) throw new PackError('part', `places: row ${id} is out of cell order`);
          out.cells.push(cell);
          out.counts.push(1);
        }
      }
      out.id.push(id);
      out.lat.push(la);
      out.lon.push(lo);
      out.osm.push(id % 4 === 3 ? '' : `${['n', 'w', 'r'][Math.min(id % 4, 2)]}${Math.floor(id / 4)}`);
      out.category.push(head.categories[c.category[i]]);
      out.name.push(c.name[i]);
      out.names.push(c.names?.[i] ?? {});
      /** @type {Record<string, string>} */
      const tags = {};
      /** @type {Record<string, string>} */
      const refs = c.tags?.[i] ?? {};
      for (const key of Object.keys(refs).map((r) => [tagKeys[r] ?? r, r]).sort((a, b) => compareStrings(a[0], b[0]))) {
        tags[key[0]] = refs[key[1]];
      }
      out.tags.push(tags);
      out.stopId.push(c.stopId?.[i] ?? null);
      out.wheelchair.push(c.wheelchair?.[i] ?? null);
      out.hours.push(c.hours?.[i] ?? null);
      out.tokens.push(c.tokens[i]);
      out.terms.push(c.terms[i]);
    }
    if (indexed < n) indexedDone = true;
    for (const [id, codes] of Object.entries(/** @type {Record<string, number[]>} */ (c.also ?? {}))) out.also[id] = codes.map((k) => head.categories[k]);
    Object.assign(out.links, c.links ?? {});
    Object.assign(out.groups, c.groups ?? {});
  }
  return out;
}

/**
 * @param {PlacesColumns} json
 * @returns {PlacesPart}
 */
export function loadPlaces(json) {
  // Rows past sum(counts) are details only (searchable stops outside the index).
  const n = json.counts.reduce((a, c) => a + c, 0);
  const cells = new Float64Array(n);
  let row = 0;
  for (let c = 0; c < json.cells.length; c++) {
    const cell = geohashCell(json.cells[c]);
    for (let k = 0; k < json.counts[c]; k++) cells[row++] = cell;
  }
  /** @type {Map<number, number>} */
  const rowOf = new Map();
  for (let i = 0; i < json.id.length; i++) rowOf.set(json.id[i], i);
  return {
    precision: json.precision,
    locales: json.locales,
    cells,
    ids: Float64Array.from(json.id),
    lats: Float64Array.from(json.lat),
    lons: Float64Array.from(json.lon),
    id: json.id,
    lat: json.lat,
    lon: json.lon,
    osm: json.osm,
    category: json.category,
    name: json.name,
    names: json.names,
    tags: json.tags,
    stopId: json.stopId,
    // OSM wheelchair (yes, limited, no) by row; absent in older packs.
    wheelchair: json.wheelchair ?? [],
    // Opening hours in compact form (opening-hours.js) by row; absent in older packs.
    hours: json.hours ?? [],
    // Further categories by POI id (a bank with a cash machine: ['atm']) and stops' modes; absent in older packs.
    also: json.also ?? {},
    // The rows' search columns (format 2), for the search part.
    tokens: json.tokens,
    terms: json.terms,
    // Category labels per locale, for unnamed places; linked pairs (both directions); per-category indexes (lazy).
    labels: json.labels ?? {},
    links: new Map(Object.entries(json.links ?? {}).map(([k, v]) => [Number(k), v])),
    groups: new Map(Object.entries(json.groups ?? {}).map(([k, v]) => [Number(k), v])),
    byCategory: new Map(),
    rowOf,
  };
}

/**
 * `names[locale]`, then shorter prefixes of the tag, then the plain name, then the alphabetically first locale's.
 * @param {Record<string, string> | undefined} names
 * @param {string | null | undefined} plain
 * @param {string | undefined} locale
 * @returns {string | null}
 */
function displayName(names, plain, locale) {
  if (locale != null && names) {
    let tag = locale;
    while (tag.length > 0) {
      if (Object.prototype.hasOwnProperty.call(names, tag)) return names[tag];
      const cut = Math.max(tag.lastIndexOf('-'), tag.lastIndexOf('_'));
      if (cut < 0) break;
      tag = tag.slice(0, cut);
    }
  }
  if (plain != null) return plain;
  const keys = names ? Object.keys(names).sort() : [];
  return keys.length ? /** @type {Record<string, string>} */ (names)[keys[0]] : null;
}

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
export function placeRow(pack, places, i, locale, dist, at = Date.now()) {
  const id = places.id[i];
  const stop = (id % 4) === 3;
  const chosen = locale ?? pack.defaultLocale;
  let name = displayName(places.names[i], places.name[i], chosen);
  if (name === '') name = null;
  /** @type {Record<string, any>} */
  const row = {
    id,
    kind: stop ? 'stop' : 'poi',
    osm: places.osm[i],
    stop_id: places.stopId[i],
    name: name ?? label(pack, places, places.category[i], chosen),
    named: name != null,
    category: places.category[i],
    categories: [places.category[i], ...(places.also[id] ?? [])],
    also: places.also[id] ?? null,
    wheelchair: places.wheelchair?.[i] ?? null,
    linked_id: null,
    lat: places.lat[i],
    lon: places.lon[i],
    distance_m: dist == null ? null : Math.round(dist * 100) / 100,
    opening_hours: places.tags[i]?.opening_hours ?? null,
    ...openAt(places.hours?.[i], pack.timeZone, at),
  };
  const partner = places.links.get(id);
  const j = partner === undefined ? undefined : places.rowOf.get(partner);
  if (j !== undefined) {
    row.linked_id = partner;
    if (stop) row.osm = places.osm[j];
    else row.stop_id = places.stopId[j];
  }
  return /** @type {Place} */ (omitNull(row));
}

/**
 * A category's label: the locale, shorter prefixes of its tag, the default locale, English, else the id.
 * @param {CityPack} pack
 * @param {PlacesPart} places
 * @param {string} category
 * @param {string | undefined} locale
 * @returns {string}
 */
export function label(pack, places, category, locale) {
  const byLocale = places.labels[category] ?? {};
  /** @type {string[]} */
  const chain = [];
  let tag = locale ?? '';
  while (tag.length > 0) {
    chain.push(tag);
    const cut = Math.max(tag.lastIndexOf('-'), tag.lastIndexOf('_'));
    if (cut < 0) break;
    tag = tag.slice(0, cut);
  }
  chain.push(pack.defaultLocale, 'en');
  for (const l of chain) if (Object.prototype.hasOwnProperty.call(byLocale, l) && byLocale[l] !== '') return byLocale[l];
  const plain = category.replaceAll('_', ' ');
  return plain === '' ? '?' : plain;
}

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
export function rows(pack, places, ids, locale, distances, at) {
  /** @type {Place[]} */
  const out = [];
  for (const id of ids) {
    const i = places.rowOf.get(id);
    if (i !== undefined) out.push(placeRow(pack, places, i, locale, distances?.get(id) ?? null, at));
  }
  return out;
}

/**
 * The instant of an `openAt` option (a Date or UTC milliseconds), or undefined.
 * @param {Date | number | undefined | null} value
 * @returns {number | undefined}
 */
export function instant(value) {
  if (value == null) return undefined;
  return value instanceof Date ? value.getTime() : Number(value);
}

/**
 * `CityPack.nearby` (see there).
 * @param {CityPack} pack
 * @param {number} lat
 * @param {number} lon
 * @param {number} radius
 * @param {NearbyOptions} options
 * @returns {Place[]}
 */
export function nearby(pack, lat, lon, radius, options) {
  const limit = options.limit ?? DEFAULT_NEARBY_LIMIT;
  const p = pack._part('places');
  if (!(limit > 0)) return [];
  const index = categoryIndex(p, options.category);
  const hits = within(index, lat, lon, radius);
  const distances = new Map(hits.map((h) => [h.id, h.d]));
  const at = instant(options.openAt);
  const folded = foldLinked(p, hits.map((h) => h.id));
  if (at === undefined) return rows(pack, p, folded.slice(Math.max(0, options.offset ?? 0)).slice(0, limit), options.locale, distances);
  const open = rows(pack, p, folded, options.locale, distances, at).filter((r) => r.open === 'open');
  return open.slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
}

/**
 * `CityPack.places` (see there).
 * @param {CityPack} pack
 * @param {Box} box
 * @param {ListingOptions} options
 * @returns {Place[]}
 */
export function placesInBox(pack, box, options) {
  const limit = options.limit ?? DEFAULT_LISTING_LIMIT;
  const p = pack._part('places');
  if (!(limit > 0)) return [];
  const index = categoryIndex(p, options.category);
  /** @type {number[]} */
  const ids = [];
  for (let r = 0; r < index.cells.length; r++) {
    const lat = index.lats[r];
    const lon = index.lons[r];
    if (!(lat >= box.minLat && lat <= box.maxLat)) continue;
    const inLon = box.minLon <= box.maxLon ? lon >= box.minLon && lon <= box.maxLon : lon >= box.minLon || lon <= box.maxLon;
    if (inLon) ids.push(index.ids[r]);
  }
  const page = foldLinked(p, byListing(p, ids)).slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
  return rows(pack, p, page, options.locale, null);
}
