/** @typedef {import('./library-model.js').PackState} PackState */
/** @typedef {import('./library-model.js').PackStorage} PackStorage */
/** @typedef {import('./library-model.js').LibraryOptions} LibraryOptions */
/** @typedef {import('./library-model.js').Catalog} Catalog */
/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').CityListing} CityListing */
/** @typedef {import('./library-model.js').CopyFunction} CopyFunction */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/** @typedef {import('./library-model.js').KnownManifest} KnownManifest */
/** @typedef {import('./library-model.js').StateChangeDetail} StateChangeDetail */
/** @typedef {import('./library-model.js').ProgressDetail} ProgressDetail */
/** @typedef {import('./library-model.js').PersistenceDetail} PersistenceDetail */
/** @typedef {import('./pack.js').CityPack} CityPack */
/** @typedef {{city: string, version: number, bytes: number, timetable?: {first: string, last: string}, timetableEnded?: string}} InstalledCity */
/**
 * The library's events and what each carries.
 * @typedef {{statechange: CustomEvent<StateChangeDetail>, progress: CustomEvent<ProgressDetail>, persistence: CustomEvent<PersistenceDetail>}} LibraryEventMap
 */
/**
 * The cities of one catalog and what is installed of them. Events: `statechange` (detail {city, state}) whenever
 * a city's state changes, `progress` (detail {city, bytes, total}) while it downloads, `persistence` (detail
 * {persisted}) when the browser's answer about persistent storage is known. Downloads run one at a time (others
 * wait as `queued`), each with up to `concurrency` requests in flight. Safe to use from one page or worker at a
 * time per storage.
 *
 * A download survives restarts: the version being fetched is staged (record `stage:<city>`: its manifest and
 * file list), every verified file is kept, and the bytes of a file cut mid-body are kept with their validator
 * (records `partial:<sha>`, pieces `partial:<sha>:<n>` in the file store) so the next start resumes it with
 * Range + If-Range. After a restart the city is `paused` (bytes kept of total) until `download(city)` goes on.
 */
export class PackLibrary extends EventTarget {
    /**
     * @param {LibraryOptions} options (LibraryOptions: what each option does and its default)
     */
    constructor({ catalogURL, storage, fetch: fetchImpl, publicKey, requireSignature, retries, stallTimeoutMs, backoffMs, concurrency, locales, checkpointBytes, persist }?: LibraryOptions);
    /** @readonly */
    readonly catalogURL: string;
    /** @readonly @type {PackStorage} */
    readonly storage: PackStorage;
    /** @internal @type {(input: string, init?: RequestInit) => Promise<Response>} */
    _fetch: (input: string, init?: RequestInit) => Promise<Response>;
    publicKey: string | Uint8Array | undefined;
    requireSignature: boolean;
    retries: number;
    stallTimeoutMs: number;
    backoffMs: number;
    concurrency: number;
    locales: string[];
    checkpointBytes: number;
    persist: boolean;
    /** Whether the browser keeps this origin's storage under pressure: true, false, or null (unknown, no API). */
    /** @type {boolean | null} */
    persisted: boolean | null;
    /** @internal @type {{document: Catalog, etag: string | null, lastModified: string | null} | null} */
    _catalog: {
        document: Catalog;
        etag: string | null;
        lastModified: string | null;
    } | null;
    /** @internal @type {Map<string, KnownManifest | Promise<KnownManifest>>} */
    _manifests: Map<string, KnownManifest | Promise<KnownManifest>>;
    /** @internal @type {Map<string, PackState>} */
    _states: Map<string, PackState>;
    /** @internal @type {Map<string, InstalledRecord>} */
    _installed: Map<string, InstalledRecord>;
    /** @internal @type {Map<string, {version: number, started: boolean, total: number, remaining: number}>} */
    _staged: Map<string, {
        version: number;
        started: boolean;
        total: number;
        remaining: number;
    }>;
    /** @internal @type {Map<string, {version: number, noticedAt?: string}>} */
    _evicted: Map<string, {
        version: number;
        noticedAt?: string | undefined;
    }>;
    /** @internal @type {Map<string, {controller: AbortController, promise: Promise<PackState>}>} */
    _jobs: Map<string, {
        controller: AbortController;
        promise: Promise<PackState>;
    }>;
    /** @internal @type {Promise<unknown>} */
    _queue: Promise<unknown>;
    /** @internal @type {Promise<void> | null} */
    _ready: Promise<void> | null;
    /** @internal */
    _askedPersist: boolean;
    /** @internal @type {Error | undefined} why a bundle's files were fetched one by one (set when it happens) */
    _bundleFailure: Error | undefined;
    /** @internal @type {Error | undefined} why a manifest was fetched instead of patched (set when it happens) */
    _patchFailure: Error | undefined;
    /**
     * Loads what storage holds (installed cities, staged downloads, the last catalog), notices saved cities whose
     * files the browser evicted, and removes files nothing refers to.
     * @returns {Promise<void>}
     */
    ready(): Promise<void>;
    /**
     * Runs `body(held)` holding this storage's Web Lock (pages, workers and service workers of an origin share it),
     * so one context downloads or deletes at a time; `ifAvailable`: do not wait (held is false when another context
     * has it). Without Web Locks (Node) the body runs at once: one library per storage. `held`: the caller holds
     * the lock already (a download refreshing the catalog), the body runs at once.
     * @internal
     * @template T
     * @param {boolean} ifAvailable
     * @param {(mine: boolean) => T} body
     * @param {boolean} [held]
     * @returns {Promise<Awaited<T>>}
     */
    _exclusive<T>(ifAvailable: boolean, body: (mine: boolean) => T, held?: boolean | undefined): Promise<Awaited<T>>;
    /**
     * Reads (ask false) or requests (ask true: navigator.storage.persist()) persistent storage and reports the
     * answer in `persisted` and a `persistence` event. Without the API the answer stays null.
     * @internal
     * @param {boolean} ask
     * @returns {Promise<boolean | null>}
     */
    _persistence(ask: boolean): Promise<boolean | null>;
    /** The last accepted catalog document, or null. */
    get catalog(): import("./library-model.js").Catalog | null;
    /**
     * Fetches catalog.json with the server's own validator (If-None-Match with its ETag, If-Modified-Since with its
     * Last-Modified), checks its signature and refuses a catalog older than the accepted one (any city's
     * dataVersion lower). Then learns, per installed city with a newer version, the update's size (its manifest);
     * nothing else is fetched. Staged versions the new catalog no longer offers are dropped. Throws a LibraryError
     * (the accepted catalog stays). Resolves to true when the catalog changed.
     * @param {{signal?: AbortSignal}} options
     * @returns {Promise<boolean>}
     */
    refresh({ signal }?: {
        signal?: AbortSignal;
    }): Promise<boolean>;
    /**
     * The catalog entry of a city, or undefined.
     * @param {string} city
     * @returns {CatalogEntry | undefined}
     */
    entry(city: string): CatalogEntry | undefined;
    /**
     * @internal
     * @param {CatalogEntry} entry @param {string} url @param {Uint8Array} bytes @param {string | null} encoding
     * @returns {Promise<KnownManifest>}
     */
    _acceptManifest(entry: CatalogEntry, url: string, bytes: Uint8Array, encoding: string | null): Promise<KnownManifest>;
    /**
     * The state of a city (see PackState).
     * @param {string} city
     * @returns {PackState}
     */
    state(city: string): PackState;
    /**
     * The catalog's cities (catalog order), each with its state; installed cities the catalog dropped come last.
     * @returns {CityListing[]}
     */
    cities(): CityListing[];
    /** The installed data version of a city, or null (whatever its state: an update may be running or have failed). */
    /**
     * @param {string} city
     * @returns {number | null}
     */
    installedVersion(city: string): number | null;
    /**
     * Installed cities: [{city, version, bytes, timetable?, timetableEnded?}] (bytes: every stored file of the version,
     * manifest included; timetable: the dates it covers, for a city with transit; timetableEnded: its last date once
     * it has ended in the city's time zone), as Swift `PackLibrary.installed()`.
     * @returns {Promise<InstalledCity[]>}
     */
    installed(): Promise<InstalledCity[]>;
    /**
     * @internal
     * @param {string} city
     * @param {PackState | null} state a transient state, or null: the stored one
     */
    _set(city: string, state: PackState | null): void;
    /** @internal @param {string} city */
    _emit(city: string): void;
    /**
     * Downloads the catalog's version of a city (or updates to it), or goes on with a paused one: queued behind
     * other downloads, then every file the new version needs that is not stored yet (`concurrency` at a time, each
     * verified: size, SHA-256), then one atomic switch. Resolves to the city's state; a failure is a `failed` state
     * (not a rejection; what was fetched stays staged unless it failed verification), a cancel returns the previous
     * state and drops what was fetched.
     * @param {string} city
     * @param {{signal?: AbortSignal, refresh?: boolean}} options `refresh`: refresh the catalog first (update()).
     * @returns {Promise<PackState>}
     */
    download(city: string, { signal, refresh }?: {
        signal?: AbortSignal;
        refresh?: boolean;
    }): Promise<PackState>;
    /**
     * Refreshes the catalog, then downloads the city's newer version if there is one. Resolves to its state.
     * @param {string} city
     * @param {{signal?: AbortSignal}} options
     * @returns {Promise<PackState>}
     */
    update(city: string, { signal }?: {
        signal?: AbortSignal;
    }): Promise<PackState>;
    /** Stops a queued or running download of the city and drops what it fetched; what was installed stays. */
    /** @param {string} city */
    cancel(city: string): void;
    /** Removes an installed (or staged, or evicted) city and the files no other city uses. */
    /**
     * @param {string} city
     * @returns {Promise<void>}
     */
    remove(city: string): Promise<void>;
    /** @internal @param {string} city @param {any} e */
    _fail(city: string, e: any): void;
    /**
     * The copy of the installed cities' string tables for `locale` (its language, the pack's default locale, else
     * English), else of a staged download's, else the tables kept from the last install (record `copy`): a function
     * (key, params) → text with placeholders filled; the key itself when no table has it (nothing downloaded yet:
     * before a city is picked nothing but catalog.json is fetched). A locale whose table an installed city does not
     * hold is fetched and kept. Plural entries give their `other` form.
     * @param {string} [locale]
     * @returns {Promise<CopyFunction>}
     */
    copy(locale?: string | undefined): Promise<CopyFunction>;
    /**
     * Opens the installed version of a city from storage (no network, but for string tables of `locales` not
     * stored yet, fetched once and kept): a CityPack with every part and the strings of `locales` (default: the
     * locales downloaded with it). Throws LibraryError('damaged') when its files are missing or do not verify, and
     * a TypeError when the city is not installed.
     * @param {string} city @param {{locales?: string[]}} [options]
     * @returns {Promise<CityPack>}
     */
    open(city: string, options?: {
        locales?: string[] | undefined;
    } | undefined): Promise<CityPack>;
    /**
     * EventTarget's addEventListener, typed: `statechange`, `progress` and `persistence` listeners get their
     * CustomEvent's detail (LibraryEventMap).
     * @template {string} K
     * @param {K} type
     * @param {((event: K extends keyof LibraryEventMap ? LibraryEventMap[K] : Event) => void) | EventListenerObject | null} listener
     * @param {boolean | AddEventListenerOptions} [options]
     * @returns {void}
     */
    addEventListener<K extends string>(type: K, listener: EventListenerObject | ((event: K extends keyof LibraryEventMap ? LibraryEventMap[K] : Event) => void) | null, options?: boolean | AddEventListenerOptions | undefined): void;
    /**
     * A small document (catalog, manifest): bounded retries, stall timeout; 200 or 304.
     * @internal
     * @param {string} url @param {Record<string, string>} headers @param {AbortSignal} [signal]
     * @returns {Promise<{bytes: Uint8Array, response: Response}>}
     */
    _fetchSmall(url: string, headers: Record<string, string>, signal?: AbortSignal | undefined): Promise<{
        bytes: Uint8Array;
        response: Response;
    }>;
    /**
     * One request: resolves to the response once its body has been read through `onChunk` (awaited; status 200,
     * 206 or 304), rejects on a server never reached (TypeError with `unreachable`), a dropped connection
     * (TypeError), a stall ({stalled: true}), or an HTTP error (LibraryError server_error).
     * @internal
     * @param {string} url @param {Record<string, string>} headers @param {AbortSignal | undefined} signal
     * @param {(chunk: Uint8Array) => unknown} onChunk @param {(response: Response) => unknown} [onResponse]
     * @returns {Promise<Response>}
     */
    _attempt(url: string, headers: Record<string, string>, signal: AbortSignal | undefined, onChunk: (chunk: Uint8Array) => unknown, onResponse?: ((response: Response) => unknown) | undefined): Promise<Response>;
}
export type PackState = import('./library-model.js').PackState;
export type PackStorage = import('./library-model.js').PackStorage;
export type LibraryOptions = import('./library-model.js').LibraryOptions;
export type Catalog = import('./library-model.js').Catalog;
export type CatalogEntry = import('./library-model.js').CatalogEntry;
export type CityListing = import('./library-model.js').CityListing;
export type CopyFunction = import('./library-model.js').CopyFunction;
export type InstalledRecord = import('./library-model.js').InstalledRecord;
export type KnownManifest = import('./library-model.js').KnownManifest;
export type StateChangeDetail = import('./library-model.js').StateChangeDetail;
export type ProgressDetail = import('./library-model.js').ProgressDetail;
export type PersistenceDetail = import('./library-model.js').PersistenceDetail;
export type CityPack = import('./pack.js').CityPack;
export type InstalledCity = {
    city: string;
    version: number;
    bytes: number;
    timetable?: {
        first: string;
        last: string;
    };
    timetableEnded?: string;
};
/**
 * The library's events and what each carries.
 */
export type LibraryEventMap = {
    statechange: CustomEvent<StateChangeDetail>;
    progress: CustomEvent<ProgressDetail>;
    persistence: CustomEvent<PersistenceDetail>;
};
import { timetableEnded } from "./library-model.js";
