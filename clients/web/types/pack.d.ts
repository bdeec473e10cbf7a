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
export function openPack(fetchLike: FetchLike, manifestURL: string, options?: OpenOptions | undefined): Promise<CityPack>;
/**
 * A pack from parts already at hand (bundled with an app, or built in tests): `parts` maps part names to their
 * assembled columns (the layout the loaders take: `places` with `cells`, `counts`, `id`, `lat`, `lon`, `osm`,
 * `category`, `name`, `names`, `tags`, `stopId`, `also`; `search` with `vocab`, `rowid`, `name`, `terms` and
 * `weights`; `editorial` and `transit` as their JSON). No hashes are checked — the caller vouches for the parts.
 * @param {Manifest} manifest
 * @param {Record<string, unknown>} parts part name → its assembled columns
 * @returns {CityPack}
 */
export function packFromParts(manifest: Manifest, parts: Record<string, unknown>): CityPack;
/** An opened web pack. Queries are synchronous once their part is loaded. */
export class CityPack {
    /**
     * A pack whose manifest is read (openPack makes them; packFromParts for parts at hand).
     * @param {FetchLike | null} fetchLike
     * @param {URL | null} manifestURL
     * @param {Manifest} manifest
     * @param {SignatureState} signature
     */
    constructor(fetchLike: FetchLike | null, manifestURL: URL | null, manifest: Manifest, signature: SignatureState);
    /** @readonly */
    readonly manifest: import("./format.js").Manifest;
    /** 'verified', 'unsigned' or 'unverified' (signed, but no public key was given). */
    /** @readonly */
    readonly signature: import("./format.js").SignatureState;
    /** @readonly */
    readonly defaultLocale: string;
    /** @private */
    private _fetch;
    /** @private */
    private _url;
    /** @type {Parts} */
    _parts: Parts;
    /** @private @type {Record<string, Record<string, string | Record<string, string>>>} */
    private _strings;
    /** @private @type {Map<string, Promise<void>> | undefined} */
    private _loading;
    /**
     * Names of the parts the manifest lists.
     * @returns {string[]}
     */
    get partNames(): string[];
    /**
     * Whether a part is loaded.
     * @param {string} name
     * @returns {boolean}
     */
    has(name: string): boolean;
    /**
     * Fetches, verifies and loads a part (`places`, `search`, `editorial`, `transit`); no-op when loaded. Fetches the
     * part's files only (its head and chunks; `search` also loads `places`, whose chunks hold the search tokens),
     * checks each file's size and SHA-256, and assembles the part.
     * @param {string} name
     * @returns {Promise<void>}
     */
    load(name: string): Promise<void>;
    /**
     * @private
     * @param {string} name
     */
    private _load;
    /**
     * A loaded part (PackError('part') when it is not loaded).
     * @template {keyof Parts} K
     * @param {K} name
     * @returns {NonNullable<Parts[K]>}
     */
    _part<K extends keyof Parts>(name: K): NonNullable<Parts[K]>;
    /**
     * The city's IANA time zone, the clock of opening hours: the manifest's `city.timezone`, else (older packs) the
     * first feed's, else UTC. As Swift `PackReader.timeZone`.
     * @returns {string}
     */
    get timeZone(): string;
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
    nearby(lat: number, lon: number, radius?: number | undefined, options?: import("./places.js").NearbyOptions | undefined): Place[];
    /**
     * Places inside a bounding box, for drawing a map: named first, stations before other places before entrances,
     * then id; linked pairs folded. As Swift `places(in:)`.
     * @param {Box} box degrees (minLon > maxLon crosses the antimeridian)
     * @param {ListingOptions} [options] limit default
     *   DEFAULT_LISTING_LIMIT (1000)
     * @returns {Place[]}
     */
    places(box: Box, options?: import("./places.js").ListingOptions | undefined): Place[];
    /**
     * One POI or stop of the proximity index by id, or null.
     * @param {number} id
     * @param {string} [locale]
     * @returns {Place | null}
     */
    place(id: number, locale?: string | undefined): Place | null;
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
    search(text: string, locale?: string | undefined, options?: import("./search.js").SearchOptions | undefined): Place[];
    /**
     * Problem cards in display order, titles in `locale` (`homeOnly`: only those on the home screen).
     * @param {string} [locale]
     * @param {{homeOnly?: boolean}} [options]
     * @returns {Card[]}
     */
    cards(locale?: string | undefined, options?: {
        homeOnly?: boolean | undefined;
    } | undefined): Card[];
    /**
     * Situations of a card in display order.
     * @param {string} card
     * @param {string} [locale]
     * @returns {Situation[]}
     */
    situations(card: string, locale?: string | undefined): Situation[];
    /**
     * Actions of a situation in display order.
     * @param {string} situation
     * @param {string} [locale]
     * @returns {Action[]}
     */
    actions(situation: string, locale?: string | undefined): Action[];
    /**
     * Walking routes in display order, without waypoints.
     * @param {string} [locale]
     * @returns {Route[]}
     */
    routes(locale?: string | undefined): Route[];
    /**
     * One walking route with its region and waypoints (names from the POIs when the places part is loaded).
     * @param {string} id
     * @param {string} [locale]
     * @returns {Route | null}
     */
    route(id: string, locale?: string | undefined): Route | null;
    /**
     * @private
     * @param {string | undefined} locale
     * @returns {string | null}
     */
    private _stringsLocale;
    /**
     * Loads the strings of a locale (its language, else the default locale): `copy/web/<locale>.json`.
     * @param {string} locale
     * @returns {Promise<string | null>} the locale whose table was chosen
     */
    loadStrings(locale: string): Promise<string | null>;
    /**
     * A UI string: text in copy syntax (`{name}` placeholders), or an object of CLDR plural forms; null when
     * missing. Call `await pack.loadStrings(locale)` first.
     * @param {string} key
     * @param {string} [locale]
     * @returns {string | Record<string, string> | null}
     */
    string(key: string, locale?: string | undefined): string | Record<string, string> | null;
    /**
     * A stop by GTFS stop_id as `query --departures` prints it (names in `locale`, default the pack's), or null.
     * @param {string} stopId
     * @param {string} [locale]
     * @returns {Stop | null}
     */
    stop(stopId: string, locale?: string | undefined): Stop | null;
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
    stopsNamed(text: string, locale?: string | undefined): StopNameMatch;
    /**
     * The next departures from a stop (a station includes its platforms) at or after a local date and time, as
     * `citypack query --departures --at` (TransitReader.departures): sorted by time, line name, trip_id, stop_id.
     * @param {string} stopId GTFS stop_id
     * @param {string} date `YYYY-MM-DD`
     * @param {string|number} time `HH:MM` (or `HH:MM:SS`), or seconds since midnight
     * @param {number} [limit=10]
     * @returns {Departure[]}
     */
    departures(stopId: string, date: string, time: string | number, limit?: number | undefined): Departure[];
    /**
     * The dates the timetable covers and where `date` lies, as `citypack query --departures` and `--journey` report
     * them (`"timetable"`; TransitReader.coverage()): from the first date any service may run to the last (calendar
     * ranges and added dates). A date outside has no trips because the data does not reach it: say so.
     * @param {string} date `YYYY-MM-DD`
     * @returns {TimetableCoverage | null} null without
     *   services
     */
    timetable(date: string): TimetableCoverage | null;
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
    journeys(from: string, to: string, date: string, time: string | number, options?: import("./journey-json.js").JourneyOptions | undefined): Journey[];
    /**
     * Resolves a journey id offline (TransitReader.journey(id:)): `{status: 'found', journey}`, `{status: 'gone',
     * nearest}` (nearest may be null) or `{status: 'invalid'}`; journeys as in journeys().
     * @param {string} id
     * @param {JourneyOptions} [options]
     * @returns {JourneyLookup}
     */
    journey(id: string, options?: import("./journey-json.js").JourneyOptions | undefined): JourneyLookup;
}
export type FetchLike = import('./format.js').FetchLike;
export type Manifest = import('./format.js').Manifest;
export type SignatureState = import('./format.js').SignatureState;
export type WebFile = import('./format.js').WebFile;
export type Place = import('./places.js').Place;
export type Box = import('./places.js').Box;
export type NearbyOptions = import('./places.js').NearbyOptions;
export type ListingOptions = import('./places.js').ListingOptions;
export type SearchOptions = import('./search.js').SearchOptions;
export type Card = import('./editorial.js').Card;
export type Situation = import('./editorial.js').Situation;
export type Action = import('./editorial.js').Action;
export type Route = import('./editorial.js').Route;
export type Departure = import('./timetable.js').Departure;
export type TimetableCoverage = import('./timetable.js').TimetableCoverage;
export type Journey = import('./journey-json.js').Journey;
export type JourneyOptions = import('./journey-json.js').JourneyOptions;
export type JourneyLookup = import('./journey-json.js').JourneyLookup;
export type StopNameMatch = import('./stop-names.js').StopNameMatch;
/**
 * Options of openPack: `parts` to load now (default: every part; others later with `pack.load(name)`), `strings`:
 * locales whose UI strings to load now (default: the default locale's), `publicKey`: the trusted Ed25519 public key
 * (base64 of its 32 bytes, the .pub file's line, or the bytes), `requireSignature`: refuse unsigned manifests.
 */
export type OpenOptions = {
    parts?: string[] | undefined;
    strings?: string[] | undefined;
    publicKey?: string | Uint8Array | undefined;
    requireSignature?: boolean | undefined;
};
/**
 * A stop by GTFS stop_id as `query --departures` prints it (with the places part: as search and nearby give it).
 */
export type Stop = Place | import('./timetable.js').StopRow;
/**
 * The loaded parts of a pack.
 */
export type Parts = {
    places?: import('./places.js').PlacesPart;
    search?: import('./search.js').SearchPart;
    editorial?: import('./editorial.js').EditorialPart;
    transit?: import('./timetable.js').TransitPart;
};
import { search } from "./search.js";
import * as editorial from "./editorial.js";
