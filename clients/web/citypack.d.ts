// Type declarations for citypack.js (hand-written; checked by clients/web/test/types.test.mjs with `tsc --strict`).

/** Web format version this reader understands (manifest `web.format` and each part's `format`). */
export const WEB_FORMAT: number;
/** Default result counts (the same in CityPackKit and the CLI). */
export const DEFAULT_SEARCH_LIMIT: number;
export const DEFAULT_NEARBY_LIMIT: number;
export const DEFAULT_LISTING_LIMIT: number;
/** How the writer cuts the places rows into chunks (docs/WEB.md). */
export const ROW_CHUNKING: { minBytes: number; maxBytes: number; divisor: number; rowBytes: number };
/** The folds search applies to letters users type without (ß → ss, æ → ae, …; docs/WEB.md). */
export const SEARCH_FOLDS: Record<string, string>;
/** `text` with every letter of SEARCH_FOLDS replaced. */
export function searchFold(text: string): string;
/** Decodes the transit part's packed trip patterns (for tools and tests). */
export function decodePatterns(patterns: unknown): unknown[];

/** Stable codes of PackError. */
export type PackErrorCode = 'manifest' | 'hash' | 'size' | 'signature' | 'format' | 'fetch' | 'part';

/** An error of the reader with a stable `code`. */
export class PackError extends Error {
  constructor(code: PackErrorCode, message: string);
  readonly name: 'PackError';
  readonly code: PackErrorCode;
}

/** What openPack needs of a response: `fetch`'s Response has it. */
export interface ResponseLike {
  ok: boolean;
  status?: number;
  headers?: { get(name: string): string | null } | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}
/** `fetch`, or anything with its shape (a file reader, a storage reader). */
export type FetchLike = (url: string) => Promise<ResponseLike>;

export interface OpenOptions {
  /** Parts to load now (default: every part); others later with `pack.load(name)`. */
  parts?: string[];
  /** Locales whose UI strings to load now (default: the default locale's). */
  strings?: string[];
  /** The trusted Ed25519 public key: base64 of its 32 bytes (the .pub file's line), or the bytes. */
  publicKey?: string | Uint8Array;
  /** Refuse unsigned manifests (needs `publicKey`). */
  requireSignature?: boolean;
}

export interface SignatureOptions {
  publicKey?: string | Uint8Array;
  requireSignature?: boolean;
}
export type SignatureState = 'verified' | 'unsigned' | 'unverified';

/** One content-addressed file of a web part (web format 2): a chunk of rows or a piece of text. */
export interface WebChunk {
  path: string;
  bytes: number;
  sha256: string;
  uncompressedBytes?: number;
}
/** One web part of a manifest: its head file and, in web format 2, the chunks the head names. */
export interface WebPart {
  name: string;
  path: string;
  bytes: number;
  sha256: string;
  uncompressedBytes?: number;
  chunks?: WebChunk[];
}
/** A file of the web flavour, relative to the manifest. */
export interface WebFile {
  path: string;
  bytes: number;
  sha256: string;
}
/** The members of a manifest this reader uses (others pass through). */
export interface Manifest {
  dataVersion: number;
  formatVersion?: number;
  city?: { id?: string; name?: string; defaultLocale?: string; [member: string]: unknown };
  bbox?: number[];
  copy?: WebFile[];
  web: { format: number; parts: WebPart[]; strings?: Record<string, string> };
  keyId?: string;
  signature?: string;
  [member: string]: unknown;
}

/** A POI or stop row, as `citypack query --format json` prints it. */
export interface Place {
  id: number;
  kind: 'poi' | 'stop';
  osm?: string;
  stop_id?: string;
  /** Never empty: an unnamed place has its category's label in the locale (then `named` is false). */
  name: string;
  named: boolean;
  /** The main category (the first of `categories`). */
  category: string;
  /** Every category the place is, main first (a pub with Wi-Fi: ["bar", "wifi"]). */
  categories: string[];
  /** The categories after the main one; absent when none. */
  also?: string[];
  /** The other id of a GTFS stop and OSM feature of the same place (one result). */
  linked_id?: number;
  lat: number;
  lon: number;
  /** Metres, when a position is given (nearby, search near a point). */
  distance_m?: number;
  /** OSM `opening_hours` as in the source; absent when none. */
  opening_hours?: string;
  /** At `openAt`, else now, in the city's time zone: 'unknown' without readable hours or when a holiday decides. */
  open: 'open' | 'closed' | 'unknown';
  /** When `open` changes: ISO 8601 local minute with the offset; absent when unknown or beyond the horizon. */
  next_change?: string;
}
/** A bounding box in degrees (minLon > maxLon crosses the antimeridian). */
export interface Box { minLon: number; minLat: number; maxLon: number; maxLat: number }
/** A place to go from or to in a journey leg. */
export interface JourneyPlace { stop_id?: string; name?: string; lat: number; lon: number }
/** One leg of a journey: a walk, or a ride on one trip. */
export interface JourneyLeg {
  mode: 'walk' | 'ride';
  from: JourneyPlace;
  to: JourneyPlace;
  /** ISO 8601 local date-time with the feed's UTC offset. */
  departure: string;
  arrival: string;
  trip_id?: string;
  route_id?: string;
  line?: string;
  headsign?: string;
  /** Walk legs: metres walked. */
  metres?: number;
  /** Ride legs: the calls between boarding and alighting. */
  stops?: Array<JourneyPlace & { arrival?: string; departure?: string }>;
}
export interface Journey { id: string; departure: string; arrival: string; transfers: number; legs: JourneyLeg[] }
export interface JourneyOptions {
  arriveBy?: boolean;
  /** Minutes. */
  window?: number;
  maxTransfers?: number;
  /** Metres; 0: no walking. */
  maxWalk?: number;
  /** Seconds. */
  minChange?: number;
  /** Metres per second. */
  walkSpeed?: number;
  wheelchair?: boolean;
}
export type JourneyLookup = { status: 'found'; journey: Journey } | { status: 'gone'; nearest: Journey | null } | { status: 'invalid' };
export interface Card { id: string; title: string; icon?: string; home?: boolean; position?: number }
export interface Situation { id: string; card: string; title: string; body?: string; position?: number }
export interface Action { id: string; situation: string; kind: string; target?: string; label: string; text?: string; position?: number }
export interface Waypoint { sequence: number; poi?: number; lat: number; lon: number; radius?: number; name?: string }
export interface Route {
  id: string;
  name: string;
  description?: string;
  lengthMetres: number;
  region: { minLon: number; minLat: number; maxLon: number; maxLat: number };
  position?: number;
  waypoints: Waypoint[];
}
export interface Stop { [member: string]: unknown }
/**
 * What a typed stop name names as a journey's end (`pack.stopsNamed`, Swift `stops(named:locale:)`): one station
 * (standing for its platforms) or stop; same-named stops side by side without a station (the point between
 * them); several places (stations first, then by name and id); or none. `endpoint` is what `journeys()` takes.
 */
export type StopNameMatch =
  | { kind: 'stop'; stop: Place; endpoint: string | null }
  | { kind: 'place'; name: string; lat: number; lon: number; stops: Place[]; endpoint: string }
  | { kind: 'ambiguous'; candidates: Place[]; endpoint: null }
  | { kind: 'none'; endpoint: null };
/** `citypack query --departures/--journey`'s "timetable": a date outside has no trips because the data ends. */
export interface TimetableCoverage {
  first: string;
  last: string;
  date: string;
  position: 'before' | 'within' | 'after';
}

export interface Departure {
  line: string;
  headsign?: string;
  time: string;
  date: string;
  seconds: number;
  trip: string;
  route_type: number;
  colour?: string;
  stop_id: string;
}

/** An opened pack. Queries are synchronous once their part is loaded. */
export class CityPack {
  readonly manifest: Manifest;
  readonly signature: SignatureState;
  readonly defaultLocale: string;
  /** The city's IANA time zone (manifest `city.timezone`), the clock of opening hours. */
  readonly timeZone: string;
  readonly partNames: string[];
  has(name: string): boolean;
  load(name: string): Promise<void>;
  /** POIs and stops within `radius` metres (default 25), nearest first. */
  nearby(lat: number, lon: number, radius?: number, options?: { limit?: number; offset?: number; locale?: string; category?: string; openAt?: Date | number }): Place[];
  places(box: Box, options?: { category?: string; limit?: number; offset?: number; locale?: string }): Place[];
  place(id: number, locale?: string): Place | null;
  search(text: string, locale?: string, options?: { near?: { lat: number; lon: number } | [number, number]; limit?: number; offset?: number; openAt?: Date | number }): Place[];
  cards(locale?: string, options?: { homeOnly?: boolean }): Card[];
  situations(card: string, locale?: string): Situation[];
  actions(situation: string, locale?: string): Action[];
  routes(locale?: string): Route[];
  route(id: string, locale?: string): Route | null;
  loadStrings(locale: string): Promise<string | null>;
  string(key: string, locale?: string): string | Record<string, string> | null;
  stop(stopId: string, locale?: string): Stop | null;
  /** The stop, station or place a typed name means (needs the search, places and transit parts). */
  stopsNamed(text: string, locale?: string): StopNameMatch;
  departures(stopId: string, date: string, time: string | number, limit?: number): Departure[];
  /** The dates the timetable covers and where `date` (YYYY-MM-DD) lies; null without services. */
  timetable(date: string): TimetableCoverage | null;
  /** Journeys (RAPTOR) from and to a GTFS stop_id or `lat,lon`, at a local date and time (docs/JOURNEYS.md). */
  journeys(from: string, to: string, date: string, time: string | number, options?: JourneyOptions): Journey[];
  /** Resolves a journey id offline. */
  journey(id: string, options?: JourneyOptions): JourneyLookup;
}

export function openPack(fetchLike: FetchLike, manifestURL: string, options?: OpenOptions): Promise<CityPack>;
export function packFromParts(manifest: Manifest, parts: Record<string, unknown>): CityPack;
/** Every file the web flavour needs (each part's head and chunks, then the string tables), relative to the manifest. */
export function webFiles(manifest: Manifest): WebFile[];
/** Checks a parsed catalog's or manifest's Ed25519 signature (PackError('signature') when it fails). */
export function verifySignature(document: object, options?: SignatureOptions): Promise<SignatureState>;
/** SHA-256 as lowercase hex. */
export function sha256(bytes: Uint8Array): Promise<string>;
/** Why bytes may not match although the server has the right file (a Content-Encoding, not gzip); '' when neither. */
export function reencodingHint(path: string, bytes: Uint8Array, encoding: string | null): string;
export function canonicalJSON(value: unknown): string;
/** Great-circle distance in metres. */
export function distance(lat1: number, lon1: number, lat2: number, lon2: number): number;
export function geohash(lat: number, lon: number, precision?: number): string;
export function geohashCell(text: string): number;
export function cjkBigrams(text: string): string;
export function searchWords(text: string, maxWords?: number): string[];
export function unicode61Tokens(text: string): string[];
export function foldToken(word: string): string;
