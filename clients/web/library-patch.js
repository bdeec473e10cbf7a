// CityPack pack library: updates through manifest patches. When the installed version is a patch's `from` and the
// catalog offers its `to`, the library fetches the patch (catalog entry `manifestPatches`: path, bytes, sha256 of
// the decoded body) instead of the manifest, applies it to the stored bytes of the installed manifest
// (manifest-patch.js) and goes on with the result exactly as with a fetched manifest. Any failure but a cancel
// falls back to fetching the manifest. Used by library.js (its `_manifest`, `_newStage`, `_measure`).
import { sha256 } from './format.js';
import { applyCheckedManifestPatch } from './manifest-patch.js';

/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */

/**
 * The catalog entry's patch from the installed `record`'s version to the version the entry offers, or null.
 * @param {CatalogEntry} entry a catalog entry @param {InstalledRecord | null | undefined} record the installed city's record
 * @returns {{from: number, to: number, path: string, sha256: string, bytes: number} | null}
 */
export function offeredPatch(entry, record) {
  if (!record || !entry?.manifestSha256 || !Array.isArray(entry.manifestPatches)) return null;
  // Only a patch smaller than the manifest is worth it (CityPackKit's rule too).
  const worth = (/** @type {any} */ p) => Number.isSafeInteger(p.bytes) && p.bytes < (/** @type {number | undefined} */ (entry.manifestBytes) ?? Infinity);
  return entry.manifestPatches.find((/** @type {any} */ p) => p && p.from === record.version && p.to === entry.dataVersion && typeof p.path === 'string' && typeof p.sha256 === 'string' && worth(p)) ?? null;
}

/**
 * The bytes a staged version's manifest costs to fetch: the patch's (`stage.patch`, recorded when the manifest
 * came through one) while the installed version is still the patch's base and its manifest is stored, else the
 * manifest's. Computed from storage alone, so the size shown is the same online and offline.
 * @param {{manifest: {bytes: number}, patch?: {from: number, bytes: number}}} stage
 * @param {InstalledRecord | null | undefined} record the installed record @param {Set<string>} keys the stored files' keys
 * @returns {number}
 */
export function manifestCost(stage, record, keys) {
  const patch = stage.patch;
  if (patch && record?.version === patch.from && keys.has(/** @type {string} */ (record.manifest?.sha256))) return patch.bytes;
  return stage.manifest.bytes;
}

/**
 * The manifest a catalog entry names, rebuilt from the installed manifest and the entry's patch: the known
 * manifest ({url, manifest, bytes, sha256, patch: {from, bytes}}, accepted and cached by the library as a fetched
 * one), or null when no patch applies or the patch path failed (the caller fetches the manifest). A cancel
 * rejects.
 * @param {import('./pack-library.js').PackLibrary} library @param {CatalogEntry} entry @param {string} url the manifest's URL
 * @param {AbortSignal} [signal]
 * @returns {Promise<import('./library-model.js').KnownManifest | null>}
 */
export async function patchedManifest(library, entry, url, signal) {
  const record = library._installed.get(entry.id);
  const offer = offeredPatch(entry, record);
  if (!offer || !record) return null;
  try {
    const base = await library.storage.getFile(record.manifest.sha256);
    if (!base || (await sha256(base)) !== record.manifest.sha256) return null; // the installed manifest's bytes, checked
    const { bytes } = await library._fetchSmall(new URL(offer.path, library.catalogURL).href, {}, signal);
    if (bytes.length !== offer.bytes) throw new Error(`${offer.path}: ${bytes.length} bytes, the catalog says ${offer.bytes}`);
    const digest = await sha256(bytes);
    if (digest !== offer.sha256) throw new Error(`${offer.path}: SHA-256 ${digest} is not the catalog's ${offer.sha256}`);
    const patch = JSON.parse(new TextDecoder().decode(bytes));
    if (patch?.from !== offer.from || patch.to !== offer.to || (patch.city != null && patch.city !== entry.id)) {
      throw new Error(`${offer.path} is not the patch of ${entry.id} ${offer.from} → ${offer.to}`);
    }
    if (entry.manifestBytes != null && patch.result?.bytes !== entry.manifestBytes) throw new Error(`${offer.path}: the result is not the catalog's manifest`);
    const result = await applyCheckedManifestPatch(base, patch, /** @type {string} */ (entry.manifestSha256));
    const known = await library._acceptManifest(entry, url, result, null);
    known.patch = { from: offer.from, bytes: offer.bytes };
    return known;
  } catch (/** @type {any} */ e) {
    if (signal?.aborted) throw signal.reason;
    if (e?.name === 'AbortError') throw e;
    library._patchFailure = e; // why the manifest was fetched instead (support, tests)
    return null;
  }
}
