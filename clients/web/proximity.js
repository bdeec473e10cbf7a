// Proximity: great-circle distance, geohash cells and the cover of a circle by cell ranges (ports of
// GreatCircle, Geohash, GeohashCover and ProximityIndex; see docs/WEB.md), and the queries over a places index
// (within a radius, per category, the nearest of categories, listing order, linked pairs folded).

import {
  COVER_CELLS, DEFAULT_LISTING_LIMIT, DEFAULT_NEARBY_LIMIT, DEFAULT_SEARCH_LIMIT, EARTH_RADIUS, FIRST_RING_METRES, GEOHASH_ALPHABET,
  PAD_DEGREES,
} from './constants.js';

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
export function distance(lat1, lon1, lat2, lon2) {
  const radians = Math.PI / 180;
  const phi1 = lat1 * radians;
  const phi2 = lat2 * radians;
  const sinDPhi = Math.sin((phi2 - phi1) / 2);
  const sinDLambda = Math.sin(((lon2 - lon1) * radians) / 2);
  const a = sinDPhi * sinDPhi + Math.cos(phi1) * Math.cos(phi2) * sinDLambda * sinDLambda;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * @param {number} precision
 * @returns {[number, number]} [lat, lon]
 */
function bitCounts(precision) {
  const total = 5 * precision;
  return [Math.floor(total / 2), total - Math.floor(total / 2)]; // [lat, lon]
}

/**
 * @param {number} value
 * @param {number} min
 * @param {number} span
 * @param {number} bits
 */
function gridIndex(value, min, span, bits) {
  const count = 2 ** bits;
  const v = Number.isNaN(value) ? min : Math.min(Math.max(value, min), min + span);
  let i = Math.floor((v - min) * (count / span));
  i = Math.min(Math.max(i, 0), count - 1);
  const step = span * 2 ** -bits;
  while (i > 0 && v < min + i * step) i -= 1;
  while (i < count - 1 && v >= min + (i + 1) * step) i += 1;
  return i;
}

// Moves bit k of a value below 2^16 to bit 2k.
/** @param {number} x */
function spread16(x) {
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

/** @param {number} x */
function spread(x) {
  return spread16(x % 65536) + spread16(Math.floor(x / 65536)) * 4294967296;
}

/**
 * @param {number} lonIndex
 * @param {number} latIndex
 * @param {number} precision
 */
function interleave(lonIndex, latIndex, precision) {
  const lon = spread(lonIndex);
  const lat = spread(latIndex);
  return (5 * precision) % 2 === 0 ? lon * 2 + lat : lat * 2 + lon;
}

/**
 * The geohash string of a point (Geohash.encode): `precision` base-32 characters, 1…10 (50 bits fit a double).
 * @param {number} lat
 * @param {number} lon
 * @param {number} [precision]
 * @returns {string}
 */
export function geohash(lat, lon, precision = 8) {
  if (!(precision >= 1 && precision <= 10)) throw new RangeError('geohash precision must be 1…10');
  const [latBits, lonBits] = bitCounts(precision);
  let cell = interleave(gridIndex(lon, -180, 360, lonBits), gridIndex(lat, -90, 180, latBits), precision);
  let text = '';
  for (let i = 0; i < precision; i++) {
    text = GEOHASH_ALPHABET[cell % 32] + text;
    cell = Math.floor(cell / 32);
  }
  return text;
}

/**
 * The integer cell of a geohash string (base 32, most significant character first).
 * @param {string} text
 * @returns {number}
 */
export function geohashCell(text) {
  let value = 0;
  for (const ch of text) value = value * 32 + GEOHASH_ALPHABET.indexOf(ch);
  return value;
}

/**
 * @param {number} lat
 * @param {number} lon
 * @param {number} radius
 * @returns {number[][]} [minLat, maxLat, minLon, maxLon] each
 */
function boxPair(lat, lon, radius) {
  const degrees = 180 / Math.PI;
  lat = Math.min(Math.max(lat, -90), 90);
  lon = lon % 360;
  if (lon > 180) lon -= 360;
  else if (lon < -180) lon += 360;
  const delta = radius / EARTH_RADIUS;
  const deltaDeg = delta * degrees;
  const pad = PAD_DEGREES + deltaDeg * 1e-9;
  const minLat = lat - deltaDeg - pad;
  const maxLat = lat + deltaDeg + pad;
  const cMin = Math.max(minLat, -90);
  const cMax = Math.min(maxLat, 90);
  const full = [[cMin, cMax, -180, 180]];
  if (minLat <= -90 || maxLat >= 90 || delta >= Math.PI / 2) return full;
  const s = Math.sin(delta) / Math.cos(lat / degrees);
  if (!(s < 1)) return full;
  const dLonRaw = Math.asin(s) * degrees;
  const dLon = dLonRaw + pad + dLonRaw * 1e-9;
  if (!(dLon < 180)) return full;
  const west = lon - dLon;
  const east = lon + dLon;
  if (west < -180) return [[cMin, cMax, west + 360, 180], [cMin, cMax, -180, east]];
  if (east > 180) return [[cMin, cMax, west, 180], [cMin, cMax, -180, east - 360]];
  return [[cMin, cMax, west, east]];
}

/**
 * @param {number[]} box [minLat, maxLat, minLon, maxLon]
 * @param {number} precision
 */
function estimatedCells(box, precision) {
  const [latBits, lonBits] = bitCounts(precision);
  const sizeLat = 180 / 2 ** latBits;
  const sizeLon = 360 / 2 ** lonBits;
  return (Math.floor((box[1] - box[0]) / sizeLat) + 2) * (Math.floor((box[3] - box[2]) / sizeLon) + 2);
}

/**
 * Calls body(first, last) for each cell range covering the query circle (GeohashCover.forEachRange).
 * @param {number} lat
 * @param {number} lon
 * @param {number} radius
 * @param {number} precision
 * @param {number} maxCells
 * @param {(first: number, last: number) => void} body
 */
function forEachRange(lat, lon, radius, precision, maxCells, body) {
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || !Number.isFinite(radius) || radius < 0) return;
  const boxes = boxPair(lat, lon, radius);
  let level = precision;
  while (level > 1) {
    let n = 0;
    for (const box of boxes) n += estimatedCells(box, level);
    if (n <= Math.max(maxCells, 1)) break;
    level -= 1;
  }
  const width = 2 ** (5 * (precision - level));
  const [latBits, lonBits] = bitCounts(level);
  for (const box of boxes) {
    const row0 = gridIndex(box[0], -90, 180, latBits);
    const row1 = gridIndex(box[1], -90, 180, latBits);
    const col0 = gridIndex(box[2], -180, 360, lonBits);
    const col1 = gridIndex(box[3], -180, 360, lonBits);
    for (let row = row0; row <= row1; row++) {
      for (let col = col0; col <= col1; col++) {
        const lo = interleave(col, row, level) * width;
        body(lo, lo + width - 1);
      }
    }
  }
}

// The default limits (generated from Swift's ReaderDefaults into constants.js), for the modules that import them here.
export { DEFAULT_LISTING_LIMIT, DEFAULT_NEARBY_LIMIT, DEFAULT_SEARCH_LIMIT };

/**
 * Every point of an index (`{cells, ids, lats, lons, precision}`) within `radius` metres, as {i, id, d} sorted by
 * (distance, id): ProximityIndex.within.
 * @param {PointIndex} index
 * @param {number} lat
 * @param {number} lon
 * @param {number} radius
 * @returns {Hit[]}
 */
export function within(index, lat, lon, radius) {
  /** @type {Hit[]} */
  const hits = [];
  const band = (radius / EARTH_RADIUS) * (180 / Math.PI) * (1 + 1e-9) + 1e-9;
  const { cells, lats, lons, ids } = index;
  const n = cells.length;
  forEachRange(lat, lon, radius, index.precision, COVER_CELLS, (first, last) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cells[mid] < first) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < n && cells[i] <= last; i++) {
      if (Math.abs(lats[i] - lat) <= band) {
        const d = distance(lat, lon, lats[i], lons[i]);
        if (d <= radius) hits.push({ i, id: ids[i], d });
      }
    }
  });
  if (hits.length > 1) hits.sort((a, b) => a.d - b.d || a.id - b.id);
  return hits;
}

/**
 * Every point of an index with its distance, sorted by (distance, id): ProximityIndex.bruteForce.
 * @param {PointIndex} index
 * @param {number} lat
 * @param {number} lon
 * @returns {Hit[]}
 */
export function everyPoint(index, lat, lon) {
  /** @type {Hit[]} */
  const hits = [];
  for (let i = 0; i < index.ids.length; i++) hits.push({ i, id: index.ids[i], d: distance(lat, lon, index.lats[i], index.lons[i]) });
  hits.sort((a, b) => a.d - b.d || a.id - b.id);
  return hits;
}

/**
 * Whether row i of the places part has a name of its own (a POI's name or names, a stop's non-empty name).
 * @param {PlacesPart} places
 * @param {number | undefined} i
 */
export function isNamed(places, i) {
  if (i === undefined) return false;
  const name = places.name[i];
  if ((places.id[i] % 4) === 3) return name != null && name !== '';
  return name != null || Object.keys(places.names[i] ?? {}).length > 0;
}

/**
 * The proximity index of one category's places (built on first use), or of every place without a category.
 * @param {PlacesPart} places
 * @param {string | undefined} category
 * @returns {PointIndex}
 */
export function categoryIndex(places, category) {
  if (category == null) return places;
  let index = places.byCategory.get(category);
  if (index === undefined) {
    const rows = [];
    const n = places.cells.length;
    for (let i = 0; i < n; i++) {
      if (places.category[i] === category || (places.also[places.id[i]] ?? []).includes(category)) rows.push(i);
    }
    index = {
      cells: Float64Array.from(rows, (i) => places.cells[i]),
      ids: Float64Array.from(rows, (i) => places.ids[i]),
      lats: Float64Array.from(rows, (i) => places.lats[i]),
      lons: Float64Array.from(rows, (i) => places.lons[i]),
      rows: Int32Array.from(rows),
      precision: places.precision,
    };
    places.byCategory.set(category, index);
  }
  return index;
}

/**
 * Ids in order, one per place: an id whose place (`groups`, else itself) came earlier is left out (Swift `folded`).
 * @param {PlacesPart} places
 * @param {number[]} ids
 * @returns {number[]}
 */
export function foldLinked(places, ids) {
  const out = [];
  const seen = new Set();
  for (const id of ids) {
    const group = places.groups.get(id) ?? id;
    if (seen.has(group)) continue;
    seen.add(group);
    out.push(id);
  }
  return out;
}

/**
 * Listing order without a position: named first, stations before other places before entrances, then id.
 * @param {PlacesPart} places
 * @param {number} id
 * @returns {[number, number, number]}
 */
function listingKey(places, id) {
  const i = /** @type {number} */ (places.rowOf.get(id));
  const named = isNamed(places, i) ? 0 : 1;
  const category = places.category[i];
  const importance = category === 'transit_station' ? 0 : category === 'transit_entrance' ? 2 : 1;
  return [named, importance, id];
}

/**
 * Ids sorted in listing order (named first, stations before other places before entrances, then id).
 * @param {PlacesPart} places
 * @param {number[]} ids
 * @returns {number[]}
 */
export function byListing(places, ids) {
  const keys = new Map(ids.map((id) => [id, listingKey(places, id)]));
  return ids.sort((a, b) => {
    const x = /** @type {[number, number, number]} */ (keys.get(a));
    const y = /** @type {[number, number, number]} */ (keys.get(b));
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/**
 * The `count` nearest places of the categories after folding, nearest first (Swift `nearest`): exact.
 * @param {PlacesPart} places
 * @param {string[]} categories
 * @param {number} lat
 * @param {number} lon
 * @param {number} count
 * @returns {Hit[]}
 */
export function nearest(places, categories, lat, lon, count) {
  const indexes = categories.map((c) => categoryIndex(places, c));
  const total = indexes.reduce((a, x) => a + x.ids.length, 0);
  if (total === 0 || !Number.isFinite(lat) || !Number.isFinite(lon)) return [];
  const merged = (/** @type {number} */ radius) => {
    /** @type {Hit[]} */
    const hits = [];
    const seen = new Set();
    for (const index of indexes) {
      const found = radius === Infinity ? everyPoint(index, lat, lon) : within(index, lat, lon, radius);
      for (const h of found) if (!seen.has(h.id)) { seen.add(h.id); hits.push(h); }
    }
    hits.sort((a, b) => a.d - b.d || a.id - b.id);
    return hits;
  };
  let radius = FIRST_RING_METRES;
  while (radius < 1000000 && total > count) {
    const hits = merged(radius);
    if (foldLinked(places, hits.map((h) => h.id)).length >= count) return hits;
    radius *= 4;
  }
  return merged(Infinity);
}
