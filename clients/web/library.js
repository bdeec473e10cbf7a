// CityPack pack library for web apps: the cities of a catalog, each in one state, downloaded into browser storage
// with progress, resume, retries and a stall timeout, verified file by file, switched in atomically, and opened
// offline with citypack.js. An ES module with no dependencies beyond citypack.js; runs in pages, service workers,
// WebViews (Capacitor) and Node ≥ 20 (tests pass an in-memory store). See docs/WEB.md, "The pack library".
//
//   import { PackLibrary, IndexedDBStore } from './library.js';
//   const library = new PackLibrary({ catalogURL: '/packs/catalog.json', storage: new IndexedDBStore() });
//   library.addEventListener('statechange', (e) => render(e.detail.city, e.detail.state));
//   await library.refresh();
//   await library.download('monaco');
//   const pack = await library.open('monaco');      // works with the network off
import { PackError, WEB_FORMAT, openPack, reencodingHint, sha256, verifySignature, webFiles } from './citypack.js';

/** Catalog format this library reads (`formatVersion` of catalog.json). */
export const CATALOG_FORMAT = 1;

/** The failure reasons (same raw strings as CityPackKit's). Copy keys: `download_error.<reason>.message|action`. */
export const REASONS = Object.freeze(['offline', 'timeout', 'server_error', 'not_enough_space', 'damaged', 'tampered', 'older_release', 'unsupported']);

/**
 * A failed library operation: `reason` is one of REASONS; `status` the HTTP status for `server_error`; `bytes`
 * the space needed for `not_enough_space`.
 */
export class LibraryError extends Error {
  constructor(reason, message, extra = {}) {
    super(message);
    this.name = 'LibraryError';
    this.reason = reason;
    Object.assign(this, extra);
  }
}

const sleep = (ms, signal) =>
  new Promise((ok, fail) => {
    const t = setTimeout(ok, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); fail(signal.reason); }, { once: true });
  });
const isAbort = (e) => e?.name === 'AbortError';
const cityKey = (city) => `city:${city}`;
const storeBase = 'https://citypack.invalid/';

// ---------------------------------------------------------------------------------------------------------------
// Storage

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
 */

/** Storage in memory (tests, or an app that re-downloads each session). Not shared between instances. */
export class MemoryStore {
  constructor() {
    this.files = new Map();
    this.records = new Map();
  }
  async getFile(sha) { return this.files.get(sha); }
  async putFile(sha, bytes) { this.files.set(sha, new Uint8Array(bytes)); }
  async hasFile(sha) { return this.files.has(sha); }
  async deleteFile(sha) { this.files.delete(sha); }
  async fileKeys() { return [...this.files.keys()]; }
  async getRecord(key) { const v = this.records.get(key); return v === undefined ? undefined : structuredClone(v); }
  async putRecord(key, value) { this.records.set(key, structuredClone(value)); }
  async deleteRecord(key) { this.records.delete(key); }
  async recordKeys() { return [...this.records.keys()]; }
}

function request(r) {
  return new Promise((ok, fail) => { r.onsuccess = () => ok(r.result); r.onerror = () => fail(r.error); });
}

/**
 * IndexedDB storage (the default in browsers): database `name` (default "citypack") with object stores `files`
 * and `records`. Available in pages, workers and service workers of the same origin; each write is one
 * transaction, so a record switch is atomic and durable when the promise resolves.
 */
export class IndexedDBStore {
  constructor(name = 'citypack', indexedDB = globalThis.indexedDB) {
    this.name = name;
    this._idb = indexedDB;
    this._db = null;
  }
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
  async _run(store, mode, body) {
    const db = await this._open();
    return new Promise((ok, fail) => {
      const tx = db.transaction(store, mode, { durability: 'strict' });
      const result = body(tx.objectStore(store));
      let value;
      if (result) result.onsuccess = () => { value = result.result; };
      tx.oncomplete = () => ok(value);
      tx.onerror = () => fail(tx.error);
      tx.onabort = () => fail(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  }
  async getFile(sha) { const v = await this._run('files', 'readonly', (s) => s.get(sha)); return v && new Uint8Array(v); }
  putFile(sha, bytes) { return this._run('files', 'readwrite', (s) => s.put(bytes, sha)).then(() => {}); }
  async hasFile(sha) { return (await this._run('files', 'readonly', (s) => s.count(sha))) > 0; }
  deleteFile(sha) { return this._run('files', 'readwrite', (s) => s.delete(sha)).then(() => {}); }
  fileKeys() { return this._run('files', 'readonly', (s) => s.getAllKeys()); }
  getRecord(key) { return this._run('records', 'readonly', (s) => s.get(key)); }
  putRecord(key, value) { return this._run('records', 'readwrite', (s) => s.put(value, key)).then(() => {}); }
  deleteRecord(key) { return this._run('records', 'readwrite', (s) => s.delete(key)).then(() => {}); }
  recordKeys() { return this._run('records', 'readonly', (s) => s.getAllKeys()); }
}

/**
 * Cache Storage (the `caches` API): one cache `name` (default "citypack"), files and records as responses under
 * https://citypack.invalid/. Also usable from a service worker; each put replaces one entry atomically (a
 * multi-entry switch is not atomic, which is why an install commits with a single record). Measured against
 * IndexedDB in docs/WEB.md.
 */
export class CacheStore {
  constructor(name = 'citypack', caches = globalThis.caches) {
    this.name = name;
    this._caches = caches;
  }
  _cache() { return this._caches.open(this.name); }
  async getFile(sha) {
    const r = await (await this._cache()).match(`${storeBase}files/${sha}`);
    return r ? new Uint8Array(await r.arrayBuffer()) : undefined;
  }
  async putFile(sha, bytes) { await (await this._cache()).put(`${storeBase}files/${sha}`, new Response(bytes)); }
  async hasFile(sha) { return (await (await this._cache()).match(`${storeBase}files/${sha}`)) !== undefined; }
  async deleteFile(sha) { await (await this._cache()).delete(`${storeBase}files/${sha}`); }
  async _keys(kind) {
    const prefix = `${storeBase}${kind}/`;
    return (await (await this._cache()).keys()).map((r) => r.url).filter((u) => u.startsWith(prefix)).map((u) => decodeURIComponent(u.slice(prefix.length)));
  }
  fileKeys() { return this._keys('files'); }
  async getRecord(key) {
    const r = await (await this._cache()).match(`${storeBase}records/${encodeURIComponent(key)}`);
    return r ? r.json() : undefined;
  }
  async putRecord(key, value) {
    await (await this._cache()).put(`${storeBase}records/${encodeURIComponent(key)}`, new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json' } }));
  }
  async deleteRecord(key) { await (await this._cache()).delete(`${storeBase}records/${encodeURIComponent(key)}`); }
  recordKeys() { return this._keys('records'); }
}

/**
 * A fetch-shaped reader of a city's installed files, for openPack: `https://citypack.invalid/<city>/manifest.json`
 * and the paths of its record resolve to stored files; anything else is a 404. Never touches the network.
 */
export function storageFetch(storage, record) {
  const base = `${storeBase}${encodeURIComponent(record.city)}/`;
  const byURL = new Map([[`${base}manifest.json`, record.manifest.sha256], ...record.files.map((f) => [new URL(f.path, base).href, f.sha256])]);
  return async (url) => {
    const sha = byURL.get(String(url));
    const bytes = sha && (await storage.getFile(sha));
    if (!bytes) return { ok: false, status: 404, headers: null, arrayBuffer: async () => new ArrayBuffer(0) };
    return { ok: true, status: 200, headers: null, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) };
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The library

/**
 * @typedef {{kind: 'not_downloaded'} | {kind: 'queued'} | {kind: 'downloading', bytes: number, total: number}
 *   | {kind: 'applying', installedVersion: number|null} | {kind: 'on_disk', version: number}
 *   | {kind: 'on_disk_out_of_date', version: number, update: number, updateBytes: number}
 *   | {kind: 'failed', reason: string, installedVersion: number|null, status?: number, bytes?: number, message: string}} PackState
 */

/**
 * The cities of one catalog and what is installed of them. Events: `statechange` (detail {city, state}) whenever
 * a city's state changes, `progress` (detail {city, bytes, total}) while it downloads. Downloads run one at a time
 * (others wait as `queued`). Safe to use from one page or worker at a time per storage.
 */
export class PackLibrary extends EventTarget {
  /**
   * @param {object} options
   * @param {string} options.catalogURL URL of catalog.json (relative URLs resolve against the page)
   * @param {PackStorage} [options.storage] default: IndexedDBStore when IndexedDB exists, else MemoryStore
   * @param {typeof fetch} [options.fetch] default: the global fetch
   * @param {string|Uint8Array} [options.publicKey] trusted Ed25519 key: catalog and manifests must be signed by it
   * @param {boolean} [options.requireSignature] refuse unsigned catalogs and manifests (default: true with a key)
   * @param {number} [options.retries=3] further attempts per file after a dropped or stalled connection or a 5xx
   * @param {number} [options.stallTimeoutMs=15000] milliseconds without a byte before a connection counts as stalled
   * @param {number} [options.backoffMs=500] first wait before a retry (doubled each time)
   */
  constructor({ catalogURL, storage, fetch: fetchImpl, publicKey, requireSignature, retries = 3, stallTimeoutMs = 15000, backoffMs = 500 } = {}) {
    super();
    if (!catalogURL) throw new TypeError('PackLibrary needs a catalogURL');
    const base = typeof globalThis.location?.href === 'string' ? globalThis.location.href : 'file:///';
    this.catalogURL = new URL(catalogURL, base).href;
    this.storage = storage ?? (globalThis.indexedDB ? new IndexedDBStore() : new MemoryStore());
    this._fetch = fetchImpl ?? ((...a) => globalThis.fetch(...a));
    this.publicKey = publicKey;
    this.requireSignature = requireSignature ?? publicKey != null;
    this.retries = retries;
    this.stallTimeoutMs = stallTimeoutMs;
    this.backoffMs = backoffMs;
    this._catalog = null; // {document, etag, lastModified}: the accepted catalog and the validators it came with
    this._manifests = new Map(); // catalog manifest path → parsed manifest (verified hash)
    this._states = new Map(); // city → transient state (queued, downloading, applying, failed)
    this._installed = new Map(); // city → record
    this._jobs = new Map(); // city → {controller, promise}
    this._queue = Promise.resolve();
    this._ready = null;
  }

  /** Loads what storage holds (installed cities, the last catalog) and removes files no installed city needs. */
  ready() {
    this._ready ??= (async () => {
      for (const key of await this.storage.recordKeys()) {
        if (key.startsWith('city:')) this._installed.set(key.slice(5), await this.storage.getRecord(key));
      }
      this._catalog = (await this.storage.getRecord('catalog')) ?? null;
      // Debris of a download that was killed; skipped while another page or worker of this storage downloads.
      await this._exclusive(true, (mine) => mine && this._collect());
    })();
    return this._ready;
  }

  /**
   * Runs `body(held)` holding this storage's Web Lock (pages, workers and service workers of an origin share it),
   * so one context downloads or deletes at a time; `ifAvailable`: do not wait (held is false when another context
   * has it). Without Web Locks (Node) the body runs at once: one library per storage.
   */
  _exclusive(ifAvailable, body) {
    const locks = globalThis.navigator?.locks;
    if (!locks) return body(true);
    return locks.request(`citypack-library:${this.storage.name ?? ''}`, { ifAvailable }, (lock) => body(lock != null));
  }

  /** The last accepted catalog document, or null. */
  get catalog() {
    return this._catalog?.document ?? null;
  }

  // -- catalog ----------------------------------------------------------------------------------------------

  /**
   * Fetches catalog.json with the server's own validator (If-None-Match with its ETag, If-Modified-Since with its
   * Last-Modified), checks its signature and refuses a catalog older than the accepted one (any city's
   * dataVersion lower). Then learns, per installed city with a newer version, the update's size. Throws a
   * LibraryError (the accepted catalog stays). Resolves to true when the catalog changed.
   */
  async refresh({ signal } = {}) {
    await this.ready();
    const headers = {};
    if (this._catalog?.etag) headers['if-none-match'] = this._catalog.etag;
    else if (this._catalog?.lastModified) headers['if-modified-since'] = this._catalog.lastModified;
    const { bytes, response } = await this._fetchSmall(this.catalogURL, headers, signal);
    if (response.status === 304) {
      await this._learnUpdates(signal);
      return false;
    }
    let document;
    try {
      document = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw new LibraryError('damaged', `${this.catalogURL}: not JSON (${e.message})${reencodingHint('catalog.json', bytes, response.headers.get('content-encoding'))}`);
    }
    if (!document || !Array.isArray(document.packs)) throw new LibraryError('damaged', `${this.catalogURL}: not a catalog (no packs)`);
    if ((document.formatVersion ?? 1) > CATALOG_FORMAT) {
      throw new LibraryError('unsupported', `catalog format ${document.formatVersion} is newer than this library (${CATALOG_FORMAT})`);
    }
    await this._checkSignature(document, this.catalogURL);
    const seen = this._catalog?.document?.packs ?? [];
    for (const old of seen) {
      const now = document.packs.find((p) => p.id === old.id);
      if (now && now.dataVersion < old.dataVersion) {
        throw new LibraryError('older_release', `the catalog offers ${old.id} version ${now.dataVersion}, older than version ${old.dataVersion} seen before: refused`);
      }
    }
    this._catalog = { document, etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
    await this.storage.putRecord('catalog', this._catalog);
    await this._learnUpdates(signal);
    await this._keepCopy(signal);
    for (const p of document.packs) this._emit(p.id);
    return true;
  }

  async _checkSignature(document, what) {
    try {
      await verifySignature(document, { publicKey: this.publicKey, requireSignature: this.requireSignature });
    } catch (e) {
      throw new LibraryError('tampered', `${what}: ${e.message}`);
    }
  }

  /** The catalog entry of a city, or undefined. */
  entry(city) {
    return this.catalog?.packs.find((p) => p.id === city);
  }

  async _learnUpdates(signal) {
    for (const [city, record] of this._installed) {
      const entry = this.entry(city);
      if (entry && entry.dataVersion > record.version) {
        try {
          await this._manifest(entry, signal);
        } catch (e) {
          if (isAbort(e)) throw e;
          // Otherwise the size stays unknown until the update runs; the update reports the failure.
        }
        this._emit(city);
      }
    }
  }

  /**
   * With no city installed, keeps the string tables of the catalog's first city (record `copy`), so the screen
   * has its copy ("No cities downloaded yet…") before the first download and offline. Best effort.
   */
  async _keepCopy(signal) {
    const entry = this.catalog?.packs[0];
    if (this._installed.size > 0 || !entry || (await this.storage.getRecord('copy'))?.manifest === entry.manifest) return;
    try {
      const known = await this._manifest(entry, signal);
      await verifySignature(known.manifest, { publicKey: this.publicKey, requireSignature: this.requireSignature });
      const tables = {};
      for (const [locale, path] of Object.entries(known.manifest.web?.strings ?? {})) {
        const file = webFiles(known.manifest).find((f) => f.path === path);
        const { bytes } = await this._fetchSmall(new URL(path, known.url).href, {}, signal);
        if (file && bytes.length === file.bytes && (await sha256(bytes)) === file.sha256) tables[locale] = JSON.parse(new TextDecoder().decode(bytes));
      }
      await this.storage.putRecord('copy', { manifest: entry.manifest, defaultLocale: known.manifest.city?.defaultLocale, tables });
    } catch (e) {
      if (isAbort(e)) throw e;
      // Otherwise the screen shows copy keys until a city is downloaded.
    }
  }

  /** The manifest a catalog entry names, fetched once and checked against the entry's manifestSha256. */
  async _manifest(entry, signal) {
    const url = new URL(entry.manifest, this.catalogURL).href;
    if (this._manifests.has(url)) return this._manifests.get(url);
    const { bytes, response } = await this._fetchSmall(url, {}, signal);
    const digest = await sha256(bytes);
    if (entry.manifestSha256 && digest !== entry.manifestSha256) {
      throw new LibraryError('damaged', `${entry.manifest}: SHA-256 ${digest} is not the catalog's ${entry.manifestSha256}${reencodingHint(url, bytes, response.headers.get('content-encoding'))}`);
    }
    let manifest;
    try {
      manifest = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw new LibraryError('damaged', `${entry.manifest}: not JSON (${e.message})`);
    }
    const value = { url, manifest, bytes, sha256: digest };
    this._manifests.set(url, value);
    return value;
  }

  // -- states -----------------------------------------------------------------------------------------------

  /** The state of a city (see PackState). */
  state(city) {
    const transient = this._states.get(city);
    if (transient) return transient;
    const record = this._installed.get(city);
    if (!record) return { kind: 'not_downloaded' };
    const entry = this.entry(city);
    if (entry && entry.dataVersion > record.version) {
      const known = this._manifests.get(new URL(entry.manifest, this.catalogURL).href);
      const updateBytes = known ? this._missingBytes(known, record) : entry.bytes;
      return { kind: 'on_disk_out_of_date', version: record.version, update: entry.dataVersion, updateBytes };
    }
    return { kind: 'on_disk', version: record.version };
  }

  _missingBytes(known, record) {
    const have = new Set([record?.manifest.sha256, ...(record?.files ?? []).map((f) => f.sha256)]);
    return [{ sha256: known.sha256, bytes: known.bytes.length }, ...webFiles(known.manifest)].filter((f) => !have.has(f.sha256)).reduce((n, f) => n + f.bytes, 0);
  }

  /** The catalog's cities (catalog order), each with its state; installed cities the catalog dropped come last. */
  cities() {
    const list = (this.catalog?.packs ?? []).map((entry) => ({ city: entry.id, name: entry.name ?? entry.id, entry, state: this.state(entry.id) }));
    for (const [city, record] of this._installed) {
      if (!list.some((c) => c.city === city)) list.push({ city, name: record.name ?? city, entry: null, state: this.state(city) });
    }
    return list;
  }

  /** The installed data version of a city, or null (whatever its state: an update may be running or have failed). */
  installedVersion(city) {
    return this._installed.get(city)?.version ?? null;
  }

  /** Installed cities: [{city, version, bytes}] (bytes: every stored file of the version, manifest included). */
  async installed() {
    await this.ready();
    return [...this._installed.values()].map((r) => ({ city: r.city, version: r.version, bytes: r.manifest.bytes + r.files.reduce((n, f) => n + f.bytes, 0) }));
  }

  _set(city, state) {
    if (state) this._states.set(city, state);
    else this._states.delete(city);
    this._emit(city);
  }

  _emit(city) {
    this.dispatchEvent(new CustomEvent('statechange', { detail: { city, state: this.state(city) } }));
  }

  // -- download, update, cancel, remove ---------------------------------------------------------------------

  /**
   * Downloads the catalog's version of a city (or updates to it): queued behind other downloads, then every file
   * the new version needs that is not stored yet, each verified (size, SHA-256), then one atomic switch. Resolves
   * to the city's state; a failure is a `failed` state (not a rejection), a cancel returns the previous state.
   * @param {string} city
   * @param {{signal?: AbortSignal, refresh?: boolean}} [options] `refresh`: refresh the catalog first (update()).
   */
  download(city, { signal, refresh = false } = {}) {
    const running = this._jobs.get(city);
    if (running) return running.promise;
    const controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    this._set(city, { kind: 'queued' });
    const promise = (this._queue = this._queue.then(() => this._exclusive(false, () => this._run(city, controller.signal, refresh))));
    this._jobs.set(city, { controller, promise });
    return promise.finally(() => this._jobs.delete(city));
  }

  /** Refreshes the catalog, then downloads the city's newer version if there is one. Resolves to its state. */
  update(city, { signal } = {}) {
    return this.download(city, { signal, refresh: true });
  }

  /** Stops a queued or running download of the city; what was installed stays. */
  cancel(city) {
    this._jobs.get(city)?.controller.abort(new DOMException('cancelled', 'AbortError'));
  }

  /** Removes an installed city and the files no other city uses. */
  async remove(city) {
    await this.ready();
    this.cancel(city);
    await this._jobs.get(city)?.promise;
    await this._exclusive(false, async () => {
      await this.storage.deleteRecord(cityKey(city));
      this._installed.delete(city);
      this._states.delete(city);
      await this._collect();
    });
    this._emit(city);
  }

  _fail(city, e) {
    const installedVersion = this._installed.get(city)?.version ?? null;
    const error = e instanceof LibraryError ? e : new LibraryError('damaged', e?.message ?? String(e));
    const state = { kind: 'failed', reason: error.reason, installedVersion, message: error.message };
    if (error.status !== undefined) state.status = error.status;
    if (error.bytes !== undefined) state.bytes = error.bytes;
    this._set(city, state);
  }

  async _run(city, signal, refresh) {
    try {
      await this.ready();
      if (signal.aborted) throw signal.reason;
      if (refresh || !this.catalog) await this.refresh({ signal });
      const entry = this.entry(city);
      if (!entry) throw new LibraryError('server_error', `the catalog has no city ${city}`, { status: 404 });
      const record = await this.storage.getRecord(cityKey(city));
      if (record) this._installed.set(city, record);
      if (record && entry.dataVersion < record.version) {
        throw new LibraryError('older_release', `the catalog offers ${city} version ${entry.dataVersion}, older than the installed version ${record.version}: refused`);
      }
      if (record && entry.dataVersion === record.version) {
        this._set(city, null);
        return this.state(city);
      }
      const known = await this._manifest(entry, signal);
      const manifest = known.manifest;
      if (!manifest.web || !Array.isArray(manifest.web.parts)) throw new LibraryError('unsupported', `${entry.manifest}: the manifest lists no web flavour`);
      if (manifest.web.format !== WEB_FORMAT) throw new LibraryError('unsupported', `web format ${manifest.web.format} is newer than this reader (${WEB_FORMAT})`);
      if (manifest.city?.id !== undefined && manifest.city.id !== city) throw new LibraryError('tampered', `${entry.manifest} is the manifest of ${manifest.city.id}, not ${city}`);
      if (manifest.dataVersion !== entry.dataVersion) throw new LibraryError('damaged', `${entry.manifest} is version ${manifest.dataVersion}, the catalog says ${entry.dataVersion}`);
      await this._checkSignature(manifest, entry.manifest);

      const files = webFiles(manifest);
      const missing = [];
      for (const f of files) if (!(await this.storage.hasFile(f.sha256))) missing.push(f);
      const total = missing.reduce((n, f) => n + f.bytes, 0);
      await this._checkSpace(total);
      let done = 0;
      const progress = (bytes) => {
        this._set(city, { kind: 'downloading', bytes, total });
        this.dispatchEvent(new CustomEvent('progress', { detail: { city, bytes, total } }));
      };
      progress(0);
      for (const f of missing) {
        const url = new URL(f.path, known.url).href;
        const bytes = await this._fetchFile(url, f, signal, (n) => progress(done + n));
        await this._store(f.sha256, bytes);
        done += f.bytes;
        progress(done);
      }

      // Every file is stored and verified: switch with one record, then open the new version before the old
      // one's files go.
      this._set(city, { kind: 'applying', installedVersion: record?.version ?? null });
      await this._store(known.sha256, known.bytes);
      const next = { city, name: entry.name ?? city, version: manifest.dataVersion, manifest: { sha256: known.sha256, bytes: known.bytes.length }, files, installedAt: new Date().toISOString() };
      for (const f of [next.manifest, ...files]) {
        if (!(await this.storage.hasFile(f.sha256))) throw new LibraryError('damaged', `a stored file vanished before the switch (${f.sha256})`);
      }
      await this.storage.putRecord(cityKey(city), next);
      this._installed.set(city, next);
      try {
        await this._open(next);
      } catch (e) {
        if (record) await this.storage.putRecord(cityKey(city), record);
        else await this.storage.deleteRecord(cityKey(city));
        if (record) this._installed.set(city, record);
        else this._installed.delete(city);
        throw new LibraryError('damaged', `the new version did not open: ${e.message}`);
      }
      await this._collect();
      this._set(city, null);
    } catch (e) {
      if (isAbort(e) || signal.aborted) this._set(city, null);
      else this._fail(city, e);
    }
    return this.state(city);
  }

  async _checkSpace(bytes) {
    const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => null);
    if (estimate && estimate.quota - estimate.usage < bytes) {
      throw new LibraryError('not_enough_space', `${bytes} bytes needed, ${estimate.quota - estimate.usage} free`, { bytes });
    }
  }

  async _store(sha, bytes) {
    try {
      await this.storage.putFile(sha, bytes);
    } catch (e) {
      if (e?.name === 'QuotaExceededError') throw new LibraryError('not_enough_space', `storage is full (${e.message})`, { bytes: bytes.length });
      throw e;
    }
  }

  /** Deletes stored files no installed city references (after a switch, a removal, or a crash mid-download). */
  async _collect() {
    const keep = new Set();
    for (const key of await this.storage.recordKeys()) {
      if (!key.startsWith('city:')) continue;
      const r = await this.storage.getRecord(key);
      for (const f of [r.manifest, ...r.files]) keep.add(f.sha256);
    }
    for (const sha of await this.storage.fileKeys()) if (!keep.has(sha)) await this.storage.deleteFile(sha);
  }

  /**
   * The copy of the installed cities' string tables for `locale` (its language, the pack's default locale, else
   * English): a function (key, params) → text with placeholders filled; the key itself when no table has it
   * (nothing downloaded yet). Plural entries give their `other` form.
   * @param {string} [locale]
   */
  async copy(locale) {
    await this.ready();
    let table = {};
    for (const record of this._installed.values()) {
      try {
        const manifest = JSON.parse(new TextDecoder().decode(await this.storage.getFile(record.manifest.sha256)));
        const available = manifest.web?.strings ?? {};
        const chosen = [locale, locale?.split(/[-_]/)[0], manifest.city?.defaultLocale, 'en'].find((l) => l && l in available);
        const file = chosen && record.files.find((f) => f.path === available[chosen]);
        const bytes = file && (await this.storage.getFile(file.sha256));
        if (bytes) {
          table = JSON.parse(new TextDecoder().decode(bytes));
          break;
        }
      } catch {
        // A city whose strings do not read is skipped; open() reports it.
      }
    }
    if (Object.keys(table).length === 0) {
      const kept = await this.storage.getRecord('copy');
      const chosen = [locale, locale?.split(/[-_]/)[0], kept?.defaultLocale, 'en'].find((l) => l && kept?.tables[l]);
      if (chosen) table = kept.tables[chosen];
    }
    return (key, params) => {
      const value = table[key];
      const text = typeof value === 'string' ? value : (value?.other ?? key);
      return fillCopy(text, params);
    };
  }

  // -- opening ----------------------------------------------------------------------------------------------

  /**
   * Opens the installed version of a city from storage (no network): a CityPack with every part and the strings
   * of `locales` (default: the pack's default locale). Throws LibraryError('damaged') when its files are missing
   * or do not verify, and a TypeError when the city is not installed.
   * @param {string} city @param {{locales?: string[]}} [options]
   */
  async open(city, options = {}) {
    await this.ready();
    // Fresh from storage: another page or worker may have updated the city since.
    const record = await this.storage.getRecord(cityKey(city));
    if (!record) throw new TypeError(`${city} is not downloaded`);
    this._installed.set(city, record);
    try {
      return await this._open(record, options);
    } catch (e) {
      throw new LibraryError('damaged', `${city} version ${record.version} does not open: ${e.message}`);
    }
  }

  _open(record, options = {}) {
    return openPack(storageFetch(this.storage, record), `${storeBase}${encodeURIComponent(record.city)}/manifest.json`, {
      publicKey: this.publicKey,
      requireSignature: this.requireSignature,
      strings: options.locales,
    });
  }

  // -- network ----------------------------------------------------------------------------------------------

  /** A small document (catalog, manifest): bounded retries, stall timeout; 200 or 304. */
  async _fetchSmall(url, headers, signal) {
    for (let attempt = 0; ; attempt++) {
      try {
        const chunks = [];
        const response = await this._attempt(url, headers, signal, (c) => chunks.push(c));
        return { bytes: concat(chunks), response };
      } catch (e) {
        if (!this._retryable(e, attempt)) throw this._classify(e, url);
        await sleep(this.backoffMs * 2 ** attempt, signal);
      }
    }
  }

  _retryable(e, attempt) {
    if (isAbort(e) || attempt >= this.retries) return false;
    if (e instanceof LibraryError) return e.reason === 'server_error' && e.status >= 500;
    return true;
  }

  _classify(e, url) {
    if (isAbort(e) || e instanceof LibraryError) return e;
    if (e?.stalled) return new LibraryError('timeout', `${url}: no data for ${this.stallTimeoutMs} ms`);
    return new LibraryError('offline', `${url}: ${e?.message ?? e}`);
  }

  /**
   * One request: resolves to the response once its body has been read through `onChunk` (status 200, 206 or
   * 304), rejects on a dropped connection (TypeError), a stall ({stalled: true}), or an HTTP error (LibraryError
   * server_error).
   */
  async _attempt(url, headers, signal, onChunk, onResponse) {
    signal?.throwIfAborted();
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer;
    let stalled = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { stalled = true; controller.abort(new DOMException('stalled', 'TimeoutError')); }, this.stallTimeoutMs);
    };
    try {
      arm();
      let response;
      try {
        response = await this._fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
      } catch (e) {
        throw stalled ? Object.assign(new Error('stalled'), { stalled: true }) : e;
      }
      if (response.status === 304) return response;
      if (!response.ok) {
        await response.body?.cancel?.().catch(() => {});
        throw new LibraryError('server_error', `${url}: HTTP ${response.status}`, { status: response.status });
      }
      onResponse?.(response);
      try {
        if (response.body?.getReader) {
          const reader = response.body.getReader();
          for (;;) {
            arm();
            const { done, value } = await reader.read();
            if (done) break;
            onChunk(value);
          }
        } else {
          onChunk(new Uint8Array(await response.arrayBuffer()));
        }
      } catch (e) {
        if (stalled) throw Object.assign(new Error('stalled'), { stalled: true });
        if (signal?.aborted) throw signal.reason;
        throw new TypeError(`the connection was lost mid-body (${e?.message ?? e})`);
      }
      return response;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * One file of a version: streamed, resumed after a dropped or stalled connection with Range + If-Range
   * (restarted when the server answers 200: the validator changed or ranges are not supported), retried with
   * back-off, then checked against its size and SHA-256.
   */
  async _fetchFile(url, file, signal, onBytes) {
    let chunks = [];
    let received = 0;
    let validator = null;
    let encoding = null;
    const restart = () => {
      chunks = [];
      received = 0;
      onBytes(0);
    };
    for (let attempt = 0; ; attempt++) {
      const headers = {};
      if (received > 0 && validator) {
        headers.range = `bytes=${received}-`;
        headers['if-range'] = validator;
      } else if (received > 0) {
        restart();
      }
      try {
        await this._attempt(url, headers, signal, (chunk) => {
          chunks.push(chunk);
          received += chunk.length;
          onBytes(Math.min(received, file.bytes));
        }, (response) => {
          encoding = response.headers?.get?.('content-encoding') ?? null;
          if (response.status === 206) {
            const start = Number(/bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]);
            if (start !== received) {
              restart();
              validator = null;
              throw new TypeError(`the server resumed at byte ${start}, not ${received}`);
            }
            return;
          }
          if (received > 0) restart(); // 200: the whole file again
          const etag = response.headers?.get?.('etag');
          validator = etag && !etag.startsWith('W/') ? etag : (response.headers?.get?.('last-modified') ?? null);
        });
        break;
      } catch (e) {
        if (!this._retryable(e, attempt)) throw this._classify(e, url);
        await sleep(this.backoffMs * 2 ** attempt, signal);
      }
    }
    const bytes = concat(chunks);
    const hint = reencodingHint(file.path, bytes, encoding);
    if (bytes.length !== file.bytes) throw new LibraryError('damaged', `${file.path}: ${bytes.length} bytes, the manifest says ${file.bytes}${hint}`);
    const digest = await sha256(bytes);
    if (digest !== file.sha256) throw new LibraryError('damaged', `${file.path}: SHA-256 ${digest} is not the manifest's ${file.sha256}${hint}`);
    return bytes;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Copy and rendering: what every offline screen would otherwise write

/** A byte count for people: "30 KB", "1.2 MB" (SI units, the locale's digits). */
export function formatBytes(bytes, locale) {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit > 0 && value < 10 ? 1 : 0;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** Copy syntax: `{name}` placeholders filled from `params` (unknown ones stay as written). */
export function fillCopy(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (params[name] === undefined ? m : String(params[name])));
}

/**
 * What to show for a state, from the pack's copy (keys `pack.state.*` and `download_error.<reason>.*`):
 * {text, headline, action} (headline: "Update failed" when a failed update left the installed version; action:
 * the copy's next step for a failure; null when none). `t(key, params)` looks a key up (PackLibrary#copy).
 * @param {PackState} state @param {(key: string, params?: object) => string} t
 * @param {{name?: string, locale?: string}} [context] the city's display name, the locale for sizes
 */
export function describeState(state, t, { name, locale } = {}) {
  const size = (n) => formatBytes(n ?? 0, locale);
  switch (state.kind) {
    case 'downloading':
      return { text: t('pack.state.downloading', { percent: state.total ? Math.floor((100 * state.bytes) / state.total) : 0, size: size(state.total) }), headline: null, action: null };
    case 'applying':
      return { text: t(state.installedVersion == null ? 'pack.state.installing' : 'pack.state.updating'), headline: null, action: null };
    case 'on_disk_out_of_date':
      return { text: t('pack.state.update_available', { size: size(state.updateBytes) }), headline: null, action: null };
    case 'failed': {
      const params = { status: state.status ?? '', size: size(state.bytes), city: name ?? '' };
      return {
        text: t(`download_error.${state.reason}.message`, params),
        headline: state.installedVersion == null ? null : t('pack.state.update_failed'),
        action: t(`download_error.${state.reason}.action`, params),
      };
    }
    default:
      return { text: t(`pack.state.${state.kind}`), headline: null, action: null };
  }
}

/**
 * Renders the catalog's cities into `list` (a <ul>: name, state text, progress, one button for the next step)
 * and the downloaded ones into `chips` (buttons calling `onOpen(city)`; "No cities downloaded yet" when none),
 * and keeps both current as states change. Elements carry `data-city`, `data-state` and `data-reason` for styling
 * and tests. Returns a function that re-renders (e.g. after the locale changed) and the copy function in use.
 * @param {PackLibrary} library
 * @param {{list: HTMLElement, chips: HTMLElement, heading?: HTMLElement}} elements
 * @param {{locale?: string, onOpen?: (city: string) => void}} [options]
 */
export async function renderCityList(library, { list, chips, heading }, { locale, onOpen } = {}) {
  let t = await library.copy(locale);
  const doc = list.ownerDocument;
  const make = (tag, props, ...children) => {
    const node = Object.assign(doc.createElement(tag), props);
    node.append(...children.filter((c) => c != null));
    return node;
  };
  const step = (city, state) => {
    const installed = state.installedVersion != null || state.kind === 'on_disk' || state.kind === 'on_disk_out_of_date';
    if (state.kind === 'queued' || state.kind === 'downloading') return ['Cancel', () => library.cancel(city)];
    if (state.kind === 'on_disk_out_of_date') return ['Update', () => library.update(city)];
    if (state.kind === 'failed') return [describeState(state, t).action, () => (installed ? library.update(city) : library.download(city))];
    if (state.kind === 'not_downloaded') return ['Download', () => library.download(city)];
    if (state.kind === 'on_disk') return ['Remove', () => library.remove(city)];
    return null;
  };
  const render = () => {
    const cities = library.cities();
    list.replaceChildren(
      ...cities.map(({ city, name, state }) => {
        const shown = describeState(state, t, { name, locale });
        const action = step(city, state);
        const row = make('li', { className: 'city' },
          make('span', { className: 'name', textContent: name }),
          shown.headline ? make('strong', { className: 'headline', textContent: shown.headline }) : null,
          make('span', { className: 'state', textContent: shown.text }),
          state.kind === 'downloading' ? make('progress', { max: state.total || 1, value: state.bytes }) : null,
          action ? make('button', { type: 'button', className: 'step', textContent: action[0], onclick: action[1] }) : null);
        Object.assign(row.dataset, { city, state: state.kind, reason: state.reason ?? '' });
        if (state.message) row.title = state.message; // the technical detail, for support and tests
        return row;
      }),
    );
    const saved = cities.filter(({ city }) => library.installedVersion(city) != null);
    if (heading) heading.textContent = t('pack.choose_city');
    chips.replaceChildren(
      ...(saved.length
        ? saved.map(({ city, name }) => {
            const chip = make('button', { type: 'button', className: 'chip', textContent: name, onclick: () => onOpen?.(city) });
            chip.dataset.city = city;
            return chip;
          })
        : [make('p', { className: 'empty', textContent: t('pack.no_cities') })]),
    );
  };
  library.addEventListener('statechange', async (e) => {
    // A city just installed (or a first catalog) may bring the first copy tables, or newer ones.
    if (e.detail.state.kind === 'on_disk' || e.detail.state.kind === 'not_downloaded') t = await library.copy(locale);
    render();
  });
  render();
  return { render, t: (key, params) => t(key, params) };
}

/**
 * Renders places (rows of pack.search or pack.nearby) into a list: name (or category), category, distance.
 * Each item carries `data-id`. Shows `empty` when there are none.
 * @param {HTMLElement} list @param {object[]} rows @param {{empty?: string}} [options]
 */
export function renderPlaces(list, rows, { empty = '' } = {}) {
  const doc = list.ownerDocument;
  const item = (row) => {
    const li = doc.createElement('li');
    li.dataset.id = row.id;
    const distance = row.distance_m == null ? '' : ` · ${Math.round(row.distance_m)} m`;
    li.textContent = `${row.name ?? row.category} (${row.category})${distance}`;
    return li;
  };
  list.replaceChildren(...(rows.length ? rows.map(item) : [Object.assign(doc.createElement('li'), { className: 'empty', textContent: empty })]));
}

function concat(chunks) {
  const n = chunks.reduce((a, c) => a + c.length, 0);
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
