// What the pack library keeps in storage: files stored (with a quota check), files nothing refers to collected,
// the kept bytes of files in flight, staged versions measured and dropped, evictions noticed, the page's note of
// the saved cities, the string tables kept for the screen. Functions of a PackLibrary (pack-library.js).

import { manifestCost } from './library-patch.js';
import { LibraryError, cityKey, evictedKey, partialKey, pieceKey, stageKey, sum } from './library-model.js';

/** @typedef {import('./pack-library.js').PackLibrary} PackLibrary */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/** @typedef {import('./library-model.js').StageRecord} StageRecord */
/** @typedef {import('./library-model.js').KnownManifest} KnownManifest */
/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').PackState} PackState */
/** @typedef {import('./library-model.js').Manifest} Manifest */
/** @typedef {import('./library-model.js').WebFile} WebFile */

/**
 * A saved city whose files are gone (the browser evicted them, or its storage was cleared but for the records)
 * becomes `evicted`: its record is dropped, the files left are staged for the next download. A city the page's
 * note (localStorage, when the storage has a name) lists as saved but storage has no record of is evicted too.
 * @param {PackLibrary} library
 */
export async function noticeEvictions(library) {
  const keys = new Set(await library.storage.fileKeys());
  for (const [city, record] of [...library._installed]) {
    const all = [record.manifest, ...record.files];
    if (all.every((f) => keys.has(f.sha256))) continue;
    const left = all.filter((f) => keys.has(f.sha256));
    if (left.length > 0) {
      await library.storage.putRecord(stageKey(city), { city, version: record.version, manifest: record.manifest, files: record.files, locales: record.locales, total: sum(all), started: true });
    }
    await markEvicted(library, city, record.version);
    await library.storage.deleteRecord(cityKey(city));
    library._installed.delete(city);
  }
  for (const [city, version] of Object.entries(note(library) ?? {})) {
    if (!library._installed.has(city) && !library._evicted.has(city)) await markEvicted(library, city, version);
  }
}

/**
 * @param {PackLibrary} library
 * @param {string} city
 * @param {number} version
 */
export async function markEvicted(library, city, version) {
  const value = { version, noticedAt: new Date().toISOString() };
  await library.storage.putRecord(evictedKey(city), value);
  library._evicted.set(city, value);
}

/**
 * The saved cities as the page's localStorage remembers them ({city: version}), or null when there is none.
 * @param {PackLibrary} library
 * @returns {Record<string, number> | null}
 */
export function note(library) {
  try {
    const ls = globalThis.localStorage;
    if (!ls || typeof library.storage.name !== 'string') return null;
    return JSON.parse(ls.getItem(`citypack-library:${library.storage.name}`) ?? 'null');
  } catch {
    return null; // no localStorage here (a worker), or it is blocked
  }
}

/**
 * Writes the page's note of the saved cities from storage's records (another page may have changed them).
 * @param {PackLibrary} library
 */
export async function writeNote(library) {
  try {
    const ls = globalThis.localStorage;
    if (!ls || typeof library.storage.name !== 'string') return;
    /** @type {Record<string, number>} */
    const saved = {};
    for (const key of await library.storage.recordKeys()) if (key.startsWith('city:')) saved[key.slice(5)] = (await library.storage.getRecord(key))?.version;
    ls.setItem(`citypack-library:${library.storage.name}`, JSON.stringify(saved));
  } catch {
    // No localStorage here (a worker), or it is blocked: evictions of whole storages go unnoticed.
  }
}

/**
 * Measures a city's staged version in storage: `remaining`, the bytes its download will fetch (the manifest and
 * every needed file not stored, less the bytes of files in flight kept from before), and `total`.
 * @param {PackLibrary} library
 * @param {string} city
 * @param {Set<string>} [keys] the stored file keys, when known
 */
export async function measure(library, city, keys) {
  const stage = await library.storage.getRecord(stageKey(city));
  const record = library._installed.get(city);
  if (!stage || (record && stage.version <= record.version)) {
    library._staged.delete(city);
    return;
  }
  keys ??= new Set(await library.storage.fileKeys());
  let remaining = 0;
  const seen = new Set();
  for (const f of [stage.manifest, ...stage.files]) {
    if (keys.has(f.sha256) || seen.has(f.sha256)) continue;
    seen.add(f.sha256);
    const bytes = f === stage.manifest ? manifestCost(stage, record, keys) : f.bytes; // a patch's bytes when one applies
    remaining += bytes - (stage.started ? await heldBytes(library, f.sha256, keys) : 0);
  }
  library._staged.set(city, { version: stage.version, started: stage.started, total: Math.max(stage.total, remaining), remaining });
}

/** @param {PackLibrary} library */
export async function measureAll(library) {
  const keys = new Set(await library.storage.fileKeys());
  for (const key of await library.storage.recordKeys()) if (key.startsWith('stage:')) await measure(library, key.slice(6), keys);
}

/**
 * @param {PackLibrary} library
 * @param {string} sha
 * @param {Set<string>} keys
 * @returns {Promise<number>}
 */
export async function heldBytes(library, sha, keys) {
  const meta = await library.storage.getRecord(partialKey(sha));
  let held = 0;
  for (let i = 0; i < (meta?.pieces?.length ?? 0) && keys.has(pieceKey(sha, i)); i++) held += meta.pieces[i];
  return held;
}

/**
 * Drops a city's staged version: the files only it referred to and the bytes of its files in flight. With
 * `keepLearned` an update's record stays, not started (its size is still known) but holding no file.
 * @param {PackLibrary} library
 * @param {string} city
 * @param {boolean} [keepLearned]
 */
export async function dropStage(library, city, keepLearned = false) {
  const stage = await library.storage.getRecord(stageKey(city));
  if (!stage) return;
  const installed = library._installed.get(city);
  if (keepLearned && installed && stage.version > installed.version) await library.storage.putRecord(stageKey(city), { ...stage, started: false });
  else await library.storage.deleteRecord(stageKey(city));
  await collect(library);
  await measure(library, city);
}

/**
 * @param {PackLibrary} library
 * @param {number} bytes
 */
export async function checkSpace(library, bytes) {
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => null);
  if (estimate && /** @type {number} */ (estimate.quota) - /** @type {number} */ (estimate.usage) < bytes) {
    throw new LibraryError('not_enough_space', `${bytes} bytes needed, ${/** @type {number} */ (estimate.quota) - /** @type {number} */ (estimate.usage)} free`, { bytes });
  }
}

/**
 * @param {PackLibrary} library
 * @param {string} sha
 * @param {Uint8Array} bytes
 */
export async function store(library, sha, bytes) {
  try {
    await library.storage.putFile(sha, bytes);
  } catch (/** @type {any} */ e) {
    if (e?.name === 'QuotaExceededError') throw new LibraryError('not_enough_space', `storage is full (${e.message})`, { bytes: bytes.length });
    throw e;
  }
}

/**
 * Deletes stored files nothing refers to: not an installed version's, not a started staged version's, not the
 * kept pieces of a staged file in flight (after a switch, a removal, a drop, or a crash mid-download).
 * @param {PackLibrary} library
 */
export async function collect(library) {
  const keep = new Set();
  const staged = new Set();
  const keys = await library.storage.recordKeys();
  for (const key of keys) {
    if (!key.startsWith('city:') && !key.startsWith('stage:')) continue;
    const r = await library.storage.getRecord(key);
    if (!r || (key.startsWith('stage:') && !r.started)) continue;
    for (const f of [r.manifest, ...r.files]) keep.add(f.sha256);
    if (key.startsWith('stage:')) for (const f of r.files) staged.add(f.sha256);
  }
  const files = await library.storage.fileKeys();
  const stored = new Set(files);
  for (const key of keys) {
    if (!key.startsWith('partial:')) continue;
    const sha = key.slice(8);
    const meta = await library.storage.getRecord(key);
    if (staged.has(sha) && !stored.has(sha)) meta?.pieces?.forEach((/** @type {number} */ _, /** @type {number} */ i) => keep.add(pieceKey(sha, i)));
    else await library.storage.deleteRecord(key);
  }
  for (const key of files) if (!keep.has(key)) await library.storage.deleteFile(key);
}

/**
 * Forgets the kept bytes of a file in flight (it is stored whole, or restarts).
 * @param {PackLibrary} library
 * @param {string} sha
 */
export async function dropPartial(library, sha) {
  const meta = await library.storage.getRecord(partialKey(sha));
  if (!meta) return;
  await library.storage.deleteRecord(partialKey(sha));
  for (let i = 0; i < (meta.pieces?.length ?? 0); i++) await library.storage.deleteFile(pieceKey(sha, i));
}

/**
 * The kept bytes of a file in flight: {validator, pieces} (the pieces a prefix of the file), or null.
 * @param {PackLibrary} library
 * @param {string} sha
 * @returns {Promise<{validator: string, pieces: Uint8Array[]} | null>}
 */
export async function loadPartial(library, sha) {
  const meta = await library.storage.getRecord(partialKey(sha));
  if (!meta?.validator || !Array.isArray(meta.pieces)) return null;
  const pieces = [];
  for (let i = 0; i < meta.pieces.length; i++) {
    const piece = await library.storage.getFile(pieceKey(sha, i));
    if (!piece || piece.length !== meta.pieces[i]) break;
    pieces.push(piece);
  }
  return pieces.length ? { validator: meta.validator, pieces } : null;
}

/**
 * Keeps the string tables of an installed city (record `copy`): the screen's copy once no city is left.
 * @param {PackLibrary} library
 * @param {InstalledRecord} record
 * @param {Manifest} manifest
 */
export async function keepCopy(library, record, manifest) {
  try {
    /** @type {Record<string, unknown>} */
    const tables = {};
    for (const locale of record.locales ?? []) {
      const file = record.files.find((f) => f.path === manifest.web?.strings?.[locale]);
      const bytes = file && (await library.storage.getFile(file.sha256));
      if (bytes) tables[locale] = JSON.parse(new TextDecoder().decode(bytes));
    }
    if (Object.keys(tables).length) await library.storage.putRecord('copy', { manifest: record.manifestURL, defaultLocale: manifest.city?.defaultLocale, tables });
  } catch {
    // Best effort: the installed city's own tables serve copy() anyway.
  }
}
