// The pack library's catalog: catalog.json refreshed with its validators and checked (signature, format, no
// older release), the manifests it names (fetched once, checked, or rebuilt through a patch), and the staged
// records of updates whose size is learnt. Functions of a PackLibrary (pack-library.js).

import { reencodingHint, sha256, verifySignature } from './format.js';
import { dropStage, measure } from './library-files.js';
import { CATALOG_FORMAT, LibraryError, isAbort, neededFiles, stageKey, sum, tableLocales } from './library-model.js';
import { fetchSmall } from './library-net.js';
import { manifestCost, patchedManifest } from './library-patch.js';

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
 * @param {AbortSignal | undefined} signal
 * @param {boolean} held
 * @returns {Promise<boolean>}
 */
export async function refreshCatalog(library, signal, held) {
  await library.ready();
  /** @type {Record<string, string>} */
  const headers = {};
  if (library._catalog?.etag) headers['if-none-match'] = library._catalog.etag;
  else if (library._catalog?.lastModified) headers['if-modified-since'] = library._catalog.lastModified;
  const { bytes, response } = await fetchSmall(library, library.catalogURL, headers, signal);
  if (response.status === 304) {
    await learnUpdates(library, signal, held);
    return false;
  }
  let document;
  try {
    document = JSON.parse(new TextDecoder().decode(bytes));
  } catch (/** @type {any} */ e) {
    throw new LibraryError('damaged', `${library.catalogURL}: not JSON (${e.message})${reencodingHint('catalog.json', bytes, response.headers.get('content-encoding'))}`);
  }
  if (!document || !Array.isArray(document.packs)) throw new LibraryError('damaged', `${library.catalogURL}: not a catalog (no packs)`);
  if ((document.formatVersion ?? 1) > CATALOG_FORMAT) {
    throw new LibraryError('unsupported', `catalog format ${document.formatVersion} is newer than library library (${CATALOG_FORMAT})`);
  }
  await checkSignature(library, document, library.catalogURL);
  const seen = library._catalog?.document?.packs ?? [];
  for (const old of seen) {
    const now = document.packs.find((/** @type {CatalogEntry} */ p) => p.id === old.id);
    if (now && now.dataVersion < old.dataVersion) {
      throw new LibraryError('older_release', `the catalog offers ${old.id} version ${now.dataVersion}, older than version ${old.dataVersion} seen before: refused`);
    }
  }
  library._catalog = { document, etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
  await library.storage.putRecord('catalog', library._catalog);
  await dropUnoffered(library, held);
  await learnUpdates(library, signal, held);
  for (const p of document.packs) library._emit(p.id);
  return true;
}

/**
 * Drops the staged versions the accepted catalog no longer offers (not those a download of this library runs).
 * @param {PackLibrary} library
 * @param {boolean} held
 */
export async function dropUnoffered(library, held) {
  for (const [city, staged] of [...library._staged]) {
    if ((library._jobs.has(city) && !held) || library.entry(city)?.dataVersion === staged.version) continue;
    await library._exclusive(true, (mine) => mine && dropStage(library, city), held);
    library._emit(city);
  }
}

/**
 * @param {PackLibrary} library
 * @param {object} document
 * @param {string} what
 */
export async function checkSignature(library, document, what) {
  try {
    await verifySignature(document, { publicKey: library.publicKey, requireSignature: library.requireSignature });
  } catch (/** @type {any} */ e) {
    throw new LibraryError('tampered', `${what}: ${e.message}`);
  }
}

/**
 * Per installed city with a newer version in the catalog: the update's manifest (fetched once, unless a staged
 * record already lists its files), recorded as a staged version not started yet so that its size is known after
 * a restart offline too.
 * @param {PackLibrary} library
 * @param {AbortSignal | undefined} signal
 * @param {boolean} held
 */
export async function learnUpdates(library, signal, held) {
  for (const [city, record] of library._installed) {
    const entry = library.entry(city);
    if (!entry || entry.dataVersion <= record.version) continue;
    const stage = await library.storage.getRecord(stageKey(city));
    if (stage?.version !== entry.dataVersion && (held || !library._jobs.has(city))) {
      try {
        const known = await catalogManifest(library, entry, signal);
        await library._exclusive(true, async (mine) => {
          if (mine) await library.storage.putRecord(stageKey(city), await newStage(library, city, known, record));
        }, held);
      } catch (/** @type {any} */ e) {
        if (isAbort(e)) throw e;
        // Otherwise the size stays unknown until the update runs; the update reports the failure.
      }
    }
    await measure(library, city);
    library._emit(city);
  }
}

/**
 * A staged version (not started) of a known manifest: its files for the library's locales and the city's.
 * @param {PackLibrary} library
 * @param {string} city
 * @param {KnownManifest} known
 * @param {InstalledRecord | null | undefined} record
 * @returns {Promise<StageRecord>}
 */
export async function newStage(library, city, known, record) {
  const locales = tableLocales(known.manifest, [...library.locales, ...(record?.locales ?? [])]);
  const files = neededFiles(known.manifest, locales);
  const keys = new Set(await library.storage.fileKeys());
  /** @type {StageRecord} */
  const stage = { city, version: known.manifest.dataVersion, manifestURL: known.url, manifest: { sha256: known.sha256, bytes: known.bytes.length }, files, locales, total: 0, started: false };
  if (known.patch) stage.patch = known.patch; // the manifest came through a patch: its bytes are what it costs
  const fresh = [{ sha256: known.sha256, bytes: manifestCost(stage, record, keys) }, ...files].filter((f, i, all) => !keys.has(f.sha256) && all.findIndex((g) => g.sha256 === f.sha256) === i);
  stage.total = sum(fresh);
  return stage;
}

/**
 * The manifest a catalog entry names, fetched once and checked against the entry's manifestSha256; rebuilt from
 * the installed one and a patch of the entry's `manifestPatches` when one applies (library-patch.js).
 * @param {PackLibrary} library
 * @param {CatalogEntry} entry
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<KnownManifest>}
 */
export async function catalogManifest(library, entry, signal) {
  const url = new URL(entry.manifest, library.catalogURL).href;
  if (library._manifests.has(url)) return /** @type {KnownManifest} */ (library._manifests.get(url));
  const patched = await patchedManifest(library, entry, url, signal);
  if (patched) return patched;
  const { bytes, response } = await fetchSmall(library, url, {}, signal);
  return acceptManifest(library, entry, url, bytes, response.headers.get('content-encoding'));
}

/**
 * @param {PackLibrary} library
 * @param {CatalogEntry} entry
 * @param {string} url
 * @param {Uint8Array} bytes
 * @param {string | null} encoding
 * @returns {Promise<KnownManifest>}
 */
export function acceptManifest(library, entry, url, bytes, encoding) {
  return (async () => {
    const digest = await sha256(bytes);
    if (entry.manifestSha256 && digest !== entry.manifestSha256) {
      throw new LibraryError('damaged', `${entry.manifest}: SHA-256 ${digest} is not the catalog's ${entry.manifestSha256}${reencodingHint(url, bytes, encoding)}`);
    }
    let manifest;
    try {
      manifest = JSON.parse(new TextDecoder().decode(bytes));
    } catch (/** @type {any} */ e) {
      throw new LibraryError('damaged', `${entry.manifest}: not JSON (${e.message})`);
    }
    const value = { url, manifest, bytes, sha256: digest };
    library._manifests.set(url, value);
    return value;
  })();
}

/**
 * The manifest of a staged version from storage (checked against its SHA-256), else from the network.
 * @param {PackLibrary} library
 * @param {CatalogEntry} entry
 * @param {StageRecord | null | undefined} stage
 * @param {AbortSignal} signal
 * @returns {Promise<KnownManifest>}
 */
export async function stagedManifest(library, entry, stage, signal) {
  const url = new URL(entry.manifest, library.catalogURL).href;
  if (!library._manifests.has(url) && stage?.manifest) {
    const bytes = await library.storage.getFile(stage.manifest.sha256);
    if (bytes && (await sha256(bytes)) === stage.manifest.sha256) {
      try {
        return await acceptManifest(library, entry, url, bytes, null);
      } catch {
        // Not the catalog's: fetched again below.
      }
    }
  }
  return catalogManifest(library, entry, signal);
}
