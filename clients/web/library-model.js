// The pack library's model: the catalog format, failure reasons and LibraryError, the records it keeps in storage
// (their keys), which files of a manifest it fetches, and when an installed city's timetable has ended.

import { webFiles } from './format.js';
import { localParts } from './zone.js';

/** @typedef {import('./format.js').Manifest} Manifest */
/** @typedef {import('./format.js').WebFile} WebFile */
/**
 * Why a download or update failed (same raw strings as CityPackKit's).
 * @typedef {'offline'|'timeout'|'server_error'|'not_enough_space'|'damaged'|'tampered'|'older_release'|'unsupported'} FailureReason
 */
/**
 * One state per city of a catalog.
 * - `not_downloaded` with `evicted: true` (and the `version` that was saved): the city was saved, then the browser
 *   evicted its files (noticed on start; copy key `pack.state.evicted`, else the not-downloaded text).
 * - `paused`: a download (or update to `version`) stopped part-way — by a restart, or a failure before it — with
 *   `bytes` of `total` kept in storage (verified files and the kept bytes of a file cut mid-body); `download(city)`
 *   goes on from there. `evicted` as above when the kept files are what eviction left. Copy key `pack.state.paused`
 *   (`{percent}`, `{size}`), else the downloading text.
 * - `on_disk` and `on_disk_out_of_date`: `timetableEnded`, the timetable's last date once it has ended in the
 *   city's time zone (the data is old). `updateBytes`: what the update will fetch (its manifest, or the manifest
 *   patch the catalog lists from the installed version when one applies, and every data file not stored), the same
 *   online and offline; null when the update's manifest could not be fetched yet.
 * @typedef {{kind: 'not_downloaded', evicted?: true, version?: number}
 *   | {kind: 'queued'}
 *   | {kind: 'downloading', bytes: number, total: number}
 *   | {kind: 'paused', version: number, installedVersion: number | null, bytes: number, total: number, evicted?: true}
 *   | {kind: 'applying', installedVersion: number | null}
 *   | {kind: 'on_disk', version: number, timetableEnded?: string}
 *   | {kind: 'on_disk_out_of_date', version: number, update: number, updateBytes: number | null, timetableEnded?: string}
 *   | {kind: 'failed', reason: FailureReason, installedVersion: number | null, status?: number, bytes?: number, message: string}} PackState
 */
/** @typedef {import('./library-storage.js').PackStorage} PackStorage */
/**
 * What the library records for an installed city.
 * @typedef {object} InstalledRecord
 * @property {string} city
 * @property {string} name
 * @property {number} version
 * @property {{sha256: string, bytes: number}} manifest
 * @property {WebFile[]} files The data files and the string tables of `locales` (tables of other locales are fetched when asked).
 * @property {string} [manifestURL] The manifest's URL (tables asked for later resolve against it); absent in records of older libraries.
 * @property {string[]} [locales] The locales whose string tables are stored; absent in records of older libraries (every table stored).
 * @property {{first: string, last: string}} [timetable] The dates the timetable covers (the manifest's `timetable`); absent without transit and in older records.
 * @property {string} [timeZone] The city's IANA time zone (manifest `city.timezone`); absent in older records.
 * @property {string} installedAt
 */
/**
 * A version being downloaded, or an update whose size is learnt (`started` false): record `stage:<city>`.
 * @typedef {object} StageRecord
 * @property {string} city
 * @property {number} version
 * @property {string} [manifestURL]
 * @property {{sha256: string, bytes: number}} manifest
 * @property {WebFile[]} files
 * @property {string[]} [locales]
 * @property {number} total
 * @property {boolean} started
 * @property {{from: number, bytes: number, sha256?: string}} [patch] the manifest came through a patch
 */
/**
 * A catalog entry (the members the library uses; others pass through).
 * @typedef {{id: string, name?: string, dataVersion: number, manifest: string, manifestSha256?: string, bytes?: number, manifestPatches?: any[], [member: string]: unknown}} CatalogEntry
 */
/** @typedef {{formatVersion?: number, packs: CatalogEntry[], [member: string]: unknown}} Catalog */
/**
 * A manifest fetched and checked against its catalog entry: its URL, the parsed document, its bytes and SHA-256
 * (`patch`: it was rebuilt through a manifest patch).
 * @typedef {{url: string, manifest: Manifest & Record<string, any>, bytes: Uint8Array, sha256: string, patch?: {from: number, bytes: number, sha256?: string}}} KnownManifest
 */
/**
 * Options of PackLibrary.
 * @typedef {object} LibraryOptions
 * @property {string} catalogURL URL of catalog.json (relative URLs resolve against the page)
 * @property {PackStorage} [storage] default: IndexedDBStore when IndexedDB exists, else MemoryStore
 * @property {(input: string, init?: RequestInit) => Promise<Response>} [fetch] default: the global fetch
 * @property {string|Uint8Array} [publicKey] trusted Ed25519 key: catalog and manifests must be signed by it
 * @property {boolean} [requireSignature] refuse unsigned catalogs and manifests (default: true with a key)
 * @property {number} [retries] further attempts per file after a dropped or stalled connection or a 5xx (default 3)
 * @property {number} [stallTimeoutMs] milliseconds without a byte before a connection counts as stalled (default 15000)
 * @property {number} [backoffMs] first wait before a retry, doubled each time (default 500)
 * @property {number} [concurrency] requests in flight while a city downloads (default 6: what browsers open per host over HTTP/1.1)
 * @property {string[]|string} [locales] locales whose string tables are downloaded (default: navigator.language; a city without it: its first locale's)
 * @property {number} [checkpointBytes] bytes of a file in flight kept in storage at a time so a restart resumes it (default 262144; 0: whole files only)
 * @property {boolean} [persist] ask for persistent storage (navigator.storage.persist()) on the first download (default true)
 */
/** @typedef {{city: string, name: string, entry: CatalogEntry | null, state: PackState}} CityListing */
/** @typedef {{city: string, state: PackState}} StateChangeDetail */
/** @typedef {{city: string, bytes: number, total: number}} ProgressDetail */
/** @typedef {{persisted: boolean | null}} PersistenceDetail */
/**
 * Copy lookup: the text of a key with `{placeholders}` filled, or the key itself when no table has it.
 * @typedef {(key: string, params?: Record<string, string | number>) => string} CopyFunction
 */

/** Catalog format this library reads (`formatVersion` of catalog.json). */
export const CATALOG_FORMAT = 1;

/** The failure reasons (same raw strings as CityPackKit's). Copy keys: `download_error.<reason>.message|action`. */
export const REASONS = /** @type {readonly FailureReason[]} */ (Object.freeze(['offline', 'timeout', 'server_error', 'not_enough_space', 'damaged', 'tampered', 'older_release', 'unsupported']));

/**
 * A failed library operation: `reason` is one of REASONS; `status` the HTTP status for `server_error`; `bytes`
 * the space needed for `not_enough_space`.
 */
export class LibraryError extends Error {
  /**
   * @param {FailureReason} reason
   * @param {string} message
   * @param {{status?: number, bytes?: number}} [extra]
   */
  constructor(reason, message, extra = {}) {
    super(message);
    /** @type {'LibraryError'} */
    this.name = 'LibraryError';
    /** @readonly */
    this.reason = reason;
    Object.assign(this, extra);
    /** @readonly @type {number | undefined} the HTTP status of a `server_error` */
    this.status;
    /** @readonly @type {number | undefined} the space a `not_enough_space` needs */
    this.bytes;
  }
}

/** @type {(ms: number, signal?: AbortSignal) => Promise<void>} */
export const sleep = (ms, signal) =>
  new Promise((ok, fail) => {
    const t = setTimeout(ok, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); fail(signal.reason); }, { once: true });
  });
export const isAbort = (/** @type {any} */ e) => e?.name === 'AbortError';
export const cityKey = (/** @type {string} */ city) => `city:${city}`;


export const stageKey = (/** @type {string} */ city) => `stage:${city}`;
export const evictedKey = (/** @type {string} */ city) => `evicted:${city}`;
export const partialKey = (/** @type {string} */ sha) => `partial:${sha}`;
export const pieceKey = (/** @type {string} */ sha, /** @type {number} */ i) => `partial:${sha}:${i}`;

/**
 * The string-table locales of a manifest for the locales an app names: each one's table (or its language's), and
 * when none of them has one, the city's first locale (`city.locales[0]`, else its default locale).
 * @param {any} manifest a parsed manifest
 * @param {(string | undefined)[]} wanted
 * @returns {string[]}
 */
export function tableLocales(manifest, wanted) {
  /** @type {Record<string, string>} */
  const available = manifest?.web?.strings ?? {};
  /** @type {string[]} */
  const out = [];
  for (const locale of wanted) {
    const hit = [locale, locale?.split(/[-_]/)[0]].find((l) => l && l in available);
    if (hit && !out.includes(hit)) out.push(hit);
  }
  if (out.length === 0) {
    const first = [manifest?.city?.locales?.[0], manifest?.city?.defaultLocale, ...Object.keys(available).sort()].find((l) => l && l in available);
    if (first) out.push(first);
  }
  return out;
}

/**
 * The files of a version the library fetches: every data file, and the string tables of `locales` only.
 * @param {Manifest} manifest
 * @param {string[]} locales
 * @returns {WebFile[]}
 */
export function neededFiles(manifest, locales) {
  const tables = new Set(Object.values(manifest?.web?.strings ?? {}));
  const chosen = new Set(locales.map((l) => /** @type {Record<string, string>} */ (manifest.web.strings)[l]));
  return webFiles(manifest).filter((f) => !tables.has(f.path) || chosen.has(f.path));
}

/** @type {(files: {bytes: number}[]) => number} */
export const sum = (files) => files.reduce((n, f) => n + f.bytes, 0);

/**
 * @param {Uint8Array[]} chunks
 * @returns {Uint8Array}
 */
export function concat(chunks) {
  const n = chunks.reduce((a, c) => a + c.length, 0);
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The last date of an installed city's timetable when it has ended today in the city's time zone (Swift
 * `InstalledPack.timetableEnded(at:)`), else null; null for records without a timetable (no transit, or installed by
 * an older library).
 * @param {{timetable?: {first: string, last: string}, timeZone?: string}} record
 * @param {number} [now] UTC milliseconds
 * @returns {string | null}
 */
export function timetableEnded(record, now = Date.now()) {
  if (!record?.timetable) return null;
  const p = /** @type {NonNullable<ReturnType<typeof localParts>>} */ (localParts(record.timeZone ?? 'UTC', now) ?? localParts('UTC', now));
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  const today = `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}`;
  return today > record.timetable.last ? record.timetable.last : null;
}
