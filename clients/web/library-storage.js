// CityPack pack library: the storage adapters a PackLibrary keeps its files and records in (IndexedDB, Cache
// Storage, memory) and the fetch-shaped reader that opens a stored version. Re-exported by library.js.

/** The URL base of stored files and records (never fetched: Cache Storage keys and the stored reader's URLs). */
export const storeBase = 'https://citypack.invalid/';

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
  constructor() {
    /** @type {Map<string, Uint8Array>} */
    this.files = new Map();
    /** @type {Map<string, unknown>} */
    this.records = new Map();
  }
  /** @param {string} sha @returns {Promise<Uint8Array | undefined>} */
  async getFile(sha) { return this.files.get(sha); }
  /** @param {string} sha @param {Uint8Array} bytes @returns {Promise<void>} */
  async putFile(sha, bytes) { this.files.set(sha, new Uint8Array(bytes)); }
  /** @param {string} sha @returns {Promise<boolean>} */
  async hasFile(sha) { return this.files.has(sha); }
  /** @param {string} sha @returns {Promise<void>} */
  async deleteFile(sha) { this.files.delete(sha); }
  /** @returns {Promise<string[]>} */
  async fileKeys() { return [...this.files.keys()]; }
  /** @param {string} key @returns {Promise<any>} */
  async getRecord(key) { const v = this.records.get(key); return v === undefined ? undefined : structuredClone(v); }
  /** @param {string} key @param {unknown} value @returns {Promise<void>} */
  async putRecord(key, value) { this.records.set(key, structuredClone(value)); }
  /** @param {string} key @returns {Promise<void>} */
  async deleteRecord(key) { this.records.delete(key); }
  /** @returns {Promise<string[]>} */
  async recordKeys() { return [...this.records.keys()]; }
}

/**
 * @template T
 * @param {IDBRequest<T>} r
 * @returns {Promise<T>}
 */
function request(r) {
  return new Promise((ok, fail) => { r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
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
  constructor(name = 'citypack', indexedDB = globalThis.indexedDB) {
    /** @readonly */
    this.name = name;
    /** @private */
    this._idb = indexedDB;
    /** @private @type {Promise<IDBDatabase> | null} */
    this._db = null;
  }
  /** @private @returns {Promise<IDBDatabase>} */
  _open() {
    if (!this._db) {
      if (!this._idb) return Promise.reject(new Error('IndexedDB is not available here'));
      const r = this._idb.open(this.name, 1);
      r.onupgradeneeded = () => {
        r.result.createObjectStore('files');
        r.result.createObjectStore('records');
      };
      this._db = request(r);
    }
    return this._db;
  }
  /**
   * @private
   * @param {string} store
   * @param {IDBTransactionMode} mode
   * @param {(s: IDBObjectStore) => IDBRequest | void} body
   * @returns {Promise<any>}
   */
  async _run(store, mode, body) {
    const db = await this._open();
    return new Promise((ok, fail) => {
      const tx = db.transaction(store, mode, { durability: 'strict' });
      const result = body(tx.objectStore(store));
      /** @type {any} */
      let value;
      if (result) result.onsuccess = () => { value = result.result; };
      tx.oncomplete = () => ok(value);
      tx.onerror = () => fail(tx.error);
      tx.onabort = () => fail(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  }
  /** @param {string} sha @returns {Promise<Uint8Array | undefined>} */
  async getFile(sha) { const v = await this._run('files', 'readonly', (s) => s.get(sha)); return v && new Uint8Array(v); }
  /** @param {string} sha @param {Uint8Array} bytes @returns {Promise<void>} */
  putFile(sha, bytes) { return this._run('files', 'readwrite', (s) => s.put(bytes, sha)).then(() => {}); }
  /** @param {string} sha @returns {Promise<boolean>} */
  async hasFile(sha) { return (await this._run('files', 'readonly', (s) => s.count(sha))) > 0; }
  /** @param {string} sha @returns {Promise<void>} */
  deleteFile(sha) { return this._run('files', 'readwrite', (s) => s.delete(sha)).then(() => {}); }
  /** @returns {Promise<string[]>} */
  fileKeys() { return this._run('files', 'readonly', (s) => s.getAllKeys()); }
  /** @param {string} key @returns {Promise<any>} */
  getRecord(key) { return this._run('records', 'readonly', (s) => s.get(key)); }
  /** @param {string} key @param {unknown} value @returns {Promise<void>} */
  putRecord(key, value) { return this._run('records', 'readwrite', (s) => s.put(value, key)).then(() => {}); }
  /** @param {string} key @returns {Promise<void>} */
  deleteRecord(key) { return this._run('records', 'readwrite', (s) => s.delete(key)).then(() => {}); }
  /** @returns {Promise<string[]>} */
  recordKeys() { return this._run('records', 'readonly', (s) => s.getAllKeys()); }
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
  constructor(name = 'citypack', caches = globalThis.caches) {
    /** @readonly */
    this.name = name;
    /** @private */
    this._caches = caches;
  }
  /** @private */
  _cache() { return this._caches.open(this.name); }
  /** @param {string} sha @returns {Promise<Uint8Array | undefined>} */
  async getFile(sha) {
    const r = await (await this._cache()).match(`${storeBase}files/${sha}`);
    return r ? new Uint8Array(await r.arrayBuffer()) : undefined;
  }
  /** @param {string} sha @param {Uint8Array} bytes @returns {Promise<void>} */
  async putFile(sha, bytes) { await (await this._cache()).put(`${storeBase}files/${sha}`, new Response(bytes)); }
  /** @param {string} sha @returns {Promise<boolean>} */
  async hasFile(sha) { return (await (await this._cache()).match(`${storeBase}files/${sha}`)) !== undefined; }
  /** @param {string} sha @returns {Promise<void>} */
  async deleteFile(sha) { await (await this._cache()).delete(`${storeBase}files/${sha}`); }
  /** @private @param {string} kind @returns {Promise<string[]>} */
  async _keys(kind) {
    const prefix = `${storeBase}${kind}/`;
    return (await (await this._cache()).keys()).map((r) => r.url).filter((u) => u.startsWith(prefix)).map((u) => decodeURIComponent(u.slice(prefix.length)));
  }
  /** @returns {Promise<string[]>} */
  fileKeys() { return this._keys('files'); }
  /** @param {string} key @returns {Promise<any>} */
  async getRecord(key) {
    const r = await (await this._cache()).match(`${storeBase}records/${encodeURIComponent(key)}`);
    return r ? r.json() : undefined;
  }
  /** @param {string} key @param {unknown} value @returns {Promise<void>} */
  async putRecord(key, value) {
    await (await this._cache()).put(`${storeBase}records/${encodeURIComponent(key)}`, new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } }));
  }
  /** @param {string} key @returns {Promise<void>} */
  async deleteRecord(key) { await (await this._cache()).delete(`${storeBase}records/${encodeURIComponent(key)}`); }
  /** @returns {Promise<string[]>} */
  recordKeys() { return this._keys('records'); }
}

/**
 * A fetch-shaped reader of a city's installed files, for openPack: `https://citypack.invalid/<city>/manifest.json`
 * and the paths of its record resolve to stored files; anything else is a 404. Never touches the network.
 * @param {PackStorage} storage
 * @param {{city: string, manifest: {sha256: string}, files: {path: string, sha256: string}[]}} record an installed record
 * @returns {(url: string) => Promise<{ok: boolean, status: number, headers: null, arrayBuffer(): Promise<ArrayBuffer>}>}
 */
export function storageFetch(storage, record) {
  const base = `${storeBase}${encodeURIComponent(record.city)}/`;
  const byURL = new Map([[`${base}manifest.json`, record.manifest.sha256], ...record.files.map((f) => /** @type {[string, string]} */ ([new URL(f.path, base).href, f.sha256]))]);
  return async (url) => {
    const sha = byURL.get(String(url));
    const bytes = sha && (await storage.getFile(sha));
    if (!bytes) return { ok: false, status: 404, headers: null, arrayBuffer: async () => new ArrayBuffer(0) };
    return { ok: true, status: 200, headers: null, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) };
  };
}
