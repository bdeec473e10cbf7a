// CityPack web reader: opens the web flavour of a pack (outputs/<city>/web/, listed in manifest.json) and answers
// nearby, search, cards, routes, strings and departures with the same results as the Swift reader (CityPackKit).
// An ES module with no dependencies; runs in browsers and in Node 20. See docs/WEB.md.
//
//   import { openPack } from './citypack.js';
//   const pack = await openPack(fetch, 'outputs/vaduz/manifest.json', { publicKey: 'base64…' });
//   pack.nearby(47.141, 9.5209, 25);            // [{id, kind, osm, name, category, lat, lon, distance_m}, …]
//   pack.search('toilet', 'de');
//   pack.departures('11515', '2014-10-20', '07:45', 5);

import { CATEGORY_WORDS } from './category-words.js';
import { openAt } from './opening-hours.js';
import { buildRouting, endpoint, journeyDayNumber, journeyJSON, JOURNEY_DEFAULTS, plan, resolve } from './journeys.js';
import { NAME_SEARCH_LIMIT, stopsNamed } from './stop-names.js';

// <generated: WebFlavour.javaScriptConstants>
/** Web format version this reader understands (manifest `web.format` and each part's `format`). */
export const WEB_FORMAT = 2;

const EARTH_RADIUS = 6371008.8; // metres, GreatCircle.earthRadius
const COVER_CELLS = 4; // ProximityIndex.coverCells
const PAD_DEGREES = 1e-07; // GeohashCover.padDegrees
const GEOHASH_ALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz'; // Geohash.alphabet
/** How the writer cuts the places rows into chunks (WebFlavour.rowChunk*; docs/WEB.md), for tools and tests. */
export const ROW_CHUNKING = { minBytes: 1000, maxBytes: 2500, divisor: 4, rowBytes: 80 };
/** Letters users type without → what they type instead (SearchFold.table): folded in the index and in queries. */
export const SEARCH_FOLDS = { ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ð: 'd', Ð: 'd', ł: 'l', Ł: 'l', þ: 'th', Þ: 'th', ı: 'i', ħ: 'h', Ħ: 'h', ŧ: 't', Ŧ: 't', ĳ: 'ij', Ĳ: 'ij', ﬁ: 'fi', ﬂ: 'fl' };
// </generated>

/** An error with a stable `code`: `manifest`, `hash`, `size`, `signature`, `format`, `fetch`, `part`. */
export class PackError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'PackError';
    this.code = code;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Opening

/**
 * Fetches and verifies a manifest, then fetches, verifies (SHA-256 and size) and gunzips the web parts.
 *
 * @param {(url: string) => Promise<{ok: boolean, status?: number, arrayBuffer(): Promise<ArrayBuffer>}>} fetchLike
 *   `fetch` or anything with its shape (Node tests pass a file reader).
 * @param {string} manifestURL URL of `manifest.json` (relative URLs resolve against the page).
 * @param {{parts?: string[], strings?: string[], publicKey?: string|Uint8Array, requireSignature?: boolean}} [options]
 *   `parts`: which parts to load now (default: every part the manifest lists); others load with `pack.load(name)`.
 *   `strings`: locales whose UI strings to load now (default: the default locale); others with `pack.loadStrings`.
 *   `publicKey`: the trusted Ed25519 public key (base64 of 32 raw bytes, the `.pub` file's line, or the bytes);
 *   with it a signed manifest must carry a valid signature by that key. `requireSignature`: refuse unsigned
 *   manifests (needs `publicKey`).
 * @returns {Promise<CityPack>}
 */
export async function openPack(fetchLike, manifestURL, options = {}) {
  const base = typeof globalThis.location?.href === 'string' ? globalThis.location.href : 'file:///';
  const url = new URL(manifestURL, base);
  const manifestBytes = await fetchBytes(fetchLike, url.href);
  let manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch (e) {
    throw new PackError('manifest', `${url.href}: not JSON (${e.message})`);
  }
  if (!manifest || typeof manifest !== 'object' || !manifest.web || !Array.isArray(manifest.web.parts)) {
    throw new PackError('manifest', `${url.href}: the manifest lists no web flavour (manifest.web)`);
  }
  if (manifest.web.format !== WEB_FORMAT) {
    throw new PackError('format', `web format ${manifest.web.format} is not supported (this reader: ${WEB_FORMAT})`);
  }
  const signature = await checkSignature(manifest, options);
  const pack = new CityPack(fetchLike, url, manifest, signature);
  const wanted = options.parts ?? manifest.web.parts.map((p) => p.name);
  const locales = options.strings ?? (Object.keys(manifest.web.strings ?? {}).length ? [pack.defaultLocale] : []);
  await Promise.all([...wanted.map((name) => pack.load(name)), ...locales.map((l) => pack.loadStrings(l))]);
  return pack;
}

/**
 * Every file of the web flavour a manifest lists, each once, in a stable order: per part its head and its chunks,
 * then the string tables (`copy/web/<locale>.json`). Paths are relative to the manifest. Files are
 * content-addressed, so an app updating a city fetches only the paths it does not hold yet (same SHA-256).
 * @param {object} manifest a parsed manifest.json
 * @returns {{path: string, bytes: number, sha256: string}[]}
 */
export function webFiles(manifest) {
  const out = [];
  const seen = new Set();
  const add = (f) => {
    if (!f || seen.has(f.path)) return;
    seen.add(f.path);
    out.push({ path: f.path, bytes: f.bytes, sha256: f.sha256 });
  };
  for (const part of manifest?.web?.parts ?? []) {
    add(part);
    for (const chunk of part.chunks ?? []) add(chunk);
  }
  const copy = new Map((manifest?.copy ?? []).map((f) => [f.path, f]));
  for (const locale of Object.keys(manifest?.web?.strings ?? {}).sort()) add(copy.get(manifest.web.strings[locale]));
  return out;
}

async function fetchBytes(fetchLike, href) {
  return (await fetchResponseBytes(fetchLike, href)).bytes;
}

/**
 * The bytes of a response and its Content-Encoding header (null when absent). A connection lost before the whole
 * body arrived (arrayBuffer() rejecting) is a PackError('fetch') like a failed request.
 */
async function fetchResponseBytes(fetchLike, href) {
  let response;
  try {
    response = await fetchLike(href);
  } catch (e) {
    throw new PackError('fetch', `${href}: ${e.message}`);
  }
  if (!response || !response.ok) throw new PackError('fetch', `${href}: HTTP ${response?.status ?? '?'}`);
  let buffer;
  try {
    buffer = await response.arrayBuffer();
  } catch (e) {
    throw new PackError('fetch', `${href}: the connection was lost before the whole body arrived (${e.message})`);
  }
  return { bytes: new Uint8Array(buffer), encoding: response.headers?.get?.('content-encoding') ?? null };
}

/**
 * Why stored bytes may not match the manifest although the server has the right file: the response carried
 * Content-Encoding (the client decoded it), or the bytes of a `.gz` file are not gzip. '' when neither.
 * @param {string} path @param {Uint8Array} bytes @param {string|null} encoding the response's Content-Encoding
 */
export function reencodingHint(path, bytes, encoding) {
  if (encoding && encoding !== 'identity') {
    return ` (the response carried Content-Encoding: ${encoding}, so the client decoded the stored bytes: serve .gz files as plain bytes without Content-Encoding; see docs/HOSTING.md)`;
  }
  if (path.endsWith('.gz') && bytes.length >= 2 && !(bytes[0] === 0x1f && bytes[1] === 0x8b)) {
    return ' (the bytes are not gzip: something between the server and the app decoded or re-encoded the file, e.g. a Content-Encoding a proxy added or removed)';
  }
  return '';
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Web Crypto: the global one (browsers, Node ≥ 19), else Node 18's `node:crypto` webcrypto. */
async function subtle() {
  if (globalThis.crypto?.subtle) return globalThis.crypto.subtle;
  const { webcrypto } = await import('node:crypto');
  return webcrypto.subtle;
}

async function sha256Hex(bytes) {
  return hex(await (await subtle()).digest('SHA-256', bytes));
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64Bytes(text) {
  const binary = atob(text.trim());
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** RFC 8785 canonical JSON (what DocumentSignature signs): sorted keys (UTF-16 order), ECMAScript numbers. */
export function canonicalJSON(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`).join(',')}}`;
}

/**
 * Verifies the manifest's Ed25519 signature with Web Crypto when a public key is given.
 * @returns {Promise<'verified'|'unsigned'|'unverified'>} `unverified`: signed, but no key was given to check it.
 */
async function checkSignature(manifest, options) {
  const signed = typeof manifest.signature === 'string';
  if (!signed) {
    if (options.requireSignature) throw new PackError('signature', 'the manifest is not signed');
    return 'unsigned';
  }
  if (options.publicKey == null) return 'unverified';
  const key = typeof options.publicKey === 'string' ? base64Bytes(options.publicKey) : options.publicKey;
  if (key.length !== 32) throw new PackError('signature', 'the public key is not 32 bytes');
  const keyId = (await sha256Hex(key)).slice(0, 16);
  if (manifest.keyId !== keyId) throw new PackError('signature', `signed by key ${manifest.keyId}, not ${keyId}`);
  const { signature, ...unsigned } = manifest;
  const message = new TextEncoder().encode(canonicalJSON(unsigned));
  let ok;
  try {
    const webCrypto = await subtle();
    const cryptoKey = await webCrypto.importKey('raw', key, { name: 'Ed25519' }, false, ['verify']);
    ok = await webCrypto.verify({ name: 'Ed25519' }, cryptoKey, base64Bytes(signature), message);
  } catch (e) {
    throw new PackError('signature', `Ed25519 is not available in this Web Crypto (${e.message}); see docs/WEB.md`);
  }
  if (!ok) throw new PackError('signature', 'the manifest signature is invalid');
  return 'verified';
}

// ---------------------------------------------------------------------------------------------------------------
// Geohash cover and distance (ports of GeohashCover, Geohash and GreatCircle; see docs/WEB.md)

/** Haversine distance in metres between two points in degrees (GreatCircle.distance). */
export function distance(lat1, lon1, lat2, lon2) {
  const radians = Math.PI / 180;
  const phi1 = lat1 * radians;
  const phi2 = lat2 * radians;
  const sinDPhi = Math.sin((phi2 - phi1) / 2);
  const sinDLambda = Math.sin(((lon2 - lon1) * radians) / 2);
  const a = sinDPhi * sinDPhi + Math.cos(phi1) * Math.cos(phi2) * sinDLambda * sinDLambda;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

function bitCounts(precision) {
  const total = 5 * precision;
  return [Math.floor(total / 2), total - Math.floor(total / 2)]; // [lat, lon]
}

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
function spread16(x) {
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

function spread(x) {
  return spread16(x % 65536) + spread16(Math.floor(x / 65536)) * 4294967296;
}

function interleave(lonIndex, latIndex, precision) {
  const lon = spread(lonIndex);
  const lat = spread(latIndex);
  return (5 * precision) % 2 === 0 ? lon * 2 + lat : lat * 2 + lon;
}

/** The geohash string of a point (Geohash.encode): `precision` base-32 characters, 1…10 (50 bits fit a double). */
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

/** The integer cell of a geohash string (base 32, most significant character first). */
export function geohashCell(text) {
  let value = 0;
  for (const ch of text) value = value * 32 + GEOHASH_ALPHABET.indexOf(ch);
  return value;
}

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

function estimatedCells(box, precision) {
  const [latBits, lonBits] = bitCounts(precision);
  const sizeLat = 180 / 2 ** latBits;
  const sizeLon = 360 / 2 ** lonBits;
  return (Math.floor((box[1] - box[0]) / sizeLat) + 2) * (Math.floor((box[3] - box[2]) / sizeLon) + 2);
}

/** Calls body(first, last) for each cell range covering the query circle (GeohashCover.forEachRange). */
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

/** Results `search` returns without a limit (Swift `PackReader.defaultSearchLimit`). */
export const DEFAULT_SEARCH_LIMIT = 20;
/** Results `nearby` returns without a limit (Swift `PackReader.defaultNearbyLimit`). */
export const DEFAULT_NEARBY_LIMIT = 50;
/** Places `places(box)` returns without a limit (Swift `PackReader.defaultListingLimit`). */
export const DEFAULT_LISTING_LIMIT = 1000;
/** First ring of the nearest-of-a-category search, metres (×4 a step; Swift `PackReader.firstRingMetres`). */
const FIRST_RING_METRES = 250;

/**
 * Every point of an index (`{cells, ids, lats, lons, precision}`) within `radius` metres, as {i, id, d} sorted by
 * (distance, id): ProximityIndex.within.
 */
function within(index, lat, lon, radius) {
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

/** Every point of an index with its distance, sorted by (distance, id): ProximityIndex.bruteForce. */
function everyPoint(index, lat, lon) {
  const hits = [];
  for (let i = 0; i < index.ids.length; i++) hits.push({ i, id: index.ids[i], d: distance(lat, lon, index.lats[i], index.lons[i]) });
  hits.sort((a, b) => a.d - b.d || a.id - b.id);
  return hits;
}

/** Whether row i of the places part has a name of its own (a POI's name or names, a stop's non-empty name). */
function isNamed(places, i) {
  if (i === undefined) return false;
  const name = places.name[i];
  if ((places.id[i] % 4) === 3) return name != null && name !== '';
  return name != null || Object.keys(places.names[i] ?? {}).length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Text helpers

/** `names[locale]`, then shorter prefixes of the tag, then the plain name, then the alphabetically first locale's. */
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
  return keys.length ? names[keys[0]] : null;
}

/** Words as PackReader.matchExpression splits them: runs of letters and digits (marks stay with their letter). */
/** Whether a code point is CJK as `CJKBigrams.isCJK` (Swift) says: ideographs, kana, Hangul. */
function isCJK(v) {
  return (
    (v >= 0x3040 && v <= 0x30ff) || (v >= 0x31f0 && v <= 0x31ff) || (v >= 0xff66 && v <= 0xff9f) ||
    (v >= 0x3400 && v <= 0x4dbf) || (v >= 0x4e00 && v <= 0x9fff) || (v >= 0xf900 && v <= 0xfaff) ||
    (v >= 0x20000 && v <= 0x2fa1f) || (v >= 0xac00 && v <= 0xd7af) || (v >= 0x1100 && v <= 0x11ff) ||
    (v >= 0x3130 && v <= 0x318f)
  );
}

/**
 * Each run of CJK characters as its space-separated bigrams ("海洋博物館" → "海洋 洋博 博物 物館"; one character stays
 * itself), other text unchanged: how the pack indexes names (Swift `CJKBigrams.expand`), so a query word becomes
 * the phrase of its bigrams.
 */
export function cjkBigrams(text) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length === 0) return;
    out.push(' ');
    if (run.length === 1) out.push(run[0]);
    else for (let i = 0; i + 1 < run.length; i++) out.push(i > 0 ? ' ' : '', run[i], run[i + 1]);
    out.push(' ');
    run = [];
  };
  for (const ch of String(text)) {
    if (isCJK(ch.codePointAt(0))) run.push(ch);
    else {
      flush();
      out.push(ch);
    }
  }
  flush();
  return out.join('').trim();
}

export function searchWords(text, maxWords = 16) {
  const words = String(text).match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
  return words.slice(0, maxWords).map((w) => searchFold(Array.from(w).slice(0, 64).join('')));
}

// SEARCH_FOLDS (the generated block at the top, from Swift's SearchFold.table): letters users type without,
// folded in the indexed text (by the writer) and in every query; SQLite's unicode61 keeps ß, æ, ø, … as they are.
const SEARCH_FOLD_PATTERN = new RegExp(`[${Object.keys(SEARCH_FOLDS).join('')}]`, 'gu');

/** `text` with every letter of SEARCH_FOLDS replaced (Swift `SearchFold.apply`). */
export function searchFold(text) {
  return String(text).replace(SEARCH_FOLD_PATTERN, (ch) => SEARCH_FOLDS[ch]);
}

// SQLite's FTS5 `unicode61` tokenizer (remove_diacritics 2), which folds the pack's search table and every query
// the Swift reader runs. It uses Unicode 6.1: code points that were letters, numbers or private use then, and every
// code point unassigned then, are token characters; the rest separate tokens. A token character is lower-cased
// with Unicode 6.1's mappings plus a few case foldings, Latin letters lose their diacritics, and some combining
// diacritics vanish. JavaScript's Unicode tables are newer, so the tables below (made with sqlite3 itself; ranges
// as base-36 "gap+length" from the previous end; scripts/unicode61-tables.mjs remakes them) say where SQLite
// differs; clients/web/test/fold.test.mjs checks every code point against sqlite3.

function decodeRanges(text) {
  const out = [];
  let previous = 0;
  for (const item of text.split(',')) {
    const [gap, length] = item.split('+');
    const start = previous + parseInt(gap, 36);
    previous = start + (length ? parseInt(length, 36) : 0);
    out.push([start, previous]);
  }
  return out;
}

/** Separators: code points that were neither letters, numbers nor private use in Unicode 6.1. */
const UNICODE61_SEPARATORS = decodeRanges(
  "1+11,2+7,b+6,r+5,r+1a,2+6,3,2+2,3,4,o,w,cr+3,d+d,6+6,2,2+g,6,8+1,2,2+8,2+6,7+3,3,3+1p,6,9,6+1,2,33,3w+7,5t+5,16+1,5,2+1i,18+1,c+4,2+l,3+1,18+k,b+3,3,2s,2+e,3+6,g+1,2+d,2,2,v+q,2k+a,1n+8,3+3,t+3,2+8,2+2,2+4,3+e,r+2,3,3q+q,2+3,1j+2,2+h,2+6,b+3,b,h+2,1l,2+6,3+1,3+2,a,b+1,f+1,7+1,6+2,1l,2+4,5+1,3+2,4,v+1,4,c+2,1l,2+7,2+2,2+2,l+1,d+1,g+2,1l,2+6,3+1,3+2,9+1,b+1,d,i,1o+4,4+2,2+3,a,s+7,7+2,1n+6,2+2,2+3,8+1,c+1,s,3+1,1l,2+6,2+2,2+3,8+1,c+1,v+1,1n+6,2+2,2+3,a,b+1,m,9+1,1z,5+5,2,2+7,j+2,1p,3+6,5,8+8,b+1,2e,3+5,2+1,c+5,1g+u,l+b,1e+m,6+a,2+z,2+e,2+c,29+j,c+5,7+3,5+2,2+2,3+6,4+3,e+b,2,b+5,2k,gy+b,14+9,2v,h9+1,i,r+1,27+2,11+2,u+4,s+1,v+1,1t+y,2+3,2,z+e,4b,3b+b,5+b,5,4+1,2z+g,8+1,l+x,o+4,3+1,1i+9,2+s,3,x+6,2+5,2b+4,1c+g,m+y,4+2,v+c,1l+d,9+3,11+j,4+4,1r+1,1t+7,9+o,5,5+2,5o+12,m+3,ce,2+2,c+2,e+2,e+2,e+1,2+2s,6+5,b+4,c+4,i+p,n+w,g+1,2+3,2+1,b,2+2,6+5,2,2,2,5,c+1,5+4,6+3,2,1t+gz,d+12,q+a,2a+25,n+e7,2+38,v+qg,4+9,b0+5,5+2,8+3,2+1,35,f,2p+26,2+b,1x+p,2+2g,d+5x,r+b,5+4,4+o,a+6,6+1,6+2,2i+3,4,2j,45+1,5+9,x+z,t+u,c+t,9,g+v,b+12,g+1q,2+73,535+1r,h3l+1i,1k+1,7i+2,2o+f,x,29+7,9+m,a+1,2w+1,3c,4,5,o+8,b+3,1n+3,9+1,1f+g,a+1,h+h,7+2,18+9,o+c,c,x+3,1c+q,h+1,22+d,d,9+1,f+3,o+2,2,1h,2+2,3+1,6+1,2,t+1,c+6,4+1,6l+a,fn5,b,3t+f,al+1,59+1,3+p,7+6,a+y,2+i,2+3,44,2+e,b+6,r+5,r+a,3f+6,2+6,b+6,75+2,1h+8,1m+g,7+b,1h+19,bm,1d,w7,5k,w,5e+2,2+1,6+3,15+2,5,h+8,13,56+6,xt+2,1i+l,1f+2,1a+h,1r+2,11+d,c+3,1p+2,1d+d,5+3,yr+c,2pl+3,ese+19,h+3,j1q+6t,b+12,3+50,z+1x,57+2e,ob,q,w,q,w,q,w,q,w,q,4kt+1,7j+17,5+2r,d+e,3+d,3+e,2+e,1d+u,2+1n,5+16,24+s,e+16,6+8,8+1,4v+w,g+5,2+1x,4+j,d+10,2+4,m+g,g+1q,2,2+51,2+3,4+1p,3+3,d+n,44+1x,5+a,1d+1x,1n+37,gwi6,v+2n,3l+6n",
);
/** Combining diacritics that unicode61 drops inside a token. */
const UNICODE61_VANISH = decodeRanges("lc+4,2+6,3,2,a,8+5,5+1,2+1");
/** Token characters SQLite leaves as they are (case mappings added after Unicode 6.1; Latin letters it keeps whole). */
const UNICODE61_KEEP = decodeRanges(
  "dd,2,c,e,2,ao,bt,2,2,2,2uq+2d,1p0,7+16,3+2,31s,o6h,2,70,2,2,2,2,d+3,2+4,2,2,2,2,2,2,2,2+3,2,2+1,2,2,2,2,2,2,2,2,p,ibf+z,4d+a,2+e,2+6,2+1,1d7+1e,4e+l,27v+v,gw1+v,1t+o,o5k+x",
);
/** Case foldings SQLite applies where lower-casing does not (µ → μ, ſ → s, ς → σ, …). */
const UNICODE61_FOLD = new Map(
  "51:qk,an:37,dc:dd,de:df,dq:dr,e4:e5,e6:e7,qq:qr,r4:qa,r5:qg,r9:qu,ra:qo,s0:qi,s1:qp,s5:qd,61n:37,69q:qh"
    .split(',')
    .map((pair) => pair.split(':').map((v) => parseInt(v, 36)))
    .map(([cp, folded]) => [cp, String.fromCodePoint(folded)]),
);

function inRanges(ranges, cp) {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ranges[mid][1] < cp) lo = mid + 1;
    else hi = mid;
  }
  return lo < ranges.length && ranges[lo][0] <= cp;
}

function isLatin(cp) {
  return (cp >= 0xc0 && cp <= 0x24f) || (cp >= 0x1e00 && cp <= 0x1eff);
}

function stripMarks(text) {
  return text.normalize('NFD').replace(/\p{Mn}/gu, '');
}

/** One token character as unicode61 folds it. */
function foldChar(ch, cp) {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : ch;
  const folded = UNICODE61_FOLD.get(cp);
  if (folded !== undefined) return folded;
  if (inRanges(UNICODE61_VANISH, cp)) return '';
  if (inRanges(UNICODE61_KEEP, cp)) return ch;
  let lower = ch.toLowerCase();
  if ([...lower].length !== 1) lower = stripMarks(lower); // İ → i̇ → i
  if ([...lower].length !== 1) lower = ch;
  if (isLatin(cp) || isLatin(lower.codePointAt(0))) {
    const base = stripMarks(lower);
    if ([...base].length === 1) return base;
  }
  return lower;
}

/** The tokens unicode61 makes of `text`, folded: what the pack's search table holds for it. */
export function unicode61Tokens(text) {
  const out = [];
  let current = '';
  for (const ch of String(text)) {
    const cp = ch.codePointAt(0);
    if (!inRanges(UNICODE61_SEPARATORS, cp)) {
      current += foldChar(ch, cp);
    } else if (current) {
      out.push(current);
      current = '';
    }
  }
  if (current) out.push(current);
  return out;
}

/** A word as the FTS5 unicode61 tokenizer folds it (its tokens joined; most words are one token). */
export function foldToken(word) {
  return unicode61Tokens(word).join('');
}

function compareStrings(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A query's local date (`YYYY-MM-DD`, as a day number) and time (`HH:MM[:SS]` or seconds since midnight). */
function localDayAndSeconds(date, time) {
  const day = parseDate(date);
  if (day == null) throw new PackError('part', `not a date: ${date}`);
  if (typeof time !== 'string') return { day, seconds: time };
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time.trim());
  if (!m) throw new PackError('part', `not a time: ${time}`);
  return { day, seconds: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0) };
}

function omitNull(object) {
  for (const k of Object.keys(object)) if (object[k] === null || object[k] === undefined) delete object[k];
  return object;
}

// ---------------------------------------------------------------------------------------------------------------
// Service dates

function dayNumber(yyyymmdd) {
  const y = Math.floor(yyyymmdd / 10000);
  const m = Math.floor(yyyymmdd / 100) % 100;
  const d = yyyymmdd % 100;
  return Math.round(Date.UTC(y, m - 1, d) / 86400000);
}

function dateOfDayNumber(n) {
  const t = new Date(n * 86400000);
  return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
}

function dateText(yyyymmdd) {
  const s = String(yyyymmdd).padStart(8, '0');
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}

function parseDate(text) {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(String(text).trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1 || t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  return y * 10000 + mo * 100 + d;
}

function two(n) {
  return String(n).padStart(2, '0');
}

// ---------------------------------------------------------------------------------------------------------------
// The pack

/** An opened web pack. Queries are synchronous once their part is loaded. */
export class CityPack {
  constructor(fetchLike, manifestURL, manifest, signature) {
    this.manifest = manifest;
    /** 'verified', 'unsigned' or 'unverified' (signed, but no public key was given). */
    this.signature = signature;
    this.defaultLocale = manifest.city?.defaultLocale ?? 'en';
    this._fetch = fetchLike;
    this._url = manifestURL;
    this._parts = {};
    this._strings = {};
  }

  /** Names of the parts the manifest lists. */
  get partNames() {
    return this.manifest.web.parts.map((p) => p.name);
  }

  /** Whether a part is loaded. */
  has(name) {
    return name in this._parts;
  }

  /**
   * Fetches, verifies and loads a part (`places`, `search`, `editorial`, `transit`); no-op when loaded. Fetches the
   * part's files only (its head and chunks; `search` also loads `places`, whose chunks hold the search tokens),
   * checks each file's size and SHA-256, and assembles the part.
   */
  async load(name) {
    if (this.has(name)) return;
    if (!this._loading) this._loading = new Map();
    if (!this._loading.has(name)) {
      const pending = this._load(name);
      this._loading.set(name, pending);
      pending.catch(() => this._loading.delete(name));
    }
    await this._loading.get(name);
  }

  async _load(name) {
    const entry = this.manifest.web.parts.find((p) => p.name === name);
    if (!entry) throw new PackError('part', `the pack has no web part '${name}'`);
    // Search rows live in the places chunks: loaded alongside (a failure is reported once, by the await below).
    const before = name === 'search' ? this.load('places') : null;
    before?.catch(() => {});
    const files = [entry, ...(entry.chunks ?? [])];
    const texts = await Promise.all(files.map((f) => this._verifiedText(f)));
    const head = parseJSON(texts[0], entry.path);
    if (head.format !== WEB_FORMAT) throw new PackError('format', `${entry.path}: web format ${head.format} is not supported`);
    let json;
    if (head.assemble === 'text') {
      json = parseJSON(texts.slice(1).join(''), entry.path);
      if (json.format !== WEB_FORMAT) throw new PackError('format', `${entry.path}: web format ${json.format} is not supported`);
    } else if (name === 'places') {
      json = assemblePlaces(head, texts.slice(1).map((t, i) => parseJSON(t, files[i + 1].path)));
    } else if (name === 'search') {
      await before;
      json = assembleSearch(head, this._parts.places);
    } else {
      json = head;
    }
    const loader = { places: loadPlaces, search: loadSearch, editorial: loadEditorial, transit: loadTransit }[name];
    this._parts[name] = loader ? loader(json) : json;
  }

  /** A file's text after its size and SHA-256 are checked against the manifest and it is gunzipped. */
  async _verifiedText(entry) {
    const bytes = await this._verifiedBytes(entry);
    let plain;
    try {
      plain = await gunzip(bytes);
    } catch (e) {
      throw new PackError('part', `${entry.path}: not gzip (${e.message})`);
    }
    return new TextDecoder().decode(plain);
  }

  async _verifiedJSON(entry, gzipped) {
    const bytes = await this._verifiedBytes(entry);
    const plain = gzipped ? await gunzip(bytes) : bytes;
    return JSON.parse(new TextDecoder().decode(plain));
  }

  /** A file's bytes, checked against the manifest's size and SHA-256 (a mismatch names a re-encoding server). */
  async _verifiedBytes(entry) {
    const href = new URL(entry.path, this._url).href;
    const { bytes, encoding } = await fetchResponseBytes(this._fetch, href);
    if (bytes.length !== entry.bytes) {
      throw new PackError('size', `${entry.path}: ${bytes.length} bytes, the manifest says ${entry.bytes}${reencodingHint(entry.path, bytes, encoding)}`);
    }
    const digest = await sha256Hex(bytes);
    if (digest !== entry.sha256) {
      throw new PackError('hash', `${entry.path}: SHA-256 ${digest} is not the manifest's ${entry.sha256}${reencodingHint(entry.path, bytes, encoding)}`);
    }
    return bytes;
  }

  _part(name) {
    const part = this._parts[name];
    if (!part) throw new PackError('part', `the web part '${name}' is not loaded (pack.load('${name}'))`);
    return part;
  }

  // -- places ---------------------------------------------------------------------------------------------------

  /**
   * The city's IANA time zone, the clock of opening hours: the manifest's `city.timezone`, else (older packs) the
   * first feed's, else UTC. As Swift `PackReader.timeZone`.
   * @returns {string}
   */
  get timeZone() {
    const zone = this.manifest.city?.timezone ?? this._parts.transit?.json?.timezones?.[0];
    return typeof zone === 'string' && zone !== '' ? zone : 'UTC';
  }

  _placeRow(places, i, locale, dist, at = Date.now()) {
    const id = places.id[i];
    const stop = (id % 4) === 3;
    const chosen = locale ?? this.defaultLocale;
    let name = displayName(places.names[i], places.name[i], chosen);
    if (name === '') name = null;
    const row = {
      id,
      kind: stop ? 'stop' : 'poi',
      osm: places.osm[i],
      stop_id: places.stopId[i],
      name: name ?? this._label(places, places.category[i], chosen),
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
      ...openAt(places.hours?.[i], this.timeZone, at),
    };
    const partner = places.links.get(id);
    const j = partner === undefined ? undefined : places.rowOf.get(partner);
    if (j !== undefined) {
      row.linked_id = partner;
      if (stop) row.osm = places.osm[j];
      else row.stop_id = places.stopId[j];
    }
    return omitNull(row);
  }

  /** A category's label: the locale, shorter prefixes of its tag, the default locale, English, else the id. */
  _label(places, category, locale) {
    const byLocale = places.labels[category] ?? {};
    const chain = [];
    let tag = locale ?? '';
    while (tag.length > 0) {
      chain.push(tag);
      const cut = Math.max(tag.lastIndexOf('-'), tag.lastIndexOf('_'));
      if (cut < 0) break;
      tag = tag.slice(0, cut);
    }
    chain.push(this.defaultLocale, 'en');
    for (const l of chain) if (Object.prototype.hasOwnProperty.call(byLocale, l) && byLocale[l] !== '') return byLocale[l];
    const plain = category.replaceAll('_', ' ');
    return plain === '' ? '?' : plain;
  }

  /** The proximity index of one category's places (built on first use), or of every place without a category. */
  _index(places, category) {
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

  /** Ids in order, one per place: an id whose place (`groups`, else itself) came earlier is left out (Swift `folded`). */
  _folded(places, ids) {
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

  /** Listing order without a position: named first, stations before other places before entrances, then id. */
  _listingKey(places, id) {
    const i = places.rowOf.get(id);
    const named = isNamed(places, i) ? 0 : 1;
    const category = places.category[i];
    const importance = category === 'transit_station' ? 0 : category === 'transit_entrance' ? 2 : 1;
    return [named, importance, id];
  }

  _byListing(places, ids) {
    const keys = new Map(ids.map((id) => [id, this._listingKey(places, id)]));
    return ids.sort((a, b) => {
      const x = keys.get(a);
      const y = keys.get(b);
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    });
  }

  _rows(places, ids, locale, distances, at) {
    const out = [];
    for (const id of ids) {
      const i = places.rowOf.get(id);
      if (i !== undefined) out.push(this._placeRow(places, i, locale, distances?.get(id) ?? null, at));
    }
    return out;
  }

  /** The instant of an `openAt` option (a Date or UTC milliseconds), or undefined. */
  static _instant(value) {
    if (value == null) return undefined;
    return value instanceof Date ? value.getTime() : Number(value);
  }

  /**
   * POIs and stops within `radius` metres (great-circle), nearest first, ties by id; as `citypack query --near`.
   * A GTFS stop and the OSM feature of the same place are one result (the nearer), carrying the other's id.
   * @param {number} lat degrees
   * @param {number} lon degrees
   * @param {number} [radius=25] metres
   * @param {{limit?: number, offset?: number, locale?: string, category?: string, openAt?: Date|number}} [options]
   *   limit default DEFAULT_NEARBY_LIMIT (50); offset for paging; locale picks display names (default: the pack's
   *   default locale); category keeps only places of that category id; openAt keeps only places open at that
   *   instant in the city's time zone (`timeZone`), and every row's `open` is evaluated then (else now).
   */
  nearby(lat, lon, radius = 25, options = {}) {
    const limit = options.limit ?? DEFAULT_NEARBY_LIMIT;
    const p = this._part('places');
    if (!(limit > 0)) return [];
    const index = this._index(p, options.category);
    const hits = within(index, lat, lon, radius);
    const distances = new Map(hits.map((h) => [h.id, h.d]));
    const at = CityPack._instant(options.openAt);
    const folded = this._folded(p, hits.map((h) => h.id));
    if (at === undefined) return this._rows(p, folded.slice(Math.max(0, options.offset ?? 0)).slice(0, limit), options.locale, distances);
    const open = this._rows(p, folded, options.locale, distances, at).filter((r) => r.open === 'open');
    return open.slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
  }

  /**
   * Places inside a bounding box, for drawing a map: named first, stations before other places before entrances,
   * then id; linked pairs folded. As Swift `places(in:)`.
   * @param {{minLon: number, minLat: number, maxLon: number, maxLat: number}} box degrees (minLon > maxLon crosses
   *   the antimeridian)
   * @param {{category?: string, limit?: number, offset?: number, locale?: string}} [options] limit default
   *   DEFAULT_LISTING_LIMIT (1000)
   */
  places(box, options = {}) {
    const limit = options.limit ?? DEFAULT_LISTING_LIMIT;
    const p = this._part('places');
    if (!(limit > 0)) return [];
    const index = this._index(p, options.category);
    const ids = [];
    for (let r = 0; r < index.cells.length; r++) {
      const lat = index.lats[r];
      const lon = index.lons[r];
      if (!(lat >= box.minLat && lat <= box.maxLat)) continue;
      const inLon = box.minLon <= box.maxLon ? lon >= box.minLon && lon <= box.maxLon : lon >= box.minLon || lon <= box.maxLon;
      if (inLon) ids.push(index.ids[r]);
    }
    const page = this._folded(p, this._byListing(p, ids)).slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
    return this._rows(p, page, options.locale, null);
  }

  /** One POI or stop of the proximity index by id, or null. */
  place(id, locale) {
    const p = this._part('places');
    const i = p.rowOf.get(id);
    return i === undefined ? null : this._placeRow(p, i, locale, null);
  }

  // -- search ---------------------------------------------------------------------------------------------------

  /**
   * Search as `citypack query --search` and Swift `search(_:near:locale:limit:offset:)` (docs/WEB.md, "Search"):
   * a text that names a category (any of its words in English or the city's locales) lists that category's
   * places, nearest first with a position, else named first; any other text is a name query — every word must
   * match (the last also as a prefix), whole-word matches first, each tier by distance with a position, else by
   * SQLite FTS5 bm25 (names weighted 10, terms 1; ties by id) with named places first. Linked pairs are one result.
   * @param {string} text what the user typed
   * @param {string} [locale] locale of the display names (default: the pack's default locale)
   * @param {{near?: {lat: number, lon: number}|[number, number], limit?: number, offset?: number, openAt?: Date|number}} [options]
   *   limit default DEFAULT_SEARCH_LIMIT (20); openAt keeps only places open then, in the same order (as nearby)
   */
  search(text, locale, options = {}) {
    const at = CityPack._instant(options.openAt);
    if (at !== undefined && (options.limit ?? DEFAULT_SEARCH_LIMIT) > 0) {
      // The open places of ever longer pages of all results, until the page is full or the results run out (as Swift).
      const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
      const wanted = Math.max(0, options.offset ?? 0) + limit;
      for (let asked = Math.max(wanted * 4, 64); ; asked *= 4) {
        const all = this.search(text, locale, { near: options.near, limit: asked, offset: 0, evaluatedAt: at });
        const open = all.filter((r) => r.open === 'open');
        if (open.length >= wanted || all.length < asked) return open.slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
      }
    }
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const s = this._part('search');
    const places = this._part('places');
    const words = searchWords(text);
    if (!(limit > 0) || words.length === 0) return [];
    const near = options.near == null ? null : Array.isArray(options.near) ? { lat: options.near[0], lon: options.near[1] } : options.near;
    const wanted = Math.max(0, options.offset ?? 0) + limit;
    // Each word is a phrase of unicode61 tokens (one, unless marks or symbols split it; CJK runs as bigrams), as
    // in Swift's query.
    const phrases = words.map((w) => unicode61Tokens(cjkBigrams(w)));
    const categories = this._categoriesNamed(places, s, phrases.flat().join(' '), locale);
    let ids = [];
    const distances = new Map();
    if (categories.length > 0) {
      if (near) {
        for (const h of this._nearest(places, categories, near.lat, near.lon, wanted)) {
          distances.set(h.id, h.d);
          ids.push(h.id);
        }
      } else {
        const members = new Set();
        for (const c of categories) for (const id of this._index(places, c).ids) members.add(id);
        ids = this._byListing(places, [...members]);
      }
    }
    // A name query; after a category's places (all of them, when fewer than the page needs), its name matches.
    if ((categories.length === 0 || this._folded(places, ids).length < wanted) && !phrases.some((p) => p.length === 0)) {
      const seen = new Set(ids);
      for (const prefixLast of [false, true]) {
        const tier = rankBM25(s, phrases, prefixLast, Infinity).filter((id) => !seen.has(id) && seen.add(id));
        if (near) {
          const measured = [];
          for (const id of tier) {
            const i = places.rowOf.get(id);
            if (i === undefined) continue;
            const d = distance(near.lat, near.lon, places.lat[i], places.lon[i]);
            distances.set(id, d);
            measured.push({ id, d });
          }
          measured.sort((a, b) => a.d - b.d || a.id - b.id);
          ids.push(...measured.map((m) => m.id));
        } else {
          const named = (id) => isNamed(places, places.rowOf.get(id));
          ids.push(...tier.filter(named), ...tier.filter((id) => !named(id)));
        }
      }
    }
    const page = this._folded(places, ids).slice(Math.max(0, options.offset ?? 0)).slice(0, limit);
    return this._rows(places, page, locale, near ? distances : null, options.evaluatedAt);
  }

  /**
   * The categories a query's folded tokens (joined by a space) name, ascending (Swift `categoryQuery`): the
   * built-in words of category-words.js for the pack's categories, in every locale (folded on first use as the
   * search part's words are), and the search part's own `categoryTerms` (the words the table lacks).
   */
  _categoriesNamed(places, s, key, locale) {
    if (!s.categoryWordMap) {
      // Folded word → [{category, language}] (language null: the search part's own terms, in the city's locales).
      const map = new Map();
      const add = (k, c, language) => {
        if (k === '') return;
        const list = map.get(k) ?? [];
        if (!list.some((e) => e.category === c && e.language === language)) list.push({ category: c, language });
        map.set(k, list);
      };
      for (const line of CATEGORY_WORDS.split('\n')) {
        const tab = line.indexOf('\t');
        const category = line.slice(0, tab);
        if (tab < 0 || !Object.prototype.hasOwnProperty.call(places.labels, category)) continue;
        for (const group of line.slice(tab + 1).split('\t')) {
          const language = languageOf(group.slice(0, group.indexOf('=')));
          for (const word of group.slice(group.indexOf('=') + 1).split('|')) add(unicode61Tokens(cjkBigrams(searchFold(word))).join(' '), category, language);
        }
      }
      for (const [k, list] of Object.entries(s.categoryTerms ?? {})) for (const c of list) add(k, c, null);
      s.categoryWordMap = map;
    }
    // Tiers (Swift `categoryQuery`): a word of the reader's language (or the id, or the pack's own terms), else of
    // the city's languages, else of any — in English "bar" is a bar, not the Italian café.
    const reader = new Set([languageOf(locale ?? this.defaultLocale), 'und']);
    const city = new Set((places.locales ?? []).map(languageOf));
    const tiers = [new Set(), new Set(), new Set()];
    for (const { category, language } of s.categoryWordMap.get(key) ?? []) {
      const tier = language === null || reader.has(language) ? 0 : city.has(language) ? 1 : 2;
      for (let t = tier; t < 3; t++) tiers[t].add(category);
    }
    return [...(tiers.find((t) => t.size > 0) ?? [])].sort(compareStrings);
  }

  /** The `count` nearest places of the categories after folding, nearest first (Swift `nearest`): exact. */
  _nearest(places, categories, lat, lon, count) {
    const indexes = categories.map((c) => this._index(places, c));
    const total = indexes.reduce((a, x) => a + x.ids.length, 0);
    if (total === 0 || !Number.isFinite(lat) || !Number.isFinite(lon)) return [];
    const merged = (radius) => {
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
      if (this._folded(places, hits.map((h) => h.id)).length >= count) return hits;
      radius *= 4;
    }
    return merged(Infinity);
  }

  // -- editorial ------------------------------------------------------------------------------------------------

  _pick(texts, locale) {
    if (!texts) return null;
    const keys = Object.keys(texts);
    if (keys.length === 0) return null;
    const chain = [];
    if (locale != null) {
      chain.push(locale);
      const language = locale.split(/[-_]/)[0];
      if (language !== locale) chain.push(language);
    }
    if (!chain.includes(this.defaultLocale)) chain.push(this.defaultLocale);
    for (const l of chain) if (Object.prototype.hasOwnProperty.call(texts, l)) return texts[l];
    return texts[keys.sort()[0]];
  }

  /** Problem cards in display order, titles in `locale` (`homeOnly`: only those on the home screen). */
  cards(locale, { homeOnly = false } = {}) {
    const e = this._part('editorial');
    return e.cards
      .filter((c) => !homeOnly || c.home)
      .map((c) => omitNull({ id: c.id, title: this._pick(c.title, locale) ?? '', icon: c.icon, home: c.home, position: c.position }));
  }

  /** Situations of a card in display order. */
  situations(card, locale) {
    return this._part('editorial')
      .situations.filter((s) => s.card === card)
      .map((s) => omitNull({ id: s.id, card: s.card, title: this._pick(s.title, locale) ?? '', body: this._pick(s.body, locale), position: s.position }));
  }

  /** Actions of a situation in display order. */
  actions(situation, locale) {
    return this._part('editorial')
      .actions.filter((a) => a.situation === situation)
      .map((a) =>
        omitNull({ id: a.id, situation: a.situation, kind: a.kind, target: a.target, label: this._pick(a.label, locale) ?? '', text: this._pick(a.text, locale), position: a.position }),
      );
  }

  _routeRow(r, locale, withWaypoints) {
    const [minLon, minLat, maxLon, maxLat] = r.region;
    const out = omitNull({
      id: r.id,
      name: this._pick(r.name, locale) ?? '',
      description: this._pick(r.description, locale),
      lengthMetres: r.lengthM,
      region: { minLon, minLat, maxLon, maxLat },
      position: r.position,
    });
    out.waypoints = !withWaypoints
      ? []
      : r.waypoints.map((w) => {
          let name = this._pick(w.name, locale);
          if (name == null && w.poi != null && this.has('places')) name = this.place(w.poi, locale)?.name ?? null;
          return omitNull({ sequence: w.sequence, poi: w.poi, lat: w.lat, lon: w.lon, radius: w.radius, name });
        });
    return out;
  }

  /** Walking routes in display order, without waypoints. */
  routes(locale) {
    return this._part('editorial').routes.map((r) => this._routeRow(r, locale, false));
  }

  /** One walking route with its region and waypoints (names from the POIs when the places part is loaded). */
  route(id, locale) {
    const r = this._part('editorial').routes.find((x) => x.id === id);
    return r ? this._routeRow(r, locale, true) : null;
  }

  // -- strings --------------------------------------------------------------------------------------------------

  _stringsLocale(locale) {
    const available = this.manifest.web.strings ?? {};
    const chain = [];
    if (locale != null) {
      chain.push(locale);
      const language = locale.split(/[-_]/)[0];
      if (language !== locale) chain.push(language);
    }
    chain.push(this.defaultLocale);
    return chain.find((l) => l in available) ?? null;
  }

  /** Loads the strings of a locale (its language, else the default locale): `copy/web/<locale>.json`. */
  async loadStrings(locale) {
    const chosen = this._stringsLocale(locale);
    if (chosen == null || chosen in this._strings) return chosen;
    const path = this.manifest.web.strings[chosen];
    const entry = (this.manifest.copy ?? []).find((f) => f.path === path);
    if (!entry) throw new PackError('manifest', `strings ${path} are not listed in the manifest's copy`);
    this._strings[chosen] = await this._verifiedJSON(entry, false);
    return chosen;
  }

  /**
   * A UI string: text in copy syntax (`{name}` placeholders), or an object of CLDR plural forms; null when
   * missing. Call `await pack.loadStrings(locale)` first.
   */
  string(key, locale) {
    const chosen = this._stringsLocale(locale);
    const table = chosen == null ? null : this._strings[chosen];
    if (!table) throw new PackError('part', `strings for '${locale}' are not loaded (await pack.loadStrings('${locale}'))`);
    return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : null;
  }

  // -- transit --------------------------------------------------------------------------------------------------

  /** A stop by GTFS stop_id as `query --departures` prints it (names in `locale`, default the pack's), or null. */
  stop(stopId, locale) {
    const t = this._part('transit');
    const rows = t.byCode.get(String(stopId));
    if (!rows) return null;
    const row = stopRow(t, rows[0]);
    // With the places part: the stop as search and nearby give it (modes as `also`, the linked OSM feature, a
    // label for an unnamed stop), as Swift's TransitReader.stop.
    const places = this._parts.places;
    const i = places?.rowOf.get(row.id);
    if (i !== undefined) return this._placeRow(places, i, locale, null);
    row.named = row.name != null && row.name !== '';
    if (!row.named && places) row.name = this._label(places, row.category, locale ?? this.defaultLocale);
    return row;
  }

  /**
   * What a typed stop name names as a journey's end, as `citypack query --journey NAME` resolves it (Swift
   * `stops(named:locale:)`; stop-names.js): `{kind: 'stop', stop}` (a station standing for its platforms, or one
   * stop), `{kind: 'place', name, lat, lon, stops}` (same-named stops side by side, no station: the point between
   * them), `{kind: 'ambiguous', candidates}` (stations first, then by name and id) or `{kind: 'none'}`; `endpoint`
   * is what journeys() takes (a stop_id or `lat,lon`), null when ambiguous or none. Needs the search, places and
   * transit parts.
   * @param {string} text what the person typed
   * @param {string} [locale] locale of the names (default: the pack's default locale)
   */
  stopsNamed(text, locale) {
    return stopsNamed(text, {
      search: (t) => this.search(t, locale, { limit: NAME_SEARCH_LIMIT }),
      stop: (code) => this.stop(code, locale),
      distance,
      searchFold,
    });
  }

  /**
   * The next departures from a stop (a station includes its platforms) at or after a local date and time, as
   * `citypack query --departures --at` (TransitReader.departures): sorted by time, line name, trip_id, stop_id.
   * @param {string} stopId GTFS stop_id
   * @param {string} date `YYYY-MM-DD`
   * @param {string|number} time `HH:MM` (or `HH:MM:SS`), or seconds since midnight
   * @param {number} [limit=10]
   * @returns {Array<{line, headsign?, time, date, seconds, trip, route_type, colour?, stop_id}>}
   */
  departures(stopId, date, time, limit = 10) {
    const t = this._part('transit');
    const { day, seconds } = localDayAndSeconds(date, time);
    return departures(t, String(stopId), day, seconds, limit);
  }

  /**
   * The dates the timetable covers and where `date` lies, as `citypack query --departures` and `--journey` report
   * them (`"timetable"`; TransitReader.coverage()): from the first date any service may run to the last (calendar
   * ranges and added dates). A date outside has no trips because the data does not reach it: say so.
   * @param {string} date `YYYY-MM-DD`
   * @returns {{first: string, last: string, date: string, position: 'before'|'within'|'after'}|null} null without
   *   services
   */
  timetable(date) {
    const t = this._part('transit');
    if (t.coverage === undefined) t.coverage = serviceRange(t.json);
    if (!t.coverage) return null;
    const day = Number(String(date).replaceAll('-', ''));
    const text = (v) => `${String(Math.floor(v / 10000)).padStart(4, '0')}-${String(Math.floor(v / 100) % 100).padStart(2, '0')}-${String(v % 100).padStart(2, '0')}`;
    const { first, last } = t.coverage;
    return { first: text(first), last: text(last), date: text(day), position: day < first ? 'before' : day > last ? 'after' : 'within' };
  }

  /**
   * Journeys between two places, as `citypack query --journey --format json` lists them (TransitReader.journeys):
   * RAPTOR over the transit part; times are ISO 8601 local date-times with the feed's UTC offset.
   * @param {string} from GTFS stop_id or `lat,lon`
   * @param {string} to GTFS stop_id or `lat,lon`
   * @param {string} date `YYYY-MM-DD` (the feed's local date)
   * @param {string|number} time `HH:MM` (or `HH:MM:SS`), or seconds since midnight
   * @param {{arriveBy?: boolean, window?: number, maxTransfers?: number, maxWalk?: number, minChange?: number,
   *   walkSpeed?: number, wheelchair?: boolean}} [options] window in minutes; maxWalk metres (0: no walking);
   *   minChange seconds; wheelchair: avoid trips and stops marked not accessible
   * @returns {Array<{id, departure, arrival, transfers, legs}>}
   */
  journeys(from, to, date, time, options = {}) {
    const { r, o, day, seconds } = this._journeyQuery(date, time, options);
    const mode = options.arriveBy
      ? { kind: 'arriveBy', window: (options.window ?? 120) * 60 }
      : options.window != null
        ? { kind: 'range', window: options.window * 60 }
        : { kind: 'departAt' };
    const zone = this._part('transit').json.timezones?.[0] ?? '';
    return plan(r, endpoint(from), endpoint(to), day, seconds, mode, o).map((j) => journeyJSON(j, zone));
  }

  /**
   * Resolves a journey id offline (TransitReader.journey(id:)): `{status: 'found', journey}`, `{status: 'gone',
   * nearest}` (nearest may be null) or `{status: 'invalid'}`; journeys as in journeys().
   */
  journey(id, options = {}) {
    const { r, o } = this._journeyQuery('1970-01-01', 0, options);
    const zone = this._part('transit').json.timezones?.[0] ?? '';
    const found = resolve(r, id, o);
    if (found.status === 'found') return { status: 'found', journey: journeyJSON(found.journey, zone) };
    if (found.status === 'gone') return { status: 'gone', nearest: found.nearest ? journeyJSON(found.nearest, zone) : null };
    return found;
  }

  _journeyQuery(date, time, options) {
    const t = this._part('transit');
    const { day, seconds } = localDayAndSeconds(date, time);
    if (!t._routing) t._routing = buildRouting(t);
    const o = {
      maxTransfers: options.maxTransfers ?? JOURNEY_DEFAULTS.maxTransfers,
      walkSpeed: options.walkSpeed ?? JOURNEY_DEFAULTS.walkSpeed,
      maxWalkMetres: options.maxWalk ?? JOURNEY_DEFAULTS.maxWalkMetres,
      minChangeSeconds: options.minChange ?? JOURNEY_DEFAULTS.minChangeSeconds,
      wheelchair: options.wheelchair ?? JOURNEY_DEFAULTS.wheelchair,
    };
    return { r: t._routing, o, day: journeyDayNumber(day), seconds };
  }
}

/**
 * A pack from parts already at hand (bundled with an app, or built in tests): `parts` maps part names to their
 * assembled columns (the layout the loaders take: `places` with `cells`, `counts`, `id`, `lat`, `lon`, `osm`,
 * `category`, `name`, `names`, `tags`, `stopId`, `also`; `search` with `vocab`, `rowid`, `name`, `terms` and
 * `weights`; `editorial` and `transit` as their JSON). No hashes are checked — the caller vouches for the parts.
 */
export function packFromParts(manifest, parts) {
  const pack = new CityPack(null, null, manifest, 'unverified');
  for (const [name, json] of Object.entries(parts)) {
    const loader = { places: loadPlaces, search: loadSearch, editorial: loadEditorial, transit: loadTransit }[name];
    pack._parts[name] = loader ? loader(json) : json;
  }
  return pack;
}

// ---------------------------------------------------------------------------------------------------------------
// Part loaders

function parseJSON(text, path) {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PackError('part', `${path}: not JSON (${e.message})`);
  }
}

/**
 * The places part from its head and row chunks (web format 2), as the columns `loadPlaces` takes (the layout
 * `packFromParts` accepts): cells from each indexed row's coordinates (the same exact grid as Swift's
 * `Geohash`), OSM refs from ids, categories and tag keys from the head's tables. The chunks' search columns
 * (`tokens`, `terms`) are kept for the search part.
 */
function assemblePlaces(head, chunks) {
  const out = {
    format: head.format, city: head.city, defaultLocale: head.defaultLocale, locales: head.locales, precision: head.precision,
    cells: [], counts: [], id: [], lat: [], lon: [], osm: [], category: [], name: [], names: [], tags: [], stopId: [], wheelchair: [], hours: [], also: {},
    tokens: [], terms: [], labels: head.labels ?? {}, links: {}, groups: {},
  };
  const tagKeys = head.tagKeys ?? {};
  let indexedDone = false;
  for (const columns of chunks) {
    if (!Array.isArray(columns) || columns.length !== head.columns.length) throw new PackError('part', 'places: a row chunk does not have the head\'s columns');
    // The chunk's columns by the head's names; null is an absent column.
    const c = {};
    head.columns.forEach((name, k) => {
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
      const tags = {};
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
    for (const [id, codes] of Object.entries(c.also ?? {})) out.also[id] = codes.map((k) => head.categories[k]);
    Object.assign(out.links, c.links ?? {});
    Object.assign(out.groups, c.groups ?? {});
  }
  return out;
}

/**
 * The search part from its head and the places part's rows (web format 2), as the columns `loadSearch` takes:
 * rows are the places with a search row, tokens numbered by a vocabulary made of them.
 */
function assembleSearch(head, places) {
  const vocab = [];
  const index = new Map();
  const number = (text) =>
    text === '' ? [] : text.split(' ').map((t) => {
      let i = index.get(t);
      if (i === undefined) {
        i = vocab.length;
        index.set(t, i);
        vocab.push(t);
      }
      return i;
    });
  const out = { format: head.format, weights: head.weights, vocab, rowid: [], name: [], terms: [], categoryTerms: head.categoryTerms ?? {} };
  for (let i = 0; i < places.id.length; i++) {
    const tokens = places.tokens[i];
    if (tokens == null) continue;
    const terms = head.terms[places.terms[i]];
    if (terms === undefined) throw new PackError('part', `search: no terms '${places.terms[i]}' in the head`);
    out.rowid.push(places.id[i]);
    out.name.push(number(tokens));
    out.terms.push(number(terms));
  }
  return out;
}

function loadPlaces(json) {
  // Rows past sum(counts) are details only (searchable stops outside the index).
  const n = json.counts.reduce((a, c) => a + c, 0);
  const cells = new Float64Array(n);
  let row = 0;
  for (let c = 0; c < json.cells.length; c++) {
    const cell = geohashCell(json.cells[c]);
    for (let k = 0; k < json.counts[c]; k++) cells[row++] = cell;
  }
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

function loadSearch(json) {
  const rows = json.rowid.length;
  const size = new Float64Array(rows);
  let total = 0;
  // Postings per term: rows (ascending) with hits per column.
  const postings = json.vocab.map(() => []);
  for (let r = 0; r < rows; r++) {
    const counts = new Map();
    for (const [column, list] of [[0, json.name[r]], [1, json.terms[r]]]) {
      for (const term of list) {
        let c = counts.get(term);
        if (!c) counts.set(term, (c = [0, 0]));
        c[column] += 1;
      }
    }
    for (const [term, c] of counts) postings[term].push(r, c[0], c[1]);
    size[r] = json.name[r].length + json.terms[r].length;
    total += size[r];
  }
  const termIndex = new Map(json.vocab.map((t, i) => [t, i]));
  const sorted = json.vocab.map((_, i) => i).sort((a, b) => compareStrings(json.vocab[a], json.vocab[b]));
  return {
    vocab: json.vocab,
    weights: json.weights,
    rowid: json.rowid,
    name: json.name,
    terms: json.terms,
    categoryTerms: json.categoryTerms ?? {},
    size,
    rows,
    avgdl: total / rows,
    postings,
    termIndex,
    sorted,
  };
}

/** Vocab indexes of the terms equal to `token`, or (prefix) starting with it. */
function termsFor(s, token, prefix) {
  if (!prefix) {
    const i = s.termIndex.get(token);
    return i === undefined ? [] : [i];
  }
  let lo = 0;
  let hi = s.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.vocab[s.sorted[mid]] < token) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let k = lo; k < s.sorted.length && s.vocab[s.sorted[k]].startsWith(token); k++) out.push(s.sorted[k]);
  return out;
}

/**
 * Row ids matching every token (the last as a prefix when `prefixLast`), ordered as SQLite's
 * `ORDER BY bm25(search, 10.0, 1.0), rowid LIMIT limit` (FTS5's bm25: k1 1.2, b 0.75).
 */
function rankBM25(s, tokens, prefixLast, limit) {
  const k1 = 1.2;
  const b = 0.75;
  const [w0, w1] = s.weights;
  // Per phrase: row → weighted frequency (of the phrase's tokens in a row, consecutive, per column).
  const freqs = tokens.map((phrase, i) => {
    const prefix = prefixLast && i === tokens.length - 1;
    const freq = new Map();
    if (phrase.length === 1) {
      for (const term of termsFor(s, phrase[0], prefix)) {
        const p = s.postings[term];
        for (let k = 0; k < p.length; k += 3) freq.set(p[k], (freq.get(p[k]) ?? 0) + (w0 * p[k + 1] + w1 * p[k + 2]));
      }
      return freq;
    }
    // Several tokens: FTS5's phrase, the prefix (if any) on its last token.
    const sets = phrase.map((token, j) => new Set(termsFor(s, token, prefix && j === phrase.length - 1)));
    const rows = new Set();
    for (const term of sets[0]) {
      const p = s.postings[term];
      for (let k = 0; k < p.length; k += 3) rows.add(p[k]);
    }
    const occurrences = (list) => {
      let n = 0;
      for (let at = 0; at + phrase.length <= list.length; at++) {
        let j = 0;
        while (j < phrase.length && sets[j].has(list[at + j])) j++;
        if (j === phrase.length) n++;
      }
      return n;
    };
    for (const row of rows) {
      const inName = occurrences(s.name[row]);
      const inTerms = occurrences(s.terms[row]);
      if (inName + inTerms > 0) freq.set(row, w0 * inName + w1 * inTerms);
    }
    return freq;
  });
  const idf = freqs.map((f) => {
    const nHit = f.size;
    const v = Math.log((s.rows - nHit + 0.5) / (nHit + 0.5));
    return v <= 0 ? 1e-6 : v;
  });
  let smallest = 0;
  for (let i = 1; i < freqs.length; i++) if (freqs[i].size < freqs[smallest].size) smallest = i;
  const scored = [];
  for (const row of freqs[smallest].keys()) {
    if (!freqs.every((f) => f.has(row))) continue;
    const D = s.size[row];
    let score = 0;
    for (let i = 0; i < freqs.length; i++) {
      const f = freqs[i].get(row);
      score += idf[i] * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * D) / s.avgdl)));
    }
    scored.push({ id: s.rowid[row], rank: -1.0 * score });
  }
  scored.sort((x, y) => x.rank - y.rank || x.id - y.id);
  return scored.slice(0, limit).map((x) => x.id);
}

function loadEditorial(json) {
  return json;
}

/**
 * Decodes the transit part's `patterns` (TimetableCoding in the Swift sources): per pattern its stop ids, trip
 * ids, times stop-major (`departures[i * tripCount + k]`, Int32Array), and its `through` and `frequency` flags.
 */
export function decodePatterns(pt) {
  const out = [];
  let s = 0;
  let tr = 0;
  let tm = 0;
  for (let p = 0; p < pt.flags.length; p++) {
    const n = pt.stopCounts[p];
    const m = pt.tripCounts[p];
    const stops = new Array(n);
    let acc = 0;
    for (let i = 0; i < n; i++) stops[i] = acc += pt.stops[s++];
    const trips = new Array(m);
    acc = 0;
    for (let k = 0; k < m; k++) trips[k] = acc += pt.trips[tr++];
    const arrivals = new Int32Array(n * m);
    const departures = new Int32Array(n * m);
    const row = new Array(2 * n).fill(0);
    for (let k = 0; k < m; k++) {
      for (let j = 0; j < 2 * n; j++) row[j] += pt.times[tm++];
      departures[k] = row[0];
      arrivals[k] = row[0] - row[1];
      for (let i = 1; i < n; i++) {
        arrivals[i * m + k] = departures[(i - 1) * m + k] + row[2 * i];
        departures[i * m + k] = arrivals[i * m + k] + row[2 * i + 1];
      }
    }
    out.push({ stops, trips, arrivals, departures, through: (pt.flags[p] & 1) !== 0, frequency: (pt.flags[p] & 2) !== 0 });
  }
  return out;
}

function loadTransit(json) {
  const st = json.stops;
  const byCode = new Map();
  const stopIndex = new Map();
  const children = new Map();
  st.id.forEach((id, i) => stopIndex.set(id, i));
  // Rows with the same stop_id in (feed, id) order; children of a station in id order.
  const order = st.id.map((_, i) => i).sort((a, b) => st.feed[a] - st.feed[b] || st.id[a] - st.id[b]);
  for (const i of order) {
    const code = st.stopId[i];
    if (!byCode.has(code)) byCode.set(code, []);
    byCode.get(code).push(i);
  }
  for (let i = 0; i < st.id.length; i++) {
    const parent = st.parent[i];
    if (parent == null) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(i);
  }
  for (const list of children.values()) list.sort((a, b) => st.id[a] - st.id[b]);
  // The timetable: patterns decoded once (journeys.js reads the same), and each stop's (pattern, position) pairs.
  const timetable = decodePatterns(json.patterns);
  const stopPatterns = new Map();
  timetable.forEach((pattern, p) => {
    pattern.stops.forEach((stop, i) => {
      if (!stopPatterns.has(stop)) stopPatterns.set(stop, []);
      stopPatterns.get(stop).push([p, i]);
    });
  });
  const index = (ids) => {
    const m = new Map();
    ids.forEach((id, i) => m.set(id, i));
    return m;
  };
  const freqByTrip = new Map();
  json.frequencies.trip.forEach((trip, i) => {
    if (!freqByTrip.has(trip)) freqByTrip.set(trip, []);
    freqByTrip.get(trip).push(i);
  });
  const exceptions = new Map();
  json.serviceDates.service.forEach((service, i) => exceptions.set(`${service}:${json.serviceDates.date[i]}`, json.serviceDates.type[i]));
  return {
    json,
    maxSeconds: json.maxSeconds,
    byCode,
    stopIndex,
    children,
    timetable,
    stopPatterns,
    tripIndex: index(json.trips.id),
    lineIndex: index(json.lines.id),
    serviceIndex: index(json.services.id),
    freqByTrip,
    exceptions,
  };
}

function stopRow(t, i) {
  const st = t.json.stops;
  const type = st.locationType[i];
  return omitNull({
    id: st.id[i],
    kind: 'stop',
    osm: '',
    stop_id: st.stopId[i],
    name: st.name[i],
    category: type === 1 ? 'transit_station' : type === 2 ? 'transit_entrance' : 'transit_stop',
    lat: st.lat[i] ?? 0,
    lon: st.lon[i] ?? 0,
  });
}

function tripInfo(t, id, cache) {
  if (cache.has(id)) return cache.get(id);
  const i = t.tripIndex.get(id);
  let info = null;
  if (i !== undefined) {
    const tr = t.json.trips;
    const li = t.lineIndex.get(tr.line[i]);
    if (li !== undefined) {
      const l = t.json.lines;
      info = {
        tripId: tr.tripId[i],
        service: tr.service[i],
        headsign: tr.headsign[i],
        routeId: l.routeId[li],
        shortName: l.shortName[li],
        longName: l.longName[li],
        type: l.type[li],
        colour: l.colour[li],
      };
      info.lineName = info.shortName ?? info.longName ?? info.routeId;
    }
  }
  cache.set(id, info);
  return info;
}

/** The first and last yyyymmdd any service may run (calendar ranges, added dates), or null. */
function serviceRange(json) {
  let first = Infinity;
  let last = -Infinity;
  const sv = json.services;
  sv.start.forEach((start, i) => {
    if (start != null && sv.end[i] != null && start <= sv.end[i]) {
      first = Math.min(first, start);
      last = Math.max(last, sv.end[i]);
    }
  });
  json.serviceDates.date.forEach((date, i) => {
    if (json.serviceDates.type[i] === 1) {
      first = Math.min(first, date);
      last = Math.max(last, date);
    }
  });
  return first <= last ? { first, last } : null;
}

function serviceRuns(t, service, date, weekday, cache) {
  const key = `${service}:${date}`;
  if (cache.has(key)) return cache.get(key);
  let runs = false;
  const type = t.exceptions.get(key);
  if (type !== undefined) runs = type === 1;
  else {
    const i = t.serviceIndex.get(service);
    const sv = t.json.services;
    if (i !== undefined && sv.start[i] != null && sv.days[i] != null) {
      runs = sv.start[i] <= date && date <= sv.end[i] && (sv.days[i] & (1 << weekday)) !== 0;
    }
  }
  cache.set(key, runs);
  return runs;
}

function departures(t, code, date, seconds, limit) {
  if (!(limit > 0)) return [];
  const st = t.json.stops;
  const serving = [];
  for (const i of t.byCode.get(code) ?? []) {
    serving.push(i);
    for (const c of t.children.get(st.id[i]) ?? []) serving.push(c);
  }
  if (serving.length === 0) return [];
  const trips = new Map();
  const runsCache = new Map();
  const found = [];
  const base = dayNumber(date);
  const daysBack = Math.floor(t.maxSeconds / 86400);
  const make = (trip, stopCode, serviceDate, secs, shift) =>
    ({
      line: trip.lineName,
      headsign: trip.headsign,
      time: `${two(Math.floor((((secs % 86400) + 86400) % 86400) / 3600))}:${two(Math.floor(((((secs % 86400) + 86400) % 86400) % 3600) / 60))}`,
      date: dateText(serviceDate),
      seconds: secs,
      trip: trip.tripId,
      route_type: trip.type,
      colour: trip.colour,
      stop_id: stopCode,
      _key: secs + shift,
    });
  const seen = new Set();
  const add = (trip, tripId, stopCode, stopId, serviceDate, secs, shift) => {
    const key = `${tripId}:${stopId}:${serviceDate}:${secs}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push(make(trip, stopCode, serviceDate, secs, shift));
  };
  for (let dayOffset = -daysBack; dayOffset <= 1; dayOffset++) {
    const serviceDate = dateOfDayNumber(base + dayOffset);
    const weekday = ((((base + dayOffset + 3) % 7) + 7) % 7);
    const shift = dayOffset * 86400;
    const threshold = Math.max(0, seconds - shift);
    if (dayOffset < 0 && threshold > t.maxSeconds) continue;
    for (const i of serving) {
      const stopId = st.id[i];
      const code2 = st.stopId[i];
      // Each pattern's column at the stop is ascending: up to `limit` running trips per pattern (and those
      // sharing the last one's time); frequency patterns from their windows.
      for (const [p, i] of t.stopPatterns.get(stopId) ?? []) {
        const pattern = t.timetable[p];
        const n = pattern.stops.length;
        const m = pattern.trips.length;
        if (!(i < n - 1 || pattern.through)) continue;
        if (pattern.frequency) {
          const offset = pattern.departures[i * m];
          const tripId = pattern.trips[0];
          for (const f of t.freqByTrip.get(tripId) ?? []) {
            const fr = t.json.frequencies;
            const start = fr.start[f];
            const end = fr.end[f];
            const headway = fr.headway[f];
            if (!(headway > 0)) continue;
            const earliest = Math.max(start, threshold - offset);
            let tt = start + Math.trunc((earliest - start + headway - 1) / headway) * headway;
            if (!(tt < end)) continue;
            const trip = tripInfo(t, tripId, trips);
            if (!trip || !serviceRuns(t, trip.service, serviceDate, weekday, runsCache)) continue;
            let produced = 0;
            while (tt < end && produced < limit) {
              add(trip, tripId, code2, stopId, serviceDate, tt + offset, shift);
              produced += 1;
              tt += headway;
            }
          }
          continue;
        }
        let lo = 0;
        let hi = m;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (pattern.departures[i * m + mid] < threshold) lo = mid + 1;
          else hi = mid;
        }
        let accepted = 0;
        let lastSeconds = -Infinity;
        for (let k = lo; k < m; k++) {
          const secs = pattern.departures[i * m + k];
          if (accepted >= limit && secs > lastSeconds) break;
          const trip = tripInfo(t, pattern.trips[k], trips);
          if (!trip || !serviceRuns(t, trip.service, serviceDate, weekday, runsCache)) continue;
          add(trip, pattern.trips[k], code2, stopId, serviceDate, secs, shift);
          accepted += 1;
          lastSeconds = secs;
        }
      }
    }
  }
  found.sort(
    (a, b) => a._key - b._key || compareStrings(a.line, b.line) || compareStrings(a.trip, b.trip) || compareStrings(a.stop_id, b.stop_id),
  );
  return found.slice(0, limit).map((d) => {
    delete d._key;
    return omitNull(d);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// For the pack library (library.js)

/**
 * Checks the Ed25519 signature of a parsed catalog or manifest as `openPack` checks a manifest's (throws
 * PackError('signature') when it is invalid, by another key, or missing while `requireSignature` is set).
 * @param {object} document @param {{publicKey?: string|Uint8Array, requireSignature?: boolean}} [options]
 * @returns {Promise<'verified'|'unsigned'|'unverified'>}
 */
export function verifySignature(document, options = {}) {
  return checkSignature(document, options);
}

/** SHA-256 of bytes as lowercase hex (Web Crypto). */
export function sha256(bytes) {
  return sha256Hex(bytes);
}

/** The language of a BCP 47 tag, lower-cased (`pt-PT` → `pt`), as Swift `PackReader.language`. */
function languageOf(tag) {
  return String(tag ?? '').split(/[-_]/)[0].toLowerCase();
}
