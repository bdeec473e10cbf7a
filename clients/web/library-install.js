// The pack library's downloads: a city's version staged, its missing files fetched `concurrency` at a time (or
// through the manifest's bundle), verified and stored, then switched in with one record and opened before the old
// version's files go. Functions of a PackLibrary (pack-library.js).

import { WEB_FORMAT } from './constants.js';
import { bundlePlan, fetchBundle } from './library-bundle.js';
import { checkSignature, newStage, refreshCatalog, stagedManifest } from './library-catalog.js';
import { checkSpace, collect, dropPartial, dropStage, heldBytes, keepCopy, measure, store, writeNote } from './library-files.js';
import { LibraryError, cityKey, evictedKey, isAbort, stageKey, sum } from './library-model.js';
import { fetchFile } from './library-net.js';
import { openRecord } from './library-tables.js';

/** @typedef {import('./pack-library.js').PackLibrary} PackLibrary */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/** @typedef {import('./library-model.js').StageRecord} StageRecord */
/** @typedef {import('./library-model.js').KnownManifest} KnownManifest */
/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').PackState} PackState */
/** @typedef {import('./library-model.js').Manifest} Manifest */
/** @typedef {import('./library-model.js').WebFile} WebFile */

/**
 * @param {PackLibrary} library
 * @param {string} city
 * @param {AbortSignal} signal
 * @param {boolean} refresh
 * @returns {Promise<PackState>}
 */
export async function run(library, city, signal, refresh) {
  let staging = false;
  try {
    await library.ready();
    if (signal.aborted) throw signal.reason;
    if (refresh || !library.catalog) await refreshCatalog(library, signal, true);
    const entry = library.entry(city);
    if (!entry) throw new LibraryError('server_error', `the catalog has no city ${city}`, { status: 404 });
    /** @type {InstalledRecord | undefined} */
    const record = await library.storage.getRecord(cityKey(city));
    if (record) library._installed.set(city, record);
    if (record && entry.dataVersion < record.version) {
      throw new LibraryError('older_release', `the catalog offers ${city} version ${entry.dataVersion}, older than the installed version ${record.version}: refused`);
    }
    if (record && entry.dataVersion === record.version) {
      await dropStage(library, city);
      library._set(city, null);
      return library.state(city);
    }
    /** @type {StageRecord | null | undefined} */
    let stage = await library.storage.getRecord(stageKey(city));
    if (stage && stage.version !== entry.dataVersion) {
      await dropStage(library, city);
      stage = null;
    }
    const known = await stagedManifest(library, entry, stage, signal);
    const manifest = known.manifest;
    if (!manifest.web || !Array.isArray(manifest.web.parts)) throw new LibraryError('unsupported', `${entry.manifest}: the manifest lists no web flavour`);
    if (manifest.web.format !== WEB_FORMAT) throw new LibraryError('unsupported', `web format ${manifest.web.format} is newer than library reader (${WEB_FORMAT})`);
    if (manifest.city?.id !== undefined && manifest.city.id !== city) throw new LibraryError('tampered', `${entry.manifest} is the manifest of ${manifest.city.id}, not ${city}`);
    if (manifest.dataVersion !== entry.dataVersion) throw new LibraryError('damaged', `${entry.manifest} is version ${manifest.dataVersion}, the catalog says ${entry.dataVersion}`);
    await checkSignature(library, manifest, entry.manifest);

    // Stage the version: its manifest stored, then the record that keeps its files through restarts.
    const fresh = await newStage(library, city, known, record);
    if (stage?.manifest.sha256 === known.sha256) {
      // Going on with a staged version: its total stays, plus any table the app's locales now add.
      const listed = new Set(stage.files.map((f) => f.sha256));
      const stored = new Set(await library.storage.fileKeys());
      fresh.total = stage.total + sum(fresh.files.filter((f) => !listed.has(f.sha256) && !stored.has(f.sha256)));
    }
    // The record first, then the manifest it names: a collection between the two cannot take the manifest.
    staging = true;
    stage = { ...fresh, started: true };
    await library.storage.putRecord(stageKey(city), stage);
    await store(library, known.sha256, known.bytes);
    const keys = new Set(await library.storage.fileKeys());
    const missing = stage.files.filter((f, i, all) => !keys.has(f.sha256) && all.findIndex((g) => g.sha256 === f.sha256) === i);
    // String tables first: a first download's screen has its copy (kept through a restart) early.
    const tables = new Set(Object.values(manifest.web.strings ?? {}));
    missing.sort((a, b) => Number(tables.has(b.path)) - Number(tables.has(a.path)));
    /** @type {Map<string, number>} */
    const held = new Map();
    for (const f of missing) {
      const n = await heldBytes(library, f.sha256, keys);
      if (n > 0) held.set(f.sha256, n);
    }
    await checkSpace(library, sum(missing) - [...held.values()].reduce((a, b) => a + b, 0));
    await fetchAll(library, city, known.url, missing, held, Math.max(0, stage.total - sum(missing)), stage.total, signal, manifest);

    // Every file is stored and verified: switch with one record, then open the new version before the old
    // one's files go.
    library._set(city, { kind: 'applying', installedVersion: record?.version ?? null });
    /** @type {InstalledRecord} */
    const next = { city, name: entry.name ?? city, version: manifest.dataVersion, manifestURL: known.url, manifest: stage.manifest, files: stage.files, locales: stage.locales, installedAt: new Date().toISOString() };
    // The dates the timetable covers and the city's zone: the state marks a city whose timetable has ended.
    if (manifest.timetable) next.timetable = { first: manifest.timetable.first, last: manifest.timetable.last };
    const zone = manifest.city?.timezone ?? manifest.timezones?.[0];
    if (zone) next.timeZone = zone;
    for (const f of [next.manifest, ...next.files]) {
      if (!(await library.storage.hasFile(f.sha256))) throw new LibraryError('damaged', `a stored file vanished before the switch (${f.sha256})`);
    }
    await library.storage.putRecord(cityKey(city), next);
    library._installed.set(city, next);
    try {
      await openRecord(library, next);
    } catch (/** @type {any} */ e) {
      if (record) await library.storage.putRecord(cityKey(city), record);
      else await library.storage.deleteRecord(cityKey(city));
      if (record) library._installed.set(city, record);
      else library._installed.delete(city);
      throw new LibraryError('damaged', `the new version did not open: ${e.message}`);
    }
    await library.storage.deleteRecord(stageKey(city));
    await library.storage.deleteRecord(evictedKey(city));
    library._evicted.delete(city);
    await writeNote(library);
    await keepCopy(library, next, manifest);
    await collect(library);
    await measure(library, city);
    library._set(city, null);
  } catch (/** @type {any} */ e) {
    if (isAbort(e) || signal.aborted) {
      // A cancel drops what was fetched (an update's size stays known).
      await dropStage(library, city, true).catch(() => {});
      library._set(city, null);
    } else {
      // A version whose bytes failed verification is dropped; other failures keep it staged for the next try.
      if (staging && e instanceof LibraryError && e.reason === 'damaged') await dropStage(library, city, true).catch(() => {});
      else await measure(library, city).catch(() => {});
      library._fail(city, e);
    }
  }
  return library.state(city);
}

/**
 * Fetches the missing files of a version, `concurrency` requests at a time. Each file is verified on its own
 * and stored as soon as it is; the first failure stops the others (their bytes in flight are kept) and is
 * thrown. `held`: bytes kept of files in flight before (by SHA-256); `base`: bytes of the version already
 * stored; `total`: bytes of the whole download. With the manifest's `web.bundle` and more than `concurrency` of
 * its members missing, the members come in one streamed request first (library-bundle.js; the other files
 * beside it), and what it did not bring is fetched file by file.
 * @param {PackLibrary} library
 * @param {string} city
 * @param {string} manifestURL
 * @param {WebFile[]} missing
 * @param {Map<string, number>} held
 * @param {number} base
 * @param {number} total
 * @param {AbortSignal} signal
 * @param {Manifest} manifest
 */
export async function fetchAll(library, city, manifestURL, missing, held, base, total, signal, manifest) {
  const inner = new AbortController();
  const forward = () => inner.abort(signal.reason);
  if (signal.aborted) forward();
  signal.addEventListener('abort', forward, { once: true });
  const inFlight = new Map(held);
  let done = 0;
  /** @type {any} */
  let failure = null;
  const progress = () => {
    let bytes = base + done;
    for (const n of inFlight.values()) bytes += n;
    bytes = Math.min(bytes, total);
    library._set(city, { kind: 'downloading', bytes, total });
    library.dispatchEvent(new CustomEvent('progress', { detail: { city, bytes, total } }));
  };
  progress();
  /** @type {WebFile[]} */
  const queue = [];
  const worker = async () => {
    for (/** @type {WebFile | undefined} */ let f; !failure && (f = queue.shift()); ) {
      try {
        const file = f;
        const bytes = await fetchFile(library, new URL(f.path, manifestURL).href, f, inner.signal, (n) => { inFlight.set(file.sha256, n); progress(); });
        await store(library, f.sha256, bytes);
        await dropPartial(library, f.sha256);
        done += f.bytes;
      } catch (/** @type {any} */ e) {
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
  const pool = (/** @type {WebFile[]} */ files, width = library.concurrency) => {
    queue.push(...files);
    return Promise.all(Array.from({ length: Math.min(width, Math.max(1, files.length)) }, worker));
  };
  try {
    const plan = bundlePlan(manifest, manifestURL, missing, library.concurrency);
    if (plan) {
      const wanted = new Set(missing.filter((f) => plan.shas.has(f.sha256)).map((f) => f.sha256));
      const bundle = fetchBundle(library, plan, wanted, inner.signal, (m, n) => { inFlight.set(m.sha256, Math.max(held.get(m.sha256) ?? 0, n)); progress(); }, async (m, bytes) => {
        await store(library, m.sha256, bytes);
        await dropPartial(library, m.sha256);
        inFlight.delete(m.sha256);
        done += m.bytes;
        progress();
      }).catch(() => {}); // only an abort rejects: a cancel, or another file failed (thrown below)
      // The other files (string tables) beside it on the other connections; with one connection, after it.
      const others = missing.filter((f) => !plan.shas.has(f.sha256));
      await Promise.all([bundle, library.concurrency > 1 ? pool(others, library.concurrency - 1) : queue.push(...others)]);
      for (const sha of wanted) {
        if (held.has(sha)) inFlight.set(sha, /** @type {number} */ (held.get(sha)));
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
