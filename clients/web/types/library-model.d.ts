/**
 * The string-table locales of a manifest for the locales an app names: each one's table (or its language's), and
 * when none of them has one, the city's first locale (`city.locales[0]`, else its default locale).
 * @param {any} manifest a parsed manifest
 * @param {(string | undefined)[]} wanted
 * @returns {string[]}
 */
export function tableLocales(manifest: any, wanted: (string | undefined)[]): string[];
/**
 * The files of a version the library fetches: every data file, and the string tables of `locales` only.
 * @param {Manifest} manifest
 * @param {string[]} locales
 * @returns {WebFile[]}
 */
export function neededFiles(manifest: Manifest, locales: string[]): WebFile[];
/**
 * @param {Uint8Array[]} chunks
 * @returns {Uint8Array}
 */
export function concat(chunks: Uint8Array[]): Uint8Array;
/**
 * The last date of an installed city's timetable when it has ended today in the city's time zone (Swift
 * `InstalledPack.timetableEnded(at:)`), else null; null for records without a timetable (no transit, or installed by
 * an older library).
 * @param {{timetable?: {first: string, last: string}, timeZone?: string}} record
 * @param {number} [now] UTC milliseconds
 * @returns {string | null}
 */
export function timetableEnded(record: {
    timetable?: {
        first: string;
        last: string;
    };
    timeZone?: string;
}, now?: number | undefined): string | null;
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
export const CATALOG_FORMAT: 1;
/** The failure reasons (same raw strings as CityPackKit's). Copy keys: `download_error.<reason>.message|action`. */
export const REASONS: readonly FailureReason[];
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
    constructor(reason: FailureReason, message: string, extra?: {
        status?: number | undefined;
        bytes?: number | undefined;
    } | undefined);
    /** @type {'LibraryError'} */
    name: 'LibraryError';
    /** @readonly */
    readonly reason: FailureReason;
    /** @readonly @type {number | undefined} the HTTP status of a `server_error` */
    readonly status: number | undefined;
    /** @readonly @type {number | undefined} the space a `not_enough_space` needs */
    readonly bytes: number | undefined;
}
/** @type {(ms: number, signal?: AbortSignal) => Promise<void>} */
export const sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
export function isAbort(e: any): boolean;
export function cityKey(city: string): string;
export function stageKey(city: string): string;
export function evictedKey(city: string): string;
export function partialKey(sha: string): string;
export function pieceKey(sha: string, i: number): string;
/** @type {(files: {bytes: number}[]) => number} */
export const sum: (files: {
    bytes: number;
}[]) => number;
export type Manifest = import('./format.js').Manifest;
export type WebFile = import('./format.js').WebFile;
/**
 * Why a download or update failed (same raw strings as CityPackKit's).
 */
export type FailureReason = 'offline' | 'timeout' | 'server_error' | 'not_enough_space' | 'damaged' | 'tampered' | 'older_release' | 'unsupported';
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
 */
export type PackState = {
    kind: 'not_downloaded';
    evicted?: true;
    version?: number;
} | {
    kind: 'queued';
} | {
    kind: 'downloading';
    bytes: number;
    total: number;
} | {
    kind: 'paused';
    version: number;
    installedVersion: number | null;
    bytes: number;
    total: number;
    evicted?: true;
} | {
    kind: 'applying';
    installedVersion: number | null;
} | {
    kind: 'on_disk';
    version: number;
    timetableEnded?: string;
} | {
    kind: 'on_disk_out_of_date';
    version: number;
    update: number;
    updateBytes: number | null;
    timetableEnded?: string;
} | {
    kind: 'failed';
    reason: FailureReason;
    installedVersion: number | null;
    status?: number;
    bytes?: number;
    message: string;
};
export type PackStorage = import('./library-storage.js').PackStorage;
/**
 * What the library records for an installed city.
 */
export type InstalledRecord = {
    city: string;
    name: string;
    version: number;
    manifest: {
        sha256: string;
        bytes: number;
    };
    /**
     * The data files and the string tables of `locales` (tables of other locales are fetched when asked).
     */
    files: WebFile[];
    /**
     * The manifest's URL (tables asked for later resolve against it); absent in records of older libraries.
     */
    manifestURL?: string | undefined;
    /**
     * The locales whose string tables are stored; absent in records of older libraries (every table stored).
     */
    locales?: string[] | undefined;
    /**
     * The dates the timetable covers (the manifest's `timetable`); absent without transit and in older records.
     */
    timetable?: {
        first: string;
        last: string;
    } | undefined;
    /**
     * The city's IANA time zone (manifest `city.timezone`); absent in older records.
     */
    timeZone?: string | undefined;
    installedAt: string;
};
/**
 * A version being downloaded, or an update whose size is learnt (`started` false): record `stage:<city>`.
 */
export type StageRecord = {
    city: string;
    version: number;
    manifestURL?: string | undefined;
    manifest: {
        sha256: string;
        bytes: number;
    };
    files: WebFile[];
    locales?: string[] | undefined;
    total: number;
    started: boolean;
    /**
     * the manifest came through a patch
     */
    patch?: {
        from: number;
        bytes: number;
        sha256?: string | undefined;
    } | undefined;
};
/**
 * A catalog entry (the members the library uses; others pass through).
 */
export type CatalogEntry = {
    [member: string]: unknown;
    id: string;
    name?: string | undefined;
    dataVersion: number;
    manifest: string;
    manifestSha256?: string | undefined;
    bytes?: number | undefined;
    manifestPatches?: any[] | undefined;
};
export type Catalog = {
    [member: string]: unknown;
    formatVersion?: number | undefined;
    packs: CatalogEntry[];
};
/**
 * A manifest fetched and checked against its catalog entry: its URL, the parsed document, its bytes and SHA-256
 * (`patch`: it was rebuilt through a manifest patch).
 */
export type KnownManifest = {
    url: string;
    manifest: Manifest & Record<string, any>;
    bytes: Uint8Array;
    sha256: string;
    patch?: {
        from: number;
        bytes: number;
        sha256?: string;
    };
};
/**
 * Options of PackLibrary.
 */
export type LibraryOptions = {
    /**
     * URL of catalog.json (relative URLs resolve against the page)
     */
    catalogURL: string;
    /**
     * default: IndexedDBStore when IndexedDB exists, else MemoryStore
     */
    storage?: import("./library-storage.js").PackStorage | undefined;
    /**
     * default: the global fetch
     */
    fetch?: ((input: string, init?: RequestInit) => Promise<Response>) | undefined;
    /**
     * trusted Ed25519 key: catalog and manifests must be signed by it
     */
    publicKey?: string | Uint8Array | undefined;
    /**
     * refuse unsigned catalogs and manifests (default: true with a key)
     */
    requireSignature?: boolean | undefined;
    /**
     * further attempts per file after a dropped or stalled connection or a 5xx (default 3)
     */
    retries?: number | undefined;
    /**
     * milliseconds without a byte before a connection counts as stalled (default 15000)
     */
    stallTimeoutMs?: number | undefined;
    /**
     * first wait before a retry, doubled each time (default 500)
     */
    backoffMs?: number | undefined;
    /**
     * requests in flight while a city downloads (default 6: what browsers open per host over HTTP/1.1)
     */
    concurrency?: number | undefined;
    /**
     * locales whose string tables are downloaded (default: navigator.language; a city without it: its first locale's)
     */
    locales?: string | string[] | undefined;
    /**
     * bytes of a file in flight kept in storage at a time so a restart resumes it (default 262144; 0: whole files only)
     */
    checkpointBytes?: number | undefined;
    /**
     * ask for persistent storage (navigator.storage.persist()) on the first download (default true)
     */
    persist?: boolean | undefined;
};
export type CityListing = {
    city: string;
    name: string;
    entry: CatalogEntry | null;
    state: PackState;
};
export type StateChangeDetail = {
    city: string;
    state: PackState;
};
export type ProgressDetail = {
    city: string;
    bytes: number;
    total: number;
};
export type PersistenceDetail = {
    persisted: boolean | null;
};
/**
 * Copy lookup: the text of a key with `{placeholders}` filled, or the key itself when no table has it.
 */
export type CopyFunction = (key: string, params?: Record<string, string | number>) => string;
