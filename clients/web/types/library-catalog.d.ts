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
export function refreshCatalog(library: PackLibrary, signal: AbortSignal | undefined, held: boolean): Promise<boolean>;
/**
 * Drops the staged versions the accepted catalog no longer offers (not those a download of this library runs).
 * @param {PackLibrary} library
 * @param {boolean} held
 */
export function dropUnoffered(library: PackLibrary, held: boolean): Promise<void>;
/**
 * @param {PackLibrary} library
 * @param {object} document
 * @param {string} what
 */
export function checkSignature(library: PackLibrary, document: object, what: string): Promise<void>;
/**
 * Per installed city with a newer version in the catalog: the update's manifest (fetched once, unless a staged
 * record already lists its files), recorded as a staged version not started yet so that its size is known after
 * a restart offline too.
 * @param {PackLibrary} library
 * @param {AbortSignal | undefined} signal
 * @param {boolean} held
 */
export function learnUpdates(library: PackLibrary, signal: AbortSignal | undefined, held: boolean): Promise<void>;
/**
 * A staged version (not started) of a known manifest: its files for the library's locales and the city's.
 * @param {PackLibrary} library
 * @param {string} city
 * @param {KnownManifest} known
 * @param {InstalledRecord | null | undefined} record
 * @returns {Promise<StageRecord>}
 */
export function newStage(library: PackLibrary, city: string, known: KnownManifest, record: InstalledRecord | null | undefined): Promise<StageRecord>;
/**
 * The manifest a catalog entry names, fetched once and checked against the entry's manifestSha256; rebuilt from
 * the installed one and a patch of the entry's `manifestPatches` when one applies (library-patch.js).
 * @param {PackLibrary} library
 * @param {CatalogEntry} entry
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<KnownManifest>}
 */
export function catalogManifest(library: PackLibrary, entry: CatalogEntry, signal: AbortSignal | undefined): Promise<KnownManifest>;
/**
 * @param {PackLibrary} library
 * @param {CatalogEntry} entry
 * @param {string} url
 * @param {Uint8Array} bytes
 * @param {string | null} encoding
 * @returns {Promise<KnownManifest>}
 */
export function acceptManifest(library: PackLibrary, entry: CatalogEntry, url: string, bytes: Uint8Array, encoding: string | null): Promise<KnownManifest>;
/**
 * The manifest of a staged version from storage (checked against its SHA-256), else from the network.
 * @param {PackLibrary} library
 * @param {CatalogEntry} entry
 * @param {StageRecord | null | undefined} stage
 * @param {AbortSignal} signal
 * @returns {Promise<KnownManifest>}
 */
export function stagedManifest(library: PackLibrary, entry: CatalogEntry, stage: StageRecord | null | undefined, signal: AbortSignal): Promise<KnownManifest>;
export type PackLibrary = import('./pack-library.js').PackLibrary;
export type InstalledRecord = import('./library-model.js').InstalledRecord;
export type StageRecord = import('./library-model.js').StageRecord;
export type KnownManifest = import('./library-model.js').KnownManifest;
export type CatalogEntry = import('./library-model.js').CatalogEntry;
export type PackState = import('./library-model.js').PackState;
export type Manifest = import('./library-model.js').Manifest;
export type WebFile = import('./library-model.js').WebFile;
