/**
 * A fetch-shaped reader of a city's installed files, for openPack: `https://citypack.invalid/<city>/manifest.json`
 * and the paths of its record resolve to stored files; anything else is a 404. Never touches the network.
 * @param {PackStorage} storage
 * @param {{city: string, manifest: {sha256: string}, files: {path: string, sha256: string}[]}} record an installed record
 * @returns {(url: string) => Promise<{ok: boolean, status: number, headers: null, arrayBuffer(): Promise<ArrayBuffer>}>}
 */
export function storageFetch(storage: PackStorage, record: {
    city: string;
    manifest: {
        sha256: string;
    };
    files: {
        path: string;
        sha256: string;
    }[];
}): (url: string) => Promise<{
    ok: boolean;
    status: number;
    headers: null;
    arrayBuffer(): Promise<ArrayBuffer>;
}>;
/** The URL base of stored files and records (never fetched: Cache Storage keys and the stored reader's URLs). */
export const storeBase: "https://citypack.invalid/";
/**
 * The storage a library keeps its files and records in. Files are immutable bytes keyed by their SHA-256 (so a
 * file two versions share is stored once); records are small JSON values keyed by name (`city:<id>` points at a
 * city's installed version, `catalog` is the last accepted catalog). `putRecord` must be atomic: it is the
 * commit point of an install. All methods are async.
 * @typedef {object} PackStorage
 * @property {(sha: string) => Promise<Uint8Array|undefined>} getFile
 * @property {(sha: string, bytes: Uint8Array) => Promise<void>} putFile
 * @property {(sha: string) => Promise<boolean>} hasFile
 * @property {(sha: string) => Promise<void>} deleteFile
 * @property {() => Promise<string[]>} fileKeys
 * @property {(key: string) => Promise<any>} getRecord
 * @property {(key: string, value: any) => Promise<void>} putRecord
 * @property {(key: string) => Promise<void>} deleteRecord
 * @property {() => Promise<string[]>} recordKeys
 * @property {string} [name] IndexedDBStore's and CacheStore's: the database or cache (names the Web Lock)
 */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/** Storage in memory (tests, or an app that re-downloads each session). Not shared between instances. */
export class MemoryStore {
    /** @type {Map<string, Uint8Array>} */
    files: Map<string, Uint8Array>;
    /** @type {Map<string, unknown>} */
    records: Map<string, unknown>;
    /** @param {string} sha @returns {Promise<Uint8Array | undefined>} */
    getFile(sha: string): Promise<Uint8Array | undefined>;
    /** @param {string} sha @param {Uint8Array} bytes @returns {Promise<void>} */
    putFile(sha: string, bytes: Uint8Array): Promise<void>;
    /** @param {string} sha @returns {Promise<boolean>} */
    hasFile(sha: string): Promise<boolean>;
    /** @param {string} sha @returns {Promise<void>} */
    deleteFile(sha: string): Promise<void>;
    /** @returns {Promise<string[]>} */
    fileKeys(): Promise<string[]>;
    /** @param {string} key @returns {Promise<any>} */
    getRecord(key: string): Promise<any>;
    /** @param {string} key @param {unknown} value @returns {Promise<void>} */
    putRecord(key: string, value: unknown): Promise<void>;
    /** @param {string} key @returns {Promise<void>} */
    deleteRecord(key: string): Promise<void>;
    /** @returns {Promise<string[]>} */
    recordKeys(): Promise<string[]>;
}
/**
 * IndexedDB storage (the default in browsers): database `name` (default "citypack") with object stores `files`
 * and `records`. Available in pages, workers and service workers of the same origin; each write is one
 * transaction, so a record switch is atomic and durable when the promise resolves.
 */
export class IndexedDBStore {
    /**
     * @param {string} [name] the database (default "citypack")
     * @param {IDBFactory} [indexedDB] default: the global one
     */
    constructor(name?: string | undefined, indexedDB?: IDBFactory | undefined);
    /** @readonly */
    readonly name: string;
    /** @private */
    private _idb;
    /** @private @type {Promise<IDBDatabase> | null} */
    private _db;
    /** @private @returns {Promise<IDBDatabase>} */
    private _open;
    /**
     * @private
     * @param {string} store
     * @param {IDBTransactionMode} mode
     * @param {(s: IDBObjectStore) => IDBRequest | void} body
     * @returns {Promise<any>}
     */
    private _run;
    /** @param {string} sha @returns {Promise<Uint8Array | undefined>} */
    getFile(sha: string): Promise<Uint8Array | undefined>;
    /** @param {string} sha @param {Uint8Array} bytes @returns {Promise<void>} */
    putFile(sha: string, bytes: Uint8Array): Promise<void>;
    /** @param {string} sha @returns {Promise<boolean>} */
    hasFile(sha: string): Promise<boolean>;
    /** @param {string} sha @returns {Promise<void>} */
    deleteFile(sha: string): Promise<void>;
    /** @returns {Promise<string[]>} */
    fileKeys(): Promise<string[]>;
    /** @param {string} key @returns {Promise<any>} */
    getRecord(key: string): Promise<any>;
    /** @param {string} key @param {unknown} value @returns {Promise<void>} */
    putRecord(key: string, value: unknown): Promise<void>;
    /** @param {string} key @returns {Promise<void>} */
    deleteRecord(key: string): Promise<void>;
    /** @returns {Promise<string[]>} */
    recordKeys(): Promise<string[]>;
}
/**
 * Cache Storage (the `caches` API): one cache `name` (default "citypack"), files and records as responses under
 * https://citypack.invalid/. Also usable from a service worker; each put replaces one entry atomically (a
 * multi-entry switch is not atomic, which is why an install commits with a single record). Measured against
 * IndexedDB in docs/WEB.md.
 */
export class CacheStore {
    /**
     * @param {string} [name] the cache (default "citypack")
     * @param {CacheStorage} [caches] default: the global one
     */
    constructor(name?: string | undefined, caches?: CacheStorage | undefined);
    /** @readonly */
    readonly name: string;
    /** @private */
    private _caches;
    /** @private */
    private _cache;
    /** @param {string} sha @returns {Promise<Uint8Array | undefined>} */
    getFile(sha: string): Promise<Uint8Array | undefined>;
    /** @param {string} sha @param {Uint8Array} bytes @returns {Promise<void>} */
    putFile(sha: string, bytes: Uint8Array): Promise<void>;
    /** @param {string} sha @returns {Promise<boolean>} */
    hasFile(sha: string): Promise<boolean>;
    /** @param {string} sha @returns {Promise<void>} */
    deleteFile(sha: string): Promise<void>;
    /** @private @param {string} kind @returns {Promise<string[]>} */
    private _keys;
    /** @returns {Promise<string[]>} */
    fileKeys(): Promise<string[]>;
    /** @param {string} key @returns {Promise<any>} */
    getRecord(key: string): Promise<any>;
    /** @param {string} key @param {unknown} value @returns {Promise<void>} */
    putRecord(key: string, value: unknown): Promise<void>;
    /** @param {string} key @returns {Promise<void>} */
    deleteRecord(key: string): Promise<void>;
    /** @returns {Promise<string[]>} */
    recordKeys(): Promise<string[]>;
}
/**
 * The storage a library keeps its files and records in. Files are immutable bytes keyed by their SHA-256 (so a
 * file two versions share is stored once); records are small JSON values keyed by name (`city:<id>` points at a
 * city's installed version, `catalog` is the last accepted catalog). `putRecord` must be atomic: it is the
 * commit point of an install. All methods are async.
 */
export type PackStorage = {
    getFile: (sha: string) => Promise<Uint8Array | undefined>;
    putFile: (sha: string, bytes: Uint8Array) => Promise<void>;
    hasFile: (sha: string) => Promise<boolean>;
    deleteFile: (sha: string) => Promise<void>;
    fileKeys: () => Promise<string[]>;
    getRecord: (key: string) => Promise<any>;
    putRecord: (key: string, value: any) => Promise<void>;
    deleteRecord: (key: string) => Promise<void>;
    recordKeys: () => Promise<string[]>;
    /**
     * IndexedDBStore's and CacheStore's: the database or cache (names the Web Lock)
     */
    name?: string | undefined;
};
export type InstalledRecord = import('./library-model.js').InstalledRecord;
