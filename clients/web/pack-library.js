// The pack library (`PackLibrary`): the cities of a catalog, each in one state, downloaded into browser storage
// with progress, resume, retries and a stall timeout, verified file by file, switched in atomically, and opened
// offline. The class keeps the state and the events; the work is done by library-catalog.js, library-install.js,
// library-files.js, library-net.js and library-tables.js.

import { acceptManifest, refreshCatalog } from './library-catalog.js';
import { collect, measureAll, noticeEvictions, writeNote } from './library-files.js';
import { run } from './library-install.js';
import { LibraryError, cityKey, evictedKey, stageKey, sum, timetableEnded } from './library-model.js';
import { attemptRequest, fetchSmall } from './library-net.js';
import { IndexedDBStore, MemoryStore } from './library-storage.js';
import { copyFor, ensureTables, openRecord } from './library-tables.js';

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
  constructor({ catalogURL, storage, fetch: fetchImpl, publicKey, requireSignature, retries = 3, stallTimeoutMs = 15000, backoffMs = 500, concurrency = 6, locales, checkpointBytes = 262144, persist = true } = /** @type {LibraryOptions} */ ({})) {
    super();
    if (!catalogURL) throw new TypeError('PackLibrary needs a catalogURL');
    const base = typeof globalThis.location?.href === 'string' ? globalThis.location.href : 'file:///';
    /** @readonly */
    this.catalogURL = new URL(catalogURL, base).href;
    /** @readonly @type {PackStorage} */
    this.storage = storage ?? (globalThis.indexedDB ? new IndexedDBStore() : new MemoryStore());
    /** @internal @type {(input: string, init?: RequestInit) => Promise<Response>} */
    this._fetch = fetchImpl ?? ((/** @type {[string, RequestInit | undefined]} */ ...a) => globalThis.fetch(...a));
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
    /** @type {boolean | null} */
    this.persisted = null;
    /** @internal @type {{document: Catalog, etag: string | null, lastModified: string | null} | null} */
    this._catalog = null; // {document, etag, lastModified}: the accepted catalog and the validators it came with
    /** @internal @type {Map<string, KnownManifest | Promise<KnownManifest>>} */
    this._manifests = new Map(); // catalog manifest path → parsed manifest (verified hash)
    /** @internal @type {Map<string, PackState>} */
    this._states = new Map(); // city → transient state (queued, downloading, applying, failed)
    /** @internal @type {Map<string, InstalledRecord>} */
    this._installed = new Map(); // city → record
    /** @internal @type {Map<string, {version: number, started: boolean, total: number, remaining: number}>} */
    this._staged = new Map(); // city → {version, started, total, remaining}: a staged version, measured in storage
    /** @internal @type {Map<string, {version: number, noticedAt?: string}>} */
    this._evicted = new Map(); // city → {version}: a saved city the browser evicted
    /** @internal @type {Map<string, {controller: AbortController, promise: Promise<PackState>}>} */
    this._jobs = new Map(); // city → {controller, promise}
    /** @internal @type {Promise<unknown>} */
    this._queue = Promise.resolve();
    /** @internal @type {Promise<void> | null} */
    this._ready = null;
    /** @internal */
    this._askedPersist = false;
    /** @internal @type {Error | undefined} why a bundle's files were fetched one by one (set when it happens) */
    this._bundleFailure;
    /** @internal @type {Error | undefined} why a manifest was fetched instead of patched (set when it happens) */
    this._patchFailure;
  }

  /**
   * Loads what storage holds (installed cities, staged downloads, the last catalog), notices saved cities whose
   * files the browser evicted, and removes files nothing refers to.
   * @returns {Promise<void>}
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
        await noticeEvictions(this);
        await collect(this);
      });
      await measureAll(this);
      this._persistence(false);
    })();
    return this._ready;
  }

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
  _exclusive(ifAvailable, body, held = false) {
    const locks = globalThis.navigator?.locks;
    if (!locks || held) return /** @type {Promise<Awaited<T>>} */ (body(true));
    return locks.request(`citypack-library:${this.storage.name ?? ''}`, { ifAvailable }, (lock) => body(lock != null));
  }

  /**
   * Reads (ask false) or requests (ask true: navigator.storage.persist()) persistent storage and reports the
   * answer in `persisted` and a `persistence` event. Without the API the answer stays null.
   * @internal
   * @param {boolean} ask
   * @returns {Promise<boolean | null>}
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
   * @param {{signal?: AbortSignal}} options
   * @returns {Promise<boolean>}
   */
  refresh({ signal } = {}) {
    return refreshCatalog(this, signal, false);
  }

  /**
   * The catalog entry of a city, or undefined.
   * @param {string} city
   * @returns {CatalogEntry | undefined}
   */
  entry(city) {
    return this.catalog?.packs.find((p) => p.id === city);
  }

  /**
   * @internal
   * @param {CatalogEntry} entry @param {string} url @param {Uint8Array} bytes @param {string | null} encoding
   * @returns {Promise<KnownManifest>}
   */
  _acceptManifest(entry, url, bytes, encoding) {
    return acceptManifest(this, entry, url, bytes, encoding);
  }

  // -- states -----------------------------------------------------------------------------------------------

  /**
   * The state of a city (see PackState).
   * @param {string} city
   * @returns {PackState}
   */
  state(city) {
    const transient = this._states.get(city);
    if (transient) return transient;
    const record = this._installed.get(city);
    const staged = this._staged.get(city);
    const evicted = this._evicted.get(city);
    if (staged?.started && (!record || staged.version > record.version)) {
      /** @type {Extract<PackState, {kind: 'paused'}>} */
      const state = { kind: 'paused', version: staged.version, installedVersion: record?.version ?? null, bytes: Math.max(0, staged.total - staged.remaining), total: staged.total };
      if (evicted) state.evicted = true;
      return state;
    }
    if (!record) return evicted ? { kind: 'not_downloaded', evicted: true, version: evicted.version } : { kind: 'not_downloaded' };
    const entry = this.entry(city);
    const ended = timetableEnded(record);
    if (entry && entry.dataVersion > record.version) {
      const updateBytes = staged?.version === entry.dataVersion ? staged.remaining : null;
      /** @type {Extract<PackState, {kind: 'on_disk_out_of_date'}>} */
      const state = { kind: 'on_disk_out_of_date', version: record.version, update: entry.dataVersion, updateBytes };
      if (ended) state.timetableEnded = ended;
      return state;
    }
    return ended ? { kind: 'on_disk', version: record.version, timetableEnded: ended } : { kind: 'on_disk', version: record.version };
  }

  /**
   * The catalog's cities (catalog order), each with its state; installed cities the catalog dropped come last.
   * @returns {CityListing[]}
   */
  cities() {
    /** @type {CityListing[]} */
    const list = (this.catalog?.packs ?? []).map((entry) => ({ city: entry.id, name: entry.name ?? entry.id, entry, state: this.state(entry.id) }));
    for (const [city, record] of this._installed) {
      if (!list.some((c) => c.city === city)) list.push({ city, name: record.name ?? city, entry: null, state: this.state(city) });
    }
    return list;
  }

  /** The installed data version of a city, or null (whatever its state: an update may be running or have failed). */
  /**
   * @param {string} city
   * @returns {number | null}
   */
  installedVersion(city) {
    return this._installed.get(city)?.version ?? null;
  }

  /**
   * Installed cities: [{city, version, bytes, timetable?, timetableEnded?}] (bytes: every stored file of the version,
   * manifest included; timetable: the dates it covers, for a city with transit; timetableEnded: its last date once
   * it has ended in the city's time zone), as Swift `PackLibrary.installed()`.
   * @returns {Promise<InstalledCity[]>}
   */
  async installed() {
    await this.ready();
    return [...this._installed.values()].map((r) => {
      /** @type {InstalledCity} */
      const out = { city: r.city, version: r.version, bytes: r.manifest.bytes + sum(r.files) };
      if (r.timetable) out.timetable = r.timetable;
      const ended = timetableEnded(r);
      if (ended) out.timetableEnded = ended;
      return out;
    });
  }

  /**
   * @internal
   * @param {string} city
   * @param {PackState | null} state a transient state, or null: the stored one
   */
  _set(city, state) {
    if (state) this._states.set(city, state);
    else this._states.delete(city);
    this._emit(city);
  }

  /** @internal @param {string} city */
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
   * @param {{signal?: AbortSignal, refresh?: boolean}} options `refresh`: refresh the catalog first (update()).
   * @returns {Promise<PackState>}
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
    const promise = /** @type {Promise<PackState>} */ ((this._queue = this._queue.then(() => this._exclusive(false, () => run(this, city, controller.signal, refresh)))));
    this._jobs.set(city, { controller, promise });
    return promise.finally(() => this._jobs.delete(city));
  }

  /**
   * Refreshes the catalog, then downloads the city's newer version if there is one. Resolves to its state.
   * @param {string} city
   * @param {{signal?: AbortSignal}} options
   * @returns {Promise<PackState>}
   */
  update(city, { signal } = {}) {
    return this.download(city, { signal, refresh: true });
  }

  /** Stops a queued or running download of the city and drops what it fetched; what was installed stays. */
  /** @param {string} city */
  cancel(city) {
    this._jobs.get(city)?.controller.abort(new DOMException('cancelled', 'AbortError'));
  }

  /** Removes an installed (or staged, or evicted) city and the files no other city uses. */
  /**
   * @param {string} city
   * @returns {Promise<void>}
   */
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
      await writeNote(this);
      await collect(this);
    });
    this._emit(city);
  }

  /** @internal @param {string} city @param {any} e */
  _fail(city, e) {
    const installedVersion = this._installed.get(city)?.version ?? null;
    const error = e instanceof LibraryError ? e : new LibraryError('damaged', e?.message ?? String(e));
    /** @type {Extract<PackState, {kind: 'failed'}>} */
    const state = { kind: 'failed', reason: error.reason, installedVersion, message: error.message };
    if (error.status !== undefined) state.status = error.status;
    if (error.bytes !== undefined) state.bytes = error.bytes;
    this._set(city, state);
  }

  // -- copy and opening -------------------------------------------------------------------------------------

  /**
   * The copy of the installed cities' string tables for `locale` (its language, the pack's default locale, else
   * English), else of a staged download's, else the tables kept from the last install (record `copy`): a function
   * (key, params) → text with placeholders filled; the key itself when no table has it (nothing downloaded yet:
   * before a city is picked nothing but catalog.json is fetched). A locale whose table an installed city does not
   * hold is fetched and kept. Plural entries give their `other` form.
   * @param {string} [locale]
   * @returns {Promise<CopyFunction>}
   */
  copy(locale) {
    return copyFor(this, locale);
  }

  /**
   * Opens the installed version of a city from storage (no network, but for string tables of `locales` not
   * stored yet, fetched once and kept): a CityPack with every part and the strings of `locales` (default: the
   * locales downloaded with it). Throws LibraryError('damaged') when its files are missing or do not verify, and
   * a TypeError when the city is not installed.
   * @param {string} city @param {{locales?: string[]}} [options]
   * @returns {Promise<CityPack>}
   */
  async open(city, options = {}) {
    await this.ready();
    // Fresh from storage: another page or worker may have updated the city since.
    let record = await this.storage.getRecord(cityKey(city));
    if (!record) throw new TypeError(`${city} is not downloaded`);
    this._installed.set(city, record);
    record = await ensureTables(this, record, options.locales);
    try {
      return await openRecord(this, record, options);
    } catch (/** @type {any} */ e) {
      throw new LibraryError('damaged', `${city} version ${record.version} does not open: ${e.message}`);
    }
  }

  // -- events -----------------------------------------------------------------------------------------------

  /**
   * EventTarget's addEventListener, typed: `statechange`, `progress` and `persistence` listeners get their
   * CustomEvent's detail (LibraryEventMap).
   * @template {string} K
   * @param {K} type
   * @param {((event: K extends keyof LibraryEventMap ? LibraryEventMap[K] : Event) => void) | EventListenerObject | null} listener
   * @param {boolean | AddEventListenerOptions} [options]
   * @returns {void}
   */
  addEventListener(type, listener, options) {
    super.addEventListener(type, /** @type {EventListenerOrEventListenerObject | null} */ (listener), options);
  }

  // -- network (library-bundle.js and library-patch.js request through these) -------------------------------

  /**
   * A small document (catalog, manifest): bounded retries, stall timeout; 200 or 304.
   * @internal
   * @param {string} url @param {Record<string, string>} headers @param {AbortSignal} [signal]
   * @returns {Promise<{bytes: Uint8Array, response: Response}>}
   */
  _fetchSmall(url, headers, signal) {
    return fetchSmall(this, url, headers, signal);
  }

  /**
   * One request: resolves to the response once its body has been read through `onChunk` (awaited; status 200,
   * 206 or 304), rejects on a server never reached (TypeError with `unreachable`), a dropped connection
   * (TypeError), a stall ({stalled: true}), or an HTTP error (LibraryError server_error).
   * @internal
   * @param {string} url @param {Record<string, string>} headers @param {AbortSignal | undefined} signal
   * @param {(chunk: Uint8Array) => unknown} onChunk @param {(response: Response) => unknown} [onResponse]
   * @returns {Promise<Response>}
   */
  _attempt(url, headers, signal, onChunk, onResponse) {
    return attemptRequest(this, url, headers, signal, onChunk, onResponse);
  }
}
