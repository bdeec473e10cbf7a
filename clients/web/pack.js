// The pack: `openPack` fetches and verifies a manifest and its web parts, and `CityPack` answers nearby, search,
// cards, routes, strings, departures and journeys with the same results as the Swift reader (CityPackKit),
// delegating to the modules of each job (places.js, search.js, editorial.js, timetable.js, journeys.js).

import { DEFAULT_DEPARTURES_LIMIT, DEFAULT_RADIUS, WEB_FORMAT } from './constants.js';
import * as editorial from './editorial.js';
import { PackError, checkSignature, fetchBytes, parseJSON, verifiedJSON, verifiedText } from './format.js';
import { journeyById, journeysBetween } from './journeys.js';
import { assemblePlaces, label, loadPlaces, nearby, placeRow, placesInBox } from './places.js';
import { distance } from './proximity.js';
import { assembleSearch, loadSearch, search } from './search.js';
import { NAME_SEARCH_LIMIT, stopsNamed } from './stop-names.js';
import { coverage, departures, loadTransit, stopRow } from './timetable.js';
import { localDayAndSeconds } from './dates.js';
import { searchFold } from './tokens.js';

/** @typedef {import('./format.js').FetchLike} FetchLike */
/** @typedef {import('./format.js').Manifest} Manifest */
/** @typedef {import('./format.js').SignatureState} SignatureState */
/** @typedef {import('./format.js').WebFile} WebFile */
/** @typedef {import('./places.js').Place} Place */
/** @typedef {import('./places.js').Box} Box */
/** @typedef {import('./places.js').NearbyOptions} NearbyOptions */
/** @typedef {import('./places.js').ListingOptions} ListingOptions */
/** @typedef {import('./search.js').SearchOptions} SearchOptions */
/** @typedef {import('./editorial.js').Card} Card */
/** @typedef {import('./editorial.js').Situation} Situation */
/** @typedef {import('./editorial.js').Action} Action */
/** @typedef {import('./editorial.js').Route} Route */
/** @typedef {import('./timetable.js').Departure} Departure */
/** @typedef {import('./timetable.js').TimetableCoverage} TimetableCoverage */
/** @typedef {import('./journey-json.js').Journey} Journey */
/** @typedef {import('./journey-json.js').JourneyOptions} JourneyOptions */
/** @typedef {import('./journey-json.js').JourneyLookup} JourneyLookup */
/** @typedef {import('./stop-names.js').StopNameMatch} StopNameMatch */
/**
 * Options of openPack: `parts` to load now (default: every part; others later with `pack.load(name)`), `strings`:
 * locales whose UI strings to load now (default: the default locale's), `publicKey`: the trusted Ed25519 public key
 * (base64 of its 32 bytes, the .pub file's line, or the bytes), `requireSignature`: refuse unsigned manifests.
 * @typedef {object} OpenOptions
 * @property {string[]} [parts]
 * @property {string[]} [strings]
 * @property {string|Uint8Array} [publicKey]
 * @property {boolean} [requireSignature]
 */
/**
 * A stop by GTFS stop_id as `query --departures` prints it (with the places part: as search and nearby give it).
 * @typedef {Place | import('./timetable.js').StopRow} Stop
 */
/**
 * The loaded parts of a pack.
 * @typedef {{places?: import('./places.js').PlacesPart, search?: import('./search.js').SearchPart, editorial?: import('./editorial.js').EditorialPart, transit?: import('./timetable.js').TransitPart}} Parts
 */

/** The loader of each part: its assembled columns → what the queries read. */
const LOADERS = { places: loadPlaces, search: loadSearch, editorial: editorial.loadEditorial, transit: loadTransit };

/**
 * Fetches and verifies a manifest, then fetches, verifies (SHA-256 and size) and gunzips the web parts.
 *
 * @param {FetchLike} fetchLike
 *   `fetch` or anything with its shape (Node tests pass a file reader).
 * @param {string} manifestURL URL of `manifest.json` (relative URLs resolve against the page).
 * @param {OpenOptions} [options]
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
  /** @type {Manifest} */
  let manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch (/** @type {any} */ e) {
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

/** An opened web pack. Queries are synchronous once their part is loaded. */
export class CityPack {
  /**
   * A pack whose manifest is read (openPack makes them; packFromParts for parts at hand).
   * @param {FetchLike | null} fetchLike
   * @param {URL | null} manifestURL
   * @param {Manifest} manifest
   * @param {SignatureState} signature
   */
  constructor(fetchLike, manifestURL, manifest, signature) {
    /** @readonly */
    this.manifest = manifest;
    /** 'verified', 'unsigned' or 'unverified' (signed, but no public key was given). */
    /** @readonly */
    this.signature = signature;
    /** @readonly */
    this.defaultLocale = manifest.city?.defaultLocale ?? 'en';
    /** @private */
    this._fetch = /** @type {FetchLike} */ (fetchLike);
    /** @private */
    this._url = /** @type {URL} */ (manifestURL);
    /** @type {Parts} */
    this._parts = {};
    /** @private @type {Record<string, Record<string, string | Record<string, string>>>} */
    this._strings = {};
    /** @private @type {Map<string, Promise<void>> | undefined} */
    this._loading = undefined;
  }

  /**
   * Names of the parts the manifest lists.
   * @returns {string[]}
   */
  get partNames() {
    return this.manifest.web.parts.map((p) => p.name);
  }

  /**
   * Whether a part is loaded.
   * @param {string} name
   * @returns {boolean}
   */
  has(name) {
    return name in this._parts;
  }

  /**
   * Fetches, verifies and loads a part (`places`, `search`, `editorial`, `transit`); no-op when loaded. Fetches the
   * part's files only (its head and chunks; `search` also loads `places`, whose chunks hold the search tokens),
   * checks each file's size and SHA-256, and assembles the part.
   * @param {string} name
   * @returns {Promise<void>}
   */
  async load(name) {
    if (this.has(name)) return;
    if (!this._loading) this._loading = new Map();
    if (!this._loading.has(name)) {
      const pending = this._load(name);
      this._loading.set(name, pending);
      pending.catch(() => this._loading?.delete(name));
    }
    await this._loading.get(name);
  }

  /**
   * @private
   * @param {string} name
   */
  async _load(name) {
    const entry = this.manifest.web.parts.find((p) => p.name === name);
    if (!entry) throw new PackError('part', `the pack has no web part '${name}'`);
    // Search rows live in the places chunks: loaded alongside (a failure is reported once, by the await below).
    const before = name === 'search' ? this.load('places') : null;
    before?.catch(() => {});
    const files = [entry, ...(entry.chunks ?? [])];
    const texts = await Promise.all(files.map((f) => verifiedText(this._fetch, this._url, f)));
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
      json = assembleSearch(head, /** @type {import('./places.js').PlacesPart} */ (this._parts.places));
    } else {
      json = head;
    }
    const loader = /** @type {Record<string, (json: any) => unknown>} */ (LOADERS)[name];
    /** @type {Record<string, unknown>} */ (this._parts)[name] = loader ? loader(json) : json;
  }

  /**
   * A loaded part (PackError('part') when it is not loaded).
   * @template {keyof Parts} K
   * @param {K} name
   * @returns {NonNullable<Parts[K]>}
   */
  _part(name) {
    const part = this._parts[name];
    if (!part) throw new PackError('part', `the web part '${name}' is not loaded (pack.load('${name}'))`);
    return /** @type {NonNullable<Parts[K]>} */ (part);
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

  /**
   * POIs and stops within `radius` metres (great-circle), nearest first, ties by id; as `citypack query --near`.
   * A GTFS stop and the OSM feature of the same place are one result (the nearer), carrying the other's id.
   * @param {number} lat degrees
   * @param {number} lon degrees
   * @param {number} [radius=25] metres
   * @param {NearbyOptions} [options]
   *   limit default DEFAULT_NEARBY_LIMIT (50); offset for paging; locale picks display names (default: the pack's
   *   default locale); category keeps only places of that category id; openAt keeps only places open at that
   *   instant in the city's time zone (`timeZone`), and every row's `open` is evaluated then (else now).
   * @returns {Place[]}
   */
  nearby(lat, lon, radius = DEFAULT_RADIUS, options = {}) {
    return nearby(this, lat, lon, radius, options);
  }

  /**
   * Places inside a bounding box, for drawing a map: named first, stations before other places before entrances,
   * then id; linked pairs folded. As Swift `places(in:)`.
   * @param {Box} box degrees (minLon > maxLon crosses the antimeridian)
   * @param {ListingOptions} [options] limit default
   *   DEFAULT_LISTING_LIMIT (1000)
   * @returns {Place[]}
   */
  places(box, options = {}) {
    return placesInBox(this, box, options);
  }

  /**
   * One POI or stop of the proximity index by id, or null.
   * @param {number} id
   * @param {string} [locale]
   * @returns {Place | null}
   */
  place(id, locale) {
    const p = this._part('places');
    const i = p.rowOf.get(id);
    return i === undefined ? null : placeRow(this, p, i, locale, null);
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
   * @param {SearchOptions} [options]
   *   limit default DEFAULT_SEARCH_LIMIT (20); openAt keeps only places open then, in the same order (as nearby)
   * @returns {Place[]}
   */
  search(text, locale, options = {}) {
    return search(this, text, locale, options);
  }

  // -- editorial ------------------------------------------------------------------------------------------------

  /**
   * Problem cards in display order, titles in `locale` (`homeOnly`: only those on the home screen).
   * @param {string} [locale]
   * @param {{homeOnly?: boolean}} [options]
   * @returns {Card[]}
   */
  cards(locale, options) {
    return editorial.cards(this, locale, options);
  }

  /**
   * Situations of a card in display order.
   * @param {string} card
   * @param {string} [locale]
   * @returns {Situation[]}
   */
  situations(card, locale) {
    return editorial.situations(this, card, locale);
  }

  /**
   * Actions of a situation in display order.
   * @param {string} situation
   * @param {string} [locale]
   * @returns {Action[]}
   */
  actions(situation, locale) {
    return editorial.actions(this, situation, locale);
  }

  /**
   * Walking routes in display order, without waypoints.
   * @param {string} [locale]
   * @returns {Route[]}
   */
  routes(locale) {
    return editorial.routes(this, locale);
  }

  /**
   * One walking route with its region and waypoints (names from the POIs when the places part is loaded).
   * @param {string} id
   * @param {string} [locale]
   * @returns {Route | null}
   */
  route(id, locale) {
    return editorial.route(this, id, locale);
  }

  // -- strings --------------------------------------------------------------------------------------------------

  /**
   * @private
   * @param {string | undefined} locale
   * @returns {string | null}
   */
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

  /**
   * Loads the strings of a locale (its language, else the default locale): `copy/web/<locale>.json`.
   * @param {string} locale
   * @returns {Promise<string | null>} the locale whose table was chosen
   */
  async loadStrings(locale) {
    const chosen = this._stringsLocale(locale);
    if (chosen == null || chosen in this._strings) return chosen;
    const path = /** @type {Record<string, string>} */ (this.manifest.web.strings)[chosen];
    const entry = (this.manifest.copy ?? []).find((f) => f.path === path);
    if (!entry) throw new PackError('manifest', `strings ${path} are not listed in the manifest's copy`);
    this._strings[chosen] = await verifiedJSON(this._fetch, this._url, entry, false);
    return chosen;
  }

  /**
   * A UI string: text in copy syntax (`{name}` placeholders), or an object of CLDR plural forms; null when
   * missing. Call `await pack.loadStrings(locale)` first.
   * @param {string} key
   * @param {string} [locale]
   * @returns {string | Record<string, string> | null}
   */
  string(key, locale) {
    const chosen = this._stringsLocale(locale);
    const table = chosen == null ? null : this._strings[chosen];
    if (!table) throw new PackError('part', `strings for '${locale}' are not loaded (await pack.loadStrings('${locale}'))`);
    return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : null;
  }

  // -- transit --------------------------------------------------------------------------------------------------

  /**
   * A stop by GTFS stop_id as `query --departures` prints it (names in `locale`, default the pack's), or null.
   * @param {string} stopId
   * @param {string} [locale]
   * @returns {Stop | null}
   */
  stop(stopId, locale) {
    const t = this._part('transit');
    const rows = t.byCode.get(String(stopId));
    if (!rows) return null;
    const row = stopRow(t, rows[0]);
    // With the places part: the stop as search and nearby give it (modes as `also`, the linked OSM feature, a
    // label for an unnamed stop), as Swift's TransitReader.stop.
    const places = this._parts.places;
    const i = places?.rowOf.get(row.id);
    if (places && i !== undefined) return placeRow(this, places, i, locale, null);
    row.named = row.name != null && row.name !== '';
    if (!row.named && places) row.name = label(this, places, row.category, locale ?? this.defaultLocale);
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
   * @returns {StopNameMatch}
   */
  stopsNamed(text, locale) {
    return stopsNamed(text, {
      search: (t) => this.search(t, locale, { limit: NAME_SEARCH_LIMIT }),
      stop: (code) => /** @type {Place | null} */ (this.stop(code, locale)),
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
   * @returns {Departure[]}
   */
  departures(stopId, date, time, limit = DEFAULT_DEPARTURES_LIMIT) {
    const t = this._part('transit');
    const { day, seconds } = localDayAndSeconds(date, time);
    return departures(t, String(stopId), day, seconds, limit);
  }

  /**
   * The dates the timetable covers and where `date` lies, as `citypack query --departures` and `--journey` report
   * them (`"timetable"`; TransitReader.coverage()): from the first date any service may run to the last (calendar
   * ranges and added dates). A date outside has no trips because the data does not reach it: say so.
   * @param {string} date `YYYY-MM-DD`
   * @returns {TimetableCoverage | null} null without
   *   services
   */
  timetable(date) {
    return coverage(this._part('transit'), date);
  }

  /**
   * Journeys between two places, as `citypack query --journey --format json` lists them (TransitReader.journeys):
   * RAPTOR over the transit part; times are ISO 8601 local date-times with the feed's UTC offset.
   * @param {string} from GTFS stop_id or `lat,lon`
   * @param {string} to GTFS stop_id or `lat,lon`
   * @param {string} date `YYYY-MM-DD` (the feed's local date)
   * @param {string|number} time `HH:MM` (or `HH:MM:SS`), or seconds since midnight
   * @param {JourneyOptions} [options] window in minutes; maxWalk metres (0: no walking);
   *   minChange seconds; wheelchair: avoid trips and stops marked not accessible
   * @returns {Journey[]}
   */
  journeys(from, to, date, time, options = {}) {
    return journeysBetween(this._part('transit'), from, to, date, time, options);
  }

  /**
   * Resolves a journey id offline (TransitReader.journey(id:)): `{status: 'found', journey}`, `{status: 'gone',
   * nearest}` (nearest may be null) or `{status: 'invalid'}`; journeys as in journeys().
   * @param {string} id
   * @param {JourneyOptions} [options]
   * @returns {JourneyLookup}
   */
  journey(id, options = {}) {
    return journeyById(this._part('transit'), id, options);
  }
}

/**
 * A pack from parts already at hand (bundled with an app, or built in tests): `parts` maps part names to their
 * assembled columns (the layout the loaders take: `places` with `cells`, `counts`, `id`, `lat`, `lon`, `osm`,
 * `category`, `name`, `names`, `tags`, `stopId`, `also`; `search` with `vocab`, `rowid`, `name`, `terms` and
 * `weights`; `editorial` and `transit` as their JSON). No hashes are checked — the caller vouches for the parts.
 * @param {Manifest} manifest
 * @param {Record<string, unknown>} parts part name → its assembled columns
 * @returns {CityPack}
 */
export function packFromParts(manifest, parts) {
  const pack = new CityPack(null, null, manifest, 'unverified');
  for (const [name, json] of Object.entries(parts)) {
    const loader = /** @type {Record<string, (json: any) => unknown>} */ (LOADERS)[name];
    /** @type {Record<string, unknown>} */ (pack._parts)[name] = loader ? loader(json) : json;
  }
  return pack;
}
