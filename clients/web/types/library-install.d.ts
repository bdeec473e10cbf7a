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
export function run(library: PackLibrary, city: string, signal: AbortSignal, refresh: boolean): Promise<PackState>;
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
export function fetchAll(library: PackLibrary, city: string, manifestURL: string, missing: WebFile[], held: Map<string, number>, base: number, total: number, signal: AbortSignal, manifest: Manifest): Promise<void>;
export type PackLibrary = import('./pack-library.js').PackLibrary;
export type InstalledRecord = import('./library-model.js').InstalledRecord;
export type StageRecord = import('./library-model.js').StageRecord;
export type KnownManifest = import('./library-model.js').KnownManifest;
export type CatalogEntry = import('./library-model.js').CatalogEntry;
export type PackState = import('./library-model.js').PackState;
export type Manifest = import('./library-model.js').Manifest;
export type WebFile = import('./library-model.js').WebFile;
