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
import { bundlePlan, fetchBundle } from './library-bundle.js';
import { manifestCost, patchedManifest } from './library-patch.js';
import { fillCopy, libraryCopy } from './library-screen.js';
import { IndexedDBStore, MemoryStore, storageFetch, storeBase } from './library-storage.js';
import { localParts } from './zone.js';

// The storage adapters (library-storage.js) and the screen helpers (library-screen.js) are part of this module's API.
export { CacheStore, IndexedDBStore, MemoryStore, storageFetch } from './library-storage.js';
export { describeState, fillCopy, formatBytes, libraryCopy, renderCityList, renderPlaces, searchOrigin } from './library-screen.js';

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

// ---------------------------------------------------------------------------------------------------------------
// The library

/**
 * @typedef {{kind: 'not_downloaded', evicted?: true, version?: number} | {kind: 'queued'}
 *   | {kind: 'downloading', bytes: number, total: number}
 *   | {kind: 'paused', version: number, installedVersion: number|null, bytes: number, total: number, evicted?: true}
 *   | {kind: 'applying', installedVersion: number|null} | {kind: 'on_disk', version: number, timetableEnded?: string}
 *   | {kind: 'on_disk_out_of_date', version: number, update: number, updateBytes: number|null}
 *   | {kind: 'failed', reason: string, installedVersion: number|null, status?: number, bytes?: number, message: string}} PackState
 */

const stageKey = (city) => `stage:${city}`;
const evictedKey = (city) => `evicted:${city}`;
const partialKey = (sha) => `partial:${sha}`;
const pieceKey = (sha, i) => `partial:${sha}:${i}`;

// Error codes (Node's, undici's) of a request that never reached a server: reported as offline at once, where a
// connection reset or a stall is retried with back-off.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a fetch that rejected before any response never reached a server (refused, unreachable, no DNS): Node
 * names the cause's code; a browser's TypeError ("Failed to fetch") names none, and there a rejection before the
 * response is taken as unreachable too (a reset mid-body is not: that is a lost connection).
 */
function unreachable(e) {
  if (globalThis.navigator?.onLine === false) return true;
  for (let c = e, depth = 0; c && depth < 5; c = c.cause ?? c.errors?.[0], depth++) {
    if (typeof c.code === 'string') return UNREACHABLE.has(c.code);
  }
  return true;
}

/**
 * The string-table locales of a manifest for the locales an app names: each one's table (or its language's), and
 * when none of them has one, the city's first locale (`city.locales[0]`, else its default locale).
 */
function tableLocales(manifest, wanted) {
  const available = manifest?.web?.strings ?? {};
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

/** The files of a version the library fetches: every data file, and the string tables of `locales` only. */
function neededFiles(manifest, locales) {
  const tables = new Set(Object.values(manifest?.web?.strings ?? {}));
  const chosen = new Set(locales.map((l) => manifest.web.strings[l]));
  return webFiles(manifest).filter((f) => !tables.has(f.path) || chosen.has(f.path));
}

const sum = (files) => files.reduce((n, f) => n + f.bytes, 0);

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
   * @param {object} options
   * @param {string} options.catalogURL URL of catalog.json (relative URLs resolve against the page)
   * @param {PackStorage} [options.storage] default: IndexedDBStore when IndexedDB exists, else MemoryStore
   * @param {typeof fetch} [options.fetch] default: the global fetch
   * @param {string|Uint8Array} [options.publicKey] trusted Ed25519 key: catalog and manifests must be signed by it
   * @param {boolean} [options.requireSignature] refuse unsigned catalogs and manifests (default: true with a key)
   * @param {number} [options.retries=3] further attempts per file after a dropped or stalled connection or a 5xx
   * @param {number} [options.stallTimeoutMs=15000] milliseconds without a byte before a connection counts as stalled
   * @param {number} [options.backoffMs=500] first wait before a retry (doubled each time)
   * @param {number} [options.concurrency=6] requests in flight while a city downloads (6: what browsers open per host over HTTP/1.1; HTTP/2 multiplexes them)
   * @param {string[]|string} [options.locales] the locales whose string tables are downloaded (others are fetched
   *   when `open` or `copy` asks for them); default: the device's locale (navigator.language), and a city without
   *   it gets its first locale's table
   * @param {number} [options.checkpointBytes=262144] bytes of a file in flight kept in storage at a time, so a
   *   restart resumes it (0: keep only whole files)
   * @param {boolean} [options.persist=true] ask for persistent storage (navigator.storage.persist()) on a download
   */
  constructor({ catalogURL, storage, fetch: fetchImpl, publicKey, requireSignature, retries = 3, stallTimeoutMs = 15000, backoffMs = 500, concurrency = 6, locales, checkpointBytes = 262144, persist = true } = {}) {
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
    this.concurrency = Math.max(1, Math.floor(concurrency));
    const device = globalThis.navigator?.language;
    this.locales = locales == null ? (device ? [device] : []) : [locales].flat();
    this.checkpointBytes = checkpointBytes;
    this.persist = persist;
    /** Whether the browser keeps this origin's storage under pressure: true, false, or null (unknown, no API). */
    this.persisted = null;
    this._catalog = null; // {document, etag, lastModified}: the accepted catalog and the validators it came with
    this._manifests = new Map(); // catalog manifest path → parsed manifest (verified hash)
    this._states = new Map(); // city → transient state (queued, downloading, applying, failed)
    this._installed = new Map(); // city → record
    this._staged = new Map(); // city → {version, started, total, remaining}: a staged version, measured in storage
    this._evicted = new Map(); // city → {version}: a saved city the browser evicted
    this._jobs = new Map(); // city → {controller, promise}
    this._queue = Promise.resolve();
    this._ready = null;
    this._askedPersist = false;
  }

  /**
   * Loads what storage holds (installed cities, staged downloads, the last catalog), notices saved cities whose
   * files the browser evicted, and removes files nothing refers to.
   */
  ready() {
    this._ready ??= (async () => {
      for (const key of await this.storage.recordKeys()) {
        if (key.startsWith('city:')) this._installed.set(key.slice(5), await this.storage.getRecord(key));
        if (key.startsWith('evicted:')) this._evicted.set(key.slice(8), await this.storage.getRecord(key));
      }
      this._catalog = (await this.storage.getRecord('catalog')) ?? null;
      // Debris of a download that was killed, and evictions; skipped while another page or worker of this storage
      // downloads.
      await this._exclusive(true, async (mine) => {
        if (!mine) return;
        await this._noticeEvictions();
        await this._collect();
      });
      await this._measureAll();
      this._persistence(false);
    })();
    return this._ready;
  }

  /**
   * Runs `body(held)` holding this storage's Web Lock (pages, workers and service workers of an origin share it),
   * so one context downloads or deletes at a time; `ifAvailable`: do not wait (held is false when another context
   * has it). Without Web Locks (Node) the body runs at once: one library per storage. `held`: the caller holds
   * the lock already (a download refreshing the catalog), the body runs at once.
   */
  _exclusive(ifAvailable, body, held = false) {
    const locks = globalThis.navigator?.locks;
    if (!locks || held) return body(true);
    return locks.request(`citypack-library:${this.storage.name ?? ''}`, { ifAvailable }, (lock) => body(lock != null));
  }

  /**
   * Reads (ask false) or requests (ask true: navigator.storage.persist()) persistent storage and reports the
   * answer in `persisted` and a `persistence` event. Without the API the answer stays null.
   */
  async _persistence(ask) {
    const api = globalThis.navigator?.storage;
    if (!api?.persisted) return this.persisted;
    let value = await api.persisted().catch(() => null);
    if (ask && value === false && api.persist) value = await api.persist().catch(() => false);
    if (value !== this.persisted) {
      this.persisted = value;
      this.dispatchEvent(new CustomEvent('persistence', { detail: { persisted: value } }));
    }
    return value;
  }

  /**
   * A saved city whose files are gone (the browser evicted them, or its storage was cleared but for the records)
   * becomes `evicted`: its record is dropped, the files left are staged for the next download. A city the page's
   * note (localStorage, when the storage has a name) lists as saved but storage has no record of is evicted too.
   */
  async _noticeEvictions() {
    const keys = new Set(await this.storage.fileKeys());
    for (const [city, record] of [...this._installed]) {
      const all = [record.manifest, ...record.files];
      if (all.every((f) => keys.has(f.sha256))) continue;
      const left = all.filter((f) => keys.has(f.sha256));
      if (left.length > 0) {
        await this.storage.putRecord(stageKey(city), { city, version: record.version, manifest: record.manifest, files: record.files, locales: record.locales, total: sum(all), started: true });
      }
      await this._markEvicted(city, record.version);
      await this.storage.deleteRecord(cityKey(city));
      this._installed.delete(city);
    }
    for (const [city, version] of Object.entries(this._note() ?? {})) {
      if (!this._installed.has(city) && !this._evicted.has(city)) await this._markEvicted(city, version);
    }
  }

  async _markEvicted(city, version) {
    const value = { version, noticedAt: new Date().toISOString() };
    await this.storage.putRecord(evictedKey(city), value);
    this._evicted.set(city, value);
  }

  /** The saved cities as the page's localStorage remembers them ({city: version}), or null when there is none. */
  _note() {
    try {
      const ls = globalThis.localStorage;
      if (!ls || typeof this.storage.name !== 'string') return null;
      return JSON.parse(ls.getItem(`citypack-library:${this.storage.name}`) ?? 'null');
    } catch {
      return null; // no localStorage here (a worker), or it is blocked
    }
  }

  /** Writes the page's note of the saved cities from storage's records (another page may have changed them). */
  async _writeNote() {
    try {
      const ls = globalThis.localStorage;
      if (!ls || typeof this.storage.name !== 'string') return;
      const saved = {};
      for (const key of await this.storage.recordKeys()) if (key.startsWith('city:')) saved[key.slice(5)] = (await this.storage.getRecord(key))?.version;
      ls.setItem(`citypack-library:${this.storage.name}`, JSON.stringify(saved));
    } catch {
      // No localStorage here (a worker), or it is blocked: evictions of whole storages go unnoticed.
    }
  }

  /** The last accepted catalog document, or null. */
  get catalog() {
    return this._catalog?.document ?? null;
  }

  // -- catalog ----------------------------------------------------------------------------------------------

  /**
   * Fetches catalog.json with the server's own validator (If-None-Match with its ETag, If-Modified-Since with its
   * Last-Modified), checks its signature and refuses a catalog older than the accepted one (any city's
   * dataVersion lower). Then learns, per installed city with a newer version, the update's size (its manifest);
   * nothing else is fetched. Staged versions the new catalog no longer offers are dropped. Throws a LibraryError
   * (the accepted catalog stays). Resolves to true when the catalog changed.
   */
  refresh({ signal } = {}) {
    return this._refresh(signal, false);
  }

  async _refresh(signal, held) {
    await this.ready();
    const headers = {};
    if (this._catalog?.etag) headers['if-none-match'] = this._catalog.etag;
    else if (this._catalog?.lastModified) headers['if-modified-since'] = this._catalog.lastModified;
    const { bytes, response } = await this._fetchSmall(this.catalogURL, headers, signal);
    if (response.status === 304) {
      await this._learnUpdates(signal, held);
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
    await this._dropUnoffered(held);
    await this._learnUpdates(signal, held);
    for (const p of document.packs) this._emit(p.id);
    return true;
  }

  /** Drops the staged versions the accepted catalog no longer offers (not those a download of this library runs). */
  async _dropUnoffered(held) {
    for (const [city, staged] of [...this._staged]) {
      if ((this._jobs.has(city) && !held) || this.entry(city)?.dataVersion === staged.version) continue;
      await this._exclusive(true, (mine) => mine && this._dropStage(city), held);
      this._emit(city);
    }
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

  /**
   * Per installed city with a newer version in the catalog: the update's manifest (fetched once, unless a staged
   * record already lists its files), recorded as a staged version not started yet so that its size is known after
   * a restart offline too.
   */
  async _learnUpdates(signal, held) {
    for (const [city, record] of this._installed) {
      const entry = this.entry(city);
      if (!entry || entry.dataVersion <= record.version) continue;
      const stage = await this.storage.getRecord(stageKey(city));
      if (stage?.version !== entry.dataVersion && (held || !this._jobs.has(city))) {
        try {
          const known = await this._manifest(entry, signal);
          await this._exclusive(true, async (mine) => {
            if (mine) await this.storage.putRecord(stageKey(city), await this._newStage(city, known, record));
          }, held);
        } catch (e) {
          if (isAbort(e)) throw e;
          // Otherwise the size stays unknown until the update runs; the update reports the failure.
        }
      }
      await this._measure(city);
      this._emit(city);
    }
  }

  /** A staged version (not started) of a known manifest: its files for the library's locales and the city's. */
  async _newStage(city, known, record) {
    const locales = tableLocales(known.manifest, [...this.locales, ...(record?.locales ?? [])]);
    const files = neededFiles(known.manifest, locales);
    const keys = new Set(await this.storage.fileKeys());
    const stage = { city, version: known.manifest.dataVersion, manifestURL: known.url, manifest: { sha256: known.sha256, bytes: known.bytes.length }, files, locales, total: 0, started: false };
    if (known.patch) stage.patch = known.patch; // the manifest came through a patch: its bytes are what it costs
    const fresh = [{ sha256: known.sha256, bytes: manifestCost(stage, record, keys) }, ...files].filter((f, i, all) => !keys.has(f.sha256) && all.findIndex((g) => g.sha256 === f.sha256) === i);
    stage.total = sum(fresh);
    return stage;
  }

  /**
   * The manifest a catalog entry names, fetched once and checked against the entry's manifestSha256; rebuilt from
   * the installed one and a patch of the entry's `manifestPatches` when one applies (library-patch.js).
   */
  async _manifest(entry, signal) {
    const url = new URL(entry.manifest, this.catalogURL).href;
    if (this._manifests.has(url)) return this._manifests.get(url);
    const patched = await patchedManifest(this, entry, url, signal);
    if (patched) return patched;
    const { bytes, response } = await this._fetchSmall(url, {}, signal);
    return this._acceptManifest(entry, url, bytes, response.headers.get('content-encoding'));
  }

  _acceptManifest(entry, url, bytes, encoding) {
    return (async () => {
      const digest = await sha256(bytes);
      if (entry.manifestSha256 && digest !== entry.manifestSha256) {
        throw new LibraryError('damaged', `${entry.manifest}: SHA-256 ${digest} is not the catalog's ${entry.manifestSha256}${reencodingHint(url, bytes, encoding)}`);
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
    })();
  }

  // -- states -----------------------------------------------------------------------------------------------

  /** The state of a city (see PackState). */
  state(city) {
    const transient = this._states.get(city);
    if (transient) return transient;
    const record = this._installed.get(city);
    const staged = this._staged.get(city);
    const evicted = this._evicted.get(city);
    if (staged?.started && (!record || staged.version > record.version)) {
      const state = { kind: 'paused', version: staged.version, installedVersion: record?.version ?? null, bytes: Math.max(0, staged.total - staged.remaining), total: staged.total };
      if (evicted) state.evicted = true;
      return state;
    }
    if (!record) return evicted ? { kind: 'not_downloaded', evicted: true, version: evicted.version } : { kind: 'not_downloaded' };
    const entry = this.entry(city);
    const ended = timetableEnded(record);
    if (entry && entry.dataVersion > record.version) {
      const updateBytes = staged?.version === entry.dataVersion ? staged.remaining : null;
      const state = { kind: 'on_disk_out_of_date', version: record.version, update: entry.dataVersion, updateBytes };
      if (ended) state.timetableEnded = ended;
      return state;
    }
    return ended ? { kind: 'on_disk', version: record.version, timetableEnded: ended } : { kind: 'on_disk', version: record.version };
  }

  /**
   * Measures a city's staged version in storage: `remaining`, the bytes its download will fetch (the manifest and
   * every needed file not stored, less the bytes of files in flight kept from before), and `total`.
   */
  async _measure(city, keys) {
    const stage = await this.storage.getRecord(stageKey(city));
    const record = this._installed.get(city);
    if (!stage || (record && stage.version <= record.version)) {
      this._staged.delete(city);
      return;
    }
    keys ??= new Set(await this.storage.fileKeys());
    let remaining = 0;
    const seen = new Set();
    for (const f of [stage.manifest, ...stage.files]) {
      if (keys.has(f.sha256) || seen.has(f.sha256)) continue;
      seen.add(f.sha256);
      const bytes = f === stage.manifest ? manifestCost(stage, record, keys) : f.bytes; // a patch's bytes when one applies
      remaining += bytes - (stage.started ? await this._heldBytes(f.sha256, keys) : 0);
    }
    this._staged.set(city, { version: stage.version, started: stage.started, total: Math.max(stage.total, remaining), remaining });
  }

  async _measureAll() {
    const keys = new Set(await this.storage.fileKeys());
    for (const key of await this.storage.recordKeys()) if (key.startsWith('stage:')) await this._measure(key.slice(6), keys);
  }

  async _heldBytes(sha, keys) {
    const meta = await this.storage.getRecord(partialKey(sha));
    let held = 0;
    for (let i = 0; i < (meta?.pieces?.length ?? 0) && keys.has(pieceKey(sha, i)); i++) held += meta.pieces[i];
    return held;
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

  /**
   * Installed cities: [{city, version, bytes, timetable?, timetableEnded?}] (bytes: every stored file of the version,
   * manifest included; timetable: the dates it covers, for a city with transit; timetableEnded: its last date once
   * it has ended in the city's time zone), as Swift `PackLibrary.installed()`.
   */
  async installed() {
    await this.ready();
    return [...this._installed.values()].map((r) => {
      const out = { city: r.city, version: r.version, bytes: r.manifest.bytes + sum(r.files) };
      if (r.timetable) out.timetable = r.timetable;
      const ended = timetableEnded(r);
      if (ended) out.timetableEnded = ended;
      return out;
    });
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
   * Downloads the catalog's version of a city (or updates to it), or goes on with a paused one: queued behind
   * other downloads, then every file the new version needs that is not stored yet (`concurrency` at a time, each
   * verified: size, SHA-256), then one atomic switch. Resolves to the city's state; a failure is a `failed` state
   * (not a rejection; what was fetched stays staged unless it failed verification), a cancel returns the previous
   * state and drops what was fetched.
   * @param {string} city
   * @param {{signal?: AbortSignal, refresh?: boolean}} [options] `refresh`: refresh the catalog first (update()).
   */
  download(city, { signal, refresh = false } = {}) {
    const running = this._jobs.get(city);
    if (running) return running.promise;
    const controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    if (this.persist && !this._askedPersist) {
      this._askedPersist = true;
      this._persistence(true); // not awaited: a browser may ask the user
    }
    this._set(city, { kind: 'queued' });
    const promise = (this._queue = this._queue.then(() => this._exclusive(false, () => this._run(city, controller.signal, refresh))));
    this._jobs.set(city, { controller, promise });
    return promise.finally(() => this._jobs.delete(city));
  }

  /** Refreshes the catalog, then downloads the city's newer version if there is one. Resolves to its state. */
  update(city, { signal } = {}) {
    return this.download(city, { signal, refresh: true });
  }

  /** Stops a queued or running download of the city and drops what it fetched; what was installed stays. */
  cancel(city) {
    this._jobs.get(city)?.controller.abort(new DOMException('cancelled', 'AbortError'));
  }

  /** Removes an installed (or staged, or evicted) city and the files no other city uses. */
  async remove(city) {
    await this.ready();
    this.cancel(city);
    await this._jobs.get(city)?.promise;
    await this._exclusive(false, async () => {
      await this.storage.deleteRecord(cityKey(city));
      await this.storage.deleteRecord(stageKey(city));
      await this.storage.deleteRecord(evictedKey(city));
      this._installed.delete(city);
      this._states.delete(city);
      this._staged.delete(city);
      this._evicted.delete(city);
      await this._writeNote();
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

  /**
   * Drops a city's staged version: the files only it referred to and the bytes of its files in flight. With
   * `keepLearned` an update's record stays, not started (its size is still known) but holding no file.
   */
  async _dropStage(city, keepLearned = false) {
    const stage = await this.storage.getRecord(stageKey(city));
    if (!stage) return;
    const installed = this._installed.get(city);
    if (keepLearned && installed && stage.version > installed.version) await this.storage.putRecord(stageKey(city), { ...stage, started: false });
    else await this.storage.deleteRecord(stageKey(city));
    await this._collect();
    await this._measure(city);
  }

  async _run(city, signal, refresh) {
    let staging = false;
    try {
      await this.ready();
      if (signal.aborted) throw signal.reason;
      if (refresh || !this.catalog) await this._refresh(signal, true);
      const entry = this.entry(city);
      if (!entry) throw new LibraryError('server_error', `the catalog has no city ${city}`, { status: 404 });
      const record = await this.storage.getRecord(cityKey(city));
      if (record) this._installed.set(city, record);
      if (record && entry.dataVersion < record.version) {
        throw new LibraryError('older_release', `the catalog offers ${city} version ${entry.dataVersion}, older than the installed version ${record.version}: refused`);
      }
      if (record && entry.dataVersion === record.version) {
        await this._dropStage(city);
        this._set(city, null);
        return this.state(city);
      }
      let stage = await this.storage.getRecord(stageKey(city));
      if (stage && stage.version !== entry.dataVersion) {
        await this._dropStage(city);
        stage = null;
      }
      const known = await this._stagedManifest(entry, stage, signal);
      const manifest = known.manifest;
      if (!manifest.web || !Array.isArray(manifest.web.parts)) throw new LibraryError('unsupported', `${entry.manifest}: the manifest lists no web flavour`);
      if (manifest.web.format !== WEB_FORMAT) throw new LibraryError('unsupported', `web format ${manifest.web.format} is newer than this reader (${WEB_FORMAT})`);
      if (manifest.city?.id !== undefined && manifest.city.id !== city) throw new LibraryError('tampered', `${entry.manifest} is the manifest of ${manifest.city.id}, not ${city}`);
      if (manifest.dataVersion !== entry.dataVersion) throw new LibraryError('damaged', `${entry.manifest} is version ${manifest.dataVersion}, the catalog says ${entry.dataVersion}`);
      await this._checkSignature(manifest, entry.manifest);

      // Stage the version: its manifest stored, then the record that keeps its files through restarts.
      const fresh = await this._newStage(city, known, record);
      if (stage?.manifest.sha256 === known.sha256) {
        // Going on with a staged version: its total stays, plus any table the app's locales now add.
        const listed = new Set(stage.files.map((f) => f.sha256));
        const stored = new Set(await this.storage.fileKeys());
        fresh.total = stage.total + sum(fresh.files.filter((f) => !listed.has(f.sha256) && !stored.has(f.sha256)));
      }
      // The record first, then the manifest it names: a collection between the two cannot take the manifest.
      staging = true;
      stage = { ...fresh, started: true };
      await this.storage.putRecord(stageKey(city), stage);
      await this._store(known.sha256, known.bytes);
      const keys = new Set(await this.storage.fileKeys());
      const missing = stage.files.filter((f, i, all) => !keys.has(f.sha256) && all.findIndex((g) => g.sha256 === f.sha256) === i);
      // String tables first: a first download's screen has its copy (kept through a restart) early.
      const tables = new Set(Object.values(manifest.web.strings ?? {}));
      missing.sort((a, b) => Number(tables.has(b.path)) - Number(tables.has(a.path)));
      const held = new Map();
      for (const f of missing) {
        const n = await this._heldBytes(f.sha256, keys);
        if (n > 0) held.set(f.sha256, n);
      }
      await this._checkSpace(sum(missing) - [...held.values()].reduce((a, b) => a + b, 0));
      await this._fetchAll(city, known.url, missing, held, Math.max(0, stage.total - sum(missing)), stage.total, signal, manifest);

      // Every file is stored and verified: switch with one record, then open the new version before the old
      // one's files go.
      this._set(city, { kind: 'applying', installedVersion: record?.version ?? null });
      const next = { city, name: entry.name ?? city, version: manifest.dataVersion, manifestURL: known.url, manifest: stage.manifest, files: stage.files, locales: stage.locales, installedAt: new Date().toISOString() };
      // The dates the timetable covers and the city's zone: the state marks a city whose timetable has ended.
      if (manifest.timetable) next.timetable = { first: manifest.timetable.first, last: manifest.timetable.last };
      const zone = manifest.city?.timezone ?? manifest.timezones?.[0];
      if (zone) next.timeZone = zone;
      for (const f of [next.manifest, ...next.files]) {
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
      await this.storage.deleteRecord(stageKey(city));
      await this.storage.deleteRecord(evictedKey(city));
      this._evicted.delete(city);
      await this._writeNote();
      await this._keepCopy(next, manifest);
      await this._collect();
      await this._measure(city);
      this._set(city, null);
    } catch (e) {
      if (isAbort(e) || signal.aborted) {
        // A cancel drops what was fetched (an update's size stays known).
        await this._dropStage(city, true).catch(() => {});
        this._set(city, null);
      } else {
        // A version whose bytes failed verification is dropped; other failures keep it staged for the next try.
        if (staging && e instanceof LibraryError && e.reason === 'damaged') await this._dropStage(city, true).catch(() => {});
        else await this._measure(city).catch(() => {});
        this._fail(city, e);
      }
    }
    return this.state(city);
  }

  /** The manifest of a staged version from storage (checked against its SHA-256), else from the network. */
  async _stagedManifest(entry, stage, signal) {
    const url = new URL(entry.manifest, this.catalogURL).href;
    if (!this._manifests.has(url) && stage?.manifest) {
      const bytes = await this.storage.getFile(stage.manifest.sha256);
      if (bytes && (await sha256(bytes)) === stage.manifest.sha256) {
        try {
          return await this._acceptManifest(entry, url, bytes, null);
        } catch {
          // Not the catalog's: fetched again below.
        }
      }
    }
    return this._manifest(entry, signal);
  }

  /**
   * Fetches the missing files of a version, `concurrency` requests at a time. Each file is verified on its own
   * and stored as soon as it is; the first failure stops the others (their bytes in flight are kept) and is
   * thrown. `held`: bytes kept of files in flight before (by SHA-256); `base`: bytes of the version already
   * stored; `total`: bytes of the whole download. With the manifest's `web.bundle` and more than `concurrency` of
   * its members missing, the members come in one streamed request first (library-bundle.js; the other files
   * beside it), and what it did not bring is fetched file by file.
   */
  async _fetchAll(city, manifestURL, missing, held, base, total, signal, manifest) {
    const inner = new AbortController();
    const forward = () => inner.abort(signal.reason);
    if (signal.aborted) forward();
    signal.addEventListener('abort', forward, { once: true });
    const inFlight = new Map(held);
    let done = 0;
    let failure = null;
    const progress = () => {
      let bytes = base + done;
      for (const n of inFlight.values()) bytes += n;
      bytes = Math.min(bytes, total);
      this._set(city, { kind: 'downloading', bytes, total });
      this.dispatchEvent(new CustomEvent('progress', { detail: { city, bytes, total } }));
    };
    progress();
    const queue = [];
    const worker = async () => {
      for (let f; !failure && (f = queue.shift()); ) {
        try {
          const bytes = await this._fetchFile(new URL(f.path, manifestURL).href, f, inner.signal, (n) => { inFlight.set(f.sha256, n); progress(); });
          await this._store(f.sha256, bytes);
          await this._dropPartial(f.sha256);
          done += f.bytes;
        } catch (e) {
          if (!failure) {
            failure = e;
            inner.abort(new DOMException('another file failed', 'AbortError'));
          }
        } finally {
          inFlight.delete(f.sha256);
        }
        if (!failure) progress();
      }
    };
    const pool = (files, width = this.concurrency) => {
      queue.push(...files);
      return Promise.all(Array.from({ length: Math.min(width, Math.max(1, files.length)) }, worker));
    };
    try {
      const plan = bundlePlan(manifest, manifestURL, missing, this.concurrency);
      if (plan) {
        const wanted = new Set(missing.filter((f) => plan.shas.has(f.sha256)).map((f) => f.sha256));
        const bundle = fetchBundle(this, plan, wanted, inner.signal, (m, n) => { inFlight.set(m.sha256, Math.max(held.get(m.sha256) ?? 0, n)); progress(); }, async (m, bytes) => {
          await this._store(m.sha256, bytes);
          await this._dropPartial(m.sha256);
          inFlight.delete(m.sha256);
          done += m.bytes;
          progress();
        }).catch(() => {}); // only an abort rejects: a cancel, or another file failed (thrown below)
        // The other files (string tables) beside it on the other connections; with one connection, after it.
        const others = missing.filter((f) => !plan.shas.has(f.sha256));
        await Promise.all([bundle, this.concurrency > 1 ? pool(others, this.concurrency - 1) : queue.push(...others)]);
        for (const sha of wanted) {
          if (held.has(sha)) inFlight.set(sha, held.get(sha));
          else inFlight.delete(sha);
        }
        if (!failure && !signal.aborted) await pool(missing.filter((f) => wanted.has(f.sha256)));
      } else {
        await pool(missing);
      }
    } finally {
      signal.removeEventListener('abort', forward);
    }
    if (failure || signal.aborted) throw signal.aborted ? signal.reason : failure;
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

  /**
   * Deletes stored files nothing refers to: not an installed version's, not a started staged version's, not the
   * kept pieces of a staged file in flight (after a switch, a removal, a drop, or a crash mid-download).
   */
  async _collect() {
    const keep = new Set();
    const staged = new Set();
    const keys = await this.storage.recordKeys();
    for (const key of keys) {
      if (!key.startsWith('city:') && !key.startsWith('stage:')) continue;
      const r = await this.storage.getRecord(key);
      if (!r || (key.startsWith('stage:') && !r.started)) continue;
      for (const f of [r.manifest, ...r.files]) keep.add(f.sha256);
      if (key.startsWith('stage:')) for (const f of r.files) staged.add(f.sha256);
    }
    const files = await this.storage.fileKeys();
    const stored = new Set(files);
    for (const key of keys) {
      if (!key.startsWith('partial:')) continue;
      const sha = key.slice(8);
      const meta = await this.storage.getRecord(key);
      if (staged.has(sha) && !stored.has(sha)) meta?.pieces?.forEach((_, i) => keep.add(pieceKey(sha, i)));
      else await this.storage.deleteRecord(key);
    }
    for (const key of files) if (!keep.has(key)) await this.storage.deleteFile(key);
  }

  /** Forgets the kept bytes of a file in flight (it is stored whole, or restarts). */
  async _dropPartial(sha) {
    const meta = await this.storage.getRecord(partialKey(sha));
    if (!meta) return;
    await this.storage.deleteRecord(partialKey(sha));
    for (let i = 0; i < (meta.pieces?.length ?? 0); i++) await this.storage.deleteFile(pieceKey(sha, i));
  }

  /** The kept bytes of a file in flight: {validator, pieces} (the pieces a prefix of the file), or null. */
  async _loadPartial(sha) {
    const meta = await this.storage.getRecord(partialKey(sha));
    if (!meta?.validator || !Array.isArray(meta.pieces)) return null;
    const pieces = [];
    for (let i = 0; i < meta.pieces.length; i++) {
      const piece = await this.storage.getFile(pieceKey(sha, i));
      if (!piece || piece.length !== meta.pieces[i]) break;
      pieces.push(piece);
    }
    return pieces.length ? { validator: meta.validator, pieces } : null;
  }

  /** Keeps the string tables of an installed city (record `copy`): the screen's copy once no city is left. */
  async _keepCopy(record, manifest) {
    try {
      const tables = {};
      for (const locale of record.locales ?? []) {
        const file = record.files.find((f) => f.path === manifest.web?.strings?.[locale]);
        const bytes = file && (await this.storage.getFile(file.sha256));
        if (bytes) tables[locale] = JSON.parse(new TextDecoder().decode(bytes));
      }
      if (Object.keys(tables).length) await this.storage.putRecord('copy', { manifest: record.manifestURL, defaultLocale: manifest.city?.defaultLocale, tables });
    } catch {
      // Best effort: the installed city's own tables serve copy() anyway.
    }
  }

  /**
   * Fetches (once, verified) and keeps the string tables of `locales` an installed city does not hold yet, adding
   * them to its record. Best effort: offline, or while the city downloads, the record stays as it is.
   */
  async _ensureTables(record, locales, signal) {
    if (!locales?.length || this._jobs.has(record.city)) return record;
    let manifest;
    try {
      manifest = JSON.parse(new TextDecoder().decode(await this.storage.getFile(record.manifest.sha256)));
    } catch {
      return record;
    }
    const strings = manifest.web?.strings ?? {};
    const have = new Set(record.files.map((f) => f.path));
    const want = locales.map((l) => [l, l?.split(/[-_]/)[0]].find((c) => c && c in strings)).filter((l, i, all) => l && all.indexOf(l) === i && !have.has(strings[l]));
    if (want.length === 0 || !record.manifestURL) return record;
    const all = webFiles(manifest);
    try {
      const added = [];
      for (const locale of want) {
        const file = all.find((f) => f.path === strings[locale]);
        if (!file) continue;
        if (!(await this.storage.hasFile(file.sha256))) await this._store(file.sha256, await this._fetchFile(new URL(file.path, record.manifestURL).href, file, signal, () => {}, false));
        added.push([locale, file]);
      }
      if (added.length === 0) return record;
      return await this._exclusive(true, async (mine) => {
        const current = await this.storage.getRecord(cityKey(record.city));
        if (!mine || current?.manifest.sha256 !== record.manifest.sha256) return record;
        const next = { ...current, files: [...current.files, ...added.map(([, f]) => f)], locales: [...(current.locales ?? []), ...added.map(([l]) => l)] };
        await this.storage.putRecord(cityKey(record.city), next);
        this._installed.set(record.city, next);
        return next;
      });
    } catch (e) {
      if (isAbort(e)) throw e;
      return record;
    }
  }

  /**
   * The copy of the installed cities' string tables for `locale` (its language, the pack's default locale, else
   * English), else of a staged download's, else the tables kept from the last install (record `copy`): a function
   * (key, params) → text with placeholders filled; the key itself when no table has it (nothing downloaded yet:
   * before a city is picked nothing but catalog.json is fetched). A locale whose table an installed city does not
   * hold is fetched and kept. Plural entries give their `other` form.
   * @param {string} [locale]
   */
  async copy(locale) {
    await this.ready();
    let table = {};
    // The installed cities', then a staged download's tables (the first download's copy before it is installed).
    const staged = [];
    for (const key of await this.storage.recordKeys()) if (key.startsWith('stage:')) staged.push(await this.storage.getRecord(key));
    for (let record of [...this._installed.values(), ...staged.filter((s) => s?.started)]) {
      try {
        if (locale && this._installed.get(record.city) === record) record = await this._ensureTables(record, [locale]);
        const manifest = JSON.parse(new TextDecoder().decode(await this.storage.getFile(record.manifest.sha256)));
        const available = manifest.web?.strings ?? {};
        const stored = new Set(record.files.map((f) => f.path));
        const chosen = [locale, locale?.split(/[-_]/)[0], manifest.city?.defaultLocale, 'en', ...(record.locales ?? [])].find((l) => l && l in available && stored.has(available[l]));
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
      const chosen = [locale, locale?.split(/[-_]/)[0], kept?.defaultLocale, 'en', ...Object.keys(kept?.tables ?? {})].find((l) => l && kept?.tables[l]);
      if (chosen) table = kept.tables[chosen];
    }
    // The copy the library ships (templates' pack.* and download_error.* keys) for what no stored table has:
    // the offline screen reads before the first download.
    const shipped = libraryCopy(locale);
    return (key, params) => {
      const value = table[key] ?? shipped[key];
      const text = typeof value === 'string' ? value : (value?.other ?? key);
      return fillCopy(text, params);
    };
  }

  // -- opening ----------------------------------------------------------------------------------------------

  /**
   * Opens the installed version of a city from storage (no network, but for string tables of `locales` not
   * stored yet, fetched once and kept): a CityPack with every part and the strings of `locales` (default: the
   * locales downloaded with it). Throws LibraryError('damaged') when its files are missing or do not verify, and
   * a TypeError when the city is not installed.
   * @param {string} city @param {{locales?: string[]}} [options]
   */
  async open(city, options = {}) {
    await this.ready();
    // Fresh from storage: another page or worker may have updated the city since.
    let record = await this.storage.getRecord(cityKey(city));
    if (!record) throw new TypeError(`${city} is not downloaded`);
    this._installed.set(city, record);
    record = await this._ensureTables(record, options.locales);
    try {
      return await this._open(record, options);
    } catch (e) {
      throw new LibraryError('damaged', `${city} version ${record.version} does not open: ${e.message}`);
    }
  }

  _open(record, options = {}) {
    // Strings: the asked locales the record holds (its language's table counts), else every table it holds.
    let strings;
    if (record.locales) {
      const held = new Set(record.locales);
      strings = (options.locales ?? []).map((l) => [l, l?.split(/[-_]/)[0]].find((c) => held.has(c))).filter(Boolean);
      if (strings.length === 0) strings = record.locales;
    } else {
      strings = options.locales; // a record from before per-locale downloads holds every table
    }
    return openPack(storageFetch(this.storage, record), `${storeBase}${encodeURIComponent(record.city)}/manifest.json`, {
      publicKey: this.publicKey,
      requireSignature: this.requireSignature,
      strings,
    });
  }

  // -- network ----------------------------------------------------------------------------------------------

  /** A small document (catalog, manifest): bounded retries, stall timeout; 200 or 304. */
  async _fetchSmall(url, headers, signal) {
    for (let attempt = 0; ; attempt++) {
      try {
        const chunks = [];
        const response = await this._attempt(url, headers, signal, (c) => { chunks.push(c); });
        return { bytes: concat(chunks), response };
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        if (!this._retryable(e, attempt)) throw this._classify(e, url);
        await sleep(this._delay(e, attempt), signal);
      }
    }
  }

  /**
   * Whether to try again: a server that was never reached (refused, unreachable, no DNS) once, quickly, so that
   * it is reported `offline` within a second or two; a dropped or stalled connection and a 5xx `retries` times.
   */
  _retryable(e, attempt) {
    if (isAbort(e)) return false;
    if (e?.unreachable) return attempt < Math.min(1, this.retries);
    if (attempt >= this.retries) return false;
    if (e instanceof LibraryError) return e.reason === 'server_error' && e.status >= 500;
    return true;
  }

  _delay(e, attempt) {
    return e?.unreachable ? Math.min(this.backoffMs, 250) : this.backoffMs * 2 ** attempt;
  }

  _classify(e, url) {
    if (isAbort(e) || e instanceof LibraryError) return e;
    if (e?.stalled) return new LibraryError('timeout', `${url}: no data for ${this.stallTimeoutMs} ms`);
    return new LibraryError('offline', `${url}: ${e?.message ?? e}`);
  }

  /**
   * One request: resolves to the response once its body has been read through `onChunk` (awaited; status 200,
   * 206 or 304), rejects on a server never reached (TypeError with `unreachable`), a dropped connection
   * (TypeError), a stall ({stalled: true}), or an HTTP error (LibraryError server_error).
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
        if (stalled) throw Object.assign(new Error('stalled'), { stalled: true });
        if (signal?.aborted) throw signal.reason;
        throw Object.assign(new TypeError(e?.message ?? String(e), { cause: e }), { unreachable: unreachable(e), beforeResponse: true });
      }
      if (response.status === 304) return response;
      if (!response.ok) {
        await response.body?.cancel?.().catch(() => {});
        throw new LibraryError('server_error', `${url}: HTTP ${response.status}`, { status: response.status });
      }
      await onResponse?.(response);
      try {
        if (response.body?.getReader) {
          const reader = response.body.getReader();
          for (;;) {
            arm();
            const { done, value } = await reader.read();
            clearTimeout(timer);
            if (done) break;
            await onChunk(value);
          }
        } else {
          await onChunk(new Uint8Array(await response.arrayBuffer()));
        }
      } catch (e) {
        if (stalled) throw Object.assign(new Error('stalled'), { stalled: true });
        if (signal?.aborted) throw signal.reason;
        if (e instanceof LibraryError) throw e;
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
   * back-off, then checked against its size and SHA-256. With `keep` the bytes received are kept in storage every
   * `checkpointBytes` and when the file fails, with their validator, and a later call (after a restart) resumes
   * from them.
   */
  async _fetchFile(url, file, signal, onBytes, keep = true) {
    const sha = file.sha256;
    const held = keep ? await this._loadPartial(sha) : null;
    let chunks = held ? [...held.pieces] : [];
    let received = chunks.reduce((n, c) => n + c.length, 0);
    let validator = held?.validator ?? null;
    let pending = []; // chunks not kept in storage yet
    let kept = held ? held.pieces.map((p) => p.length) : [];
    let keeping = keep && this.checkpointBytes > 0;
    let encoding = null;
    onBytes(received);
    const forget = async () => {
      if (kept.length) await this._dropPartial(sha);
      kept = [];
    };
    const restart = async () => {
      chunks = [];
      pending = [];
      received = 0;
      onBytes(0);
      await forget();
    };
    const checkpoint = async () => {
      if (!keeping || !validator || pending.length === 0) return;
      const piece = concat(pending);
      pending = [];
      try {
        await this.storage.putFile(pieceKey(sha, kept.length), piece);
        kept.push(piece.length);
        await this.storage.putRecord(partialKey(sha), { validator, pieces: kept.slice() });
      } catch {
        keeping = false; // storage full or failing: the file goes on in memory only
      }
    };
    // A request with Range that gets no response at all is tried once without (a server or proxy may fail the
    // partial answer, e.g. a re-encoding one); the kept bytes go only when a whole-file answer (200) arrives.
    let rangeless = false;
    for (let attempt = 0; ; attempt++) {
      const headers = {};
      if (received > 0 && validator && !rangeless) {
        headers.range = `bytes=${received}-`;
        headers['if-range'] = validator;
      } else if (received > 0 && !validator) {
        await restart();
      }
      try {
        await this._attempt(url, headers, signal, async (chunk) => {
          chunks.push(chunk);
          pending.push(chunk);
          received += chunk.length;
          onBytes(Math.min(received, file.bytes));
          if (keeping && pending.reduce((n, c) => n + c.length, 0) >= this.checkpointBytes) await checkpoint();
        }, async (response) => {
          encoding = response.headers?.get?.('content-encoding') ?? null;
          if (response.status === 206) {
            const start = Number(/bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]);
            if (start !== received) {
              await restart();
              validator = null;
              throw new TypeError(`the server resumed at byte ${start}, not ${received}`);
            }
            return;
          }
          if (received > 0) await restart(); // 200: the whole file again
          const etag = response.headers?.get?.('etag');
          validator = etag && !etag.startsWith('W/') ? etag : (response.headers?.get?.('last-modified') ?? null);
        });
        break;
      } catch (e) {
        // Every byte arrived before the connection went: the checks below decide.
        if (!signal?.aborted && !(e instanceof LibraryError) && received === file.bytes && validator != null) break;
        if (!signal?.aborted && e?.beforeResponse && headers.range && !rangeless) {
          rangeless = true;
          continue;
        }
        if (!this._retryable(e, attempt) || signal?.aborted) {
          if (!(e instanceof LibraryError)) await checkpoint(); // what arrived stays for the next try
          if (signal?.aborted) throw signal.reason;
          throw this._classify(e, url);
        }
        await sleep(this._delay(e, attempt), signal).catch(async (stopped) => {
          await checkpoint();
          throw stopped;
        });
      }
    }
    const bytes = concat(chunks);
    const hint = reencodingHint(file.path, bytes, encoding);
    if (bytes.length !== file.bytes || (await sha256(bytes)) !== file.sha256) {
      await forget().catch(() => {});
      if (bytes.length !== file.bytes) throw new LibraryError('damaged', `${file.path}: ${bytes.length} bytes, the manifest says ${file.bytes}${hint}`);
      throw new LibraryError('damaged', `${file.path}: SHA-256 ${await sha256(bytes)} is not the manifest's ${file.sha256}${hint}`);
    }
    return bytes;
  }
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

/**
 * The last date of an installed city's timetable when it has ended today in the city's time zone (Swift
 * `InstalledPack.timetableEnded(at:)`), else null; null for records without a timetable (no transit, or installed by
 * an older library).
 * @param {{timetable?: {first: string, last: string}, timeZone?: string}} record
 * @param {number} [now] UTC milliseconds
 */
function timetableEnded(record, now = Date.now()) {
  if (!record?.timetable) return null;
  const p = localParts(record.timeZone ?? 'UTC', now) ?? localParts('UTC', now);
  const two = (n) => String(n).padStart(2, '0');
  const today = `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}`;
  return today > record.timetable.last ? record.timetable.last : null;
}
