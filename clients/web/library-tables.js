// The pack library's string tables and opening: tables of further locales fetched once and kept, the screen's
// copy from what is stored (else what the library ships), and an installed version opened from storage.
// Functions of a PackLibrary (pack-library.js).

import { webFiles } from './format.js';
import { store } from './library-files.js';
import { cityKey, isAbort } from './library-model.js';
import { fetchFile } from './library-net.js';
import { fillCopy, libraryCopy } from './library-screen.js';
import { storageFetch, storeBase } from './library-storage.js';
import { openPack } from './pack.js';

/** @typedef {import('./pack-library.js').PackLibrary} PackLibrary */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/** @typedef {import('./library-model.js').StageRecord} StageRecord */
/** @typedef {import('./library-model.js').KnownManifest} KnownManifest */
/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').PackState} PackState */
/** @typedef {import('./library-model.js').Manifest} Manifest */
/** @typedef {import('./library-model.js').WebFile} WebFile */

/**
 * Fetches (once, verified) and keeps the string tables of `locales` an installed city does not hold yet, adding
 * them to its record. Best effort: offline, or while the city downloads, the record stays as it is.
 * @param {PackLibrary} library
 * @param {InstalledRecord} record
 * @param {string[] | undefined} locales
 * @param {AbortSignal} [signal]
 * @returns {Promise<InstalledRecord>}
 */
export async function ensureTables(library, record, locales, signal) {
  if (!locales?.length || library._jobs.has(record.city)) return record;
  let manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(await library.storage.getFile(record.manifest.sha256)));
  } catch {
    return record;
  }
  /** @type {Record<string, string>} */
  const strings = manifest.web?.strings ?? {};
  const have = new Set(record.files.map((f) => f.path));
  const want = /** @type {string[]} */ (locales.map((l) => [l, l?.split(/[-_]/)[0]].find((c) => c && c in strings)).filter((l, i, all) => l && all.indexOf(l) === i && !have.has(strings[/** @type {string} */ (l)])));
  if (want.length === 0 || !record.manifestURL) return record;
  const all = webFiles(manifest);
  try {
    /** @type {[string, WebFile][]} */
    const added = [];
    for (const locale of want) {
      const file = all.find((f) => f.path === strings[locale]);
      if (!file) continue;
      if (!(await library.storage.hasFile(file.sha256))) await store(library, file.sha256, await fetchFile(library, new URL(file.path, record.manifestURL).href, file, signal, () => {}, false));
      added.push([locale, file]);
    }
    if (added.length === 0) return record;
    return await library._exclusive(true, async (mine) => {
      const current = await library.storage.getRecord(cityKey(record.city));
      if (!mine || current?.manifest.sha256 !== record.manifest.sha256) return record;
      const next = { ...current, files: [...current.files, ...added.map(([, f]) => f)], locales: [...(current.locales ?? []), ...added.map(([l]) => l)] };
      await library.storage.putRecord(cityKey(record.city), next);
      library._installed.set(record.city, next);
      return next;
    });
  } catch (/** @type {any} */ e) {
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
 * @param {PackLibrary} library
 * @param {string} [locale]
 * @returns {Promise<import('./library-model.js').CopyFunction>}
 */
export async function copyFor(library, locale) {
  await library.ready();
  /** @type {Record<string, any>} */
  let table = {};
  // The installed cities', then a staged download's tables (the first download's copy before it is installed).
  /** @type {(StageRecord | undefined)[]} */
  const staged = [];
  for (const key of await library.storage.recordKeys()) if (key.startsWith('stage:')) staged.push(await library.storage.getRecord(key));
  for (let record of /** @type {InstalledRecord[]} */ ([...library._installed.values(), ...staged.filter((s) => s?.started)])) {
    try {
      if (locale && library._installed.get(record.city) === record) record = await ensureTables(library, record, [locale]);
      const manifest = JSON.parse(new TextDecoder().decode(await library.storage.getFile(record.manifest.sha256)));
      /** @type {Record<string, string>} */
      const available = manifest.web?.strings ?? {};
      const stored = new Set(record.files.map((f) => f.path));
      const chosen = [locale, locale?.split(/[-_]/)[0], manifest.city?.defaultLocale, 'en', ...(record.locales ?? [])].find((l) => l && l in available && stored.has(available[l]));
      const file = chosen && record.files.find((f) => f.path === available[chosen]);
      const bytes = file && (await library.storage.getFile(file.sha256));
      if (bytes) {
        table = JSON.parse(new TextDecoder().decode(bytes));
        break;
      }
    } catch {
      // A city whose strings do not read is skipped; open() reports it.
    }
  }
  if (Object.keys(table).length === 0) {
    const kept = await library.storage.getRecord('copy');
    const chosen = [locale, locale?.split(/[-_]/)[0], kept?.defaultLocale, 'en', ...Object.keys(kept?.tables ?? {})].find((l) => l && kept?.tables[l]);
    if (chosen) table = kept.tables[chosen];
  }
  // The copy the library ships (templates' pack.* and download_error.* keys) for what no stored table has:
  // the offline screen reads before the first download.
  const shipped = libraryCopy(locale);
  return (/** @type {string} */ key, /** @type {Record<string, string | number> | undefined} */ params) => {
    const value = table[key] ?? shipped[key];
    const text = typeof value === 'string' ? value : (value?.other ?? key);
    return fillCopy(text, params);
  };
}

/**
 * @param {PackLibrary} library
 * @param {InstalledRecord} record
 * @param {{locales?: string[]}} [options]
 * @returns {Promise<import('./pack.js').CityPack>}
 */
export function openRecord(library, record, options = {}) {
  // Strings: the asked locales the record holds (its language's table counts), else every table it holds.
  /** @type {string[] | undefined} */
  let strings;
  if (record.locales) {
    const held = new Set(record.locales);
    strings = /** @type {string[]} */ ((options.locales ?? []).map((l) => [l, l?.split(/[-_]/)[0]].find((c) => held.has(c))).filter(Boolean));
    if (strings.length === 0) strings = record.locales;
  } else {
    strings = options.locales; // a record from before per-locale downloads holds every table
  }
  return openPack(storageFetch(library.storage, record), `${storeBase}${encodeURIComponent(record.city)}/manifest.json`, {
    publicKey: library.publicKey,
    requireSignature: library.requireSignature,
    strings,
  });
}
