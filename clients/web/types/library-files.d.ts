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
export function noticeEvictions(library: PackLibrary): Promise<void>;
/**
 * @param {PackLibrary} library
 * @param {string} city
 * @param {number} version
 */
export function markEvicted(library: PackLibrary, city: string, version: number): Promise<void>;
/**
 * The saved cities as the page's localStorage remembers them ({city: version}), or null when there is none.
 * @param {PackLibrary} library
 * @returns {Record<string, number> | null}
 */
export function note(library: PackLibrary): Record<string, number> | null;
/**
 * Writes the page's note of the saved cities from storage's records (another page may have changed them).
 * @param {PackLibrary} library
 */
export function writeNote(library: PackLibrary): Promise<void>;
/**
 * Measures a city's staged version in storage: `remaining`, the bytes its download will fetch (the manifest and
 * every needed file not stored, less the bytes of files in flight kept from before), and `total`.
 * @param {PackLibrary} library
 * @param {string} city
 * @param {Set<string>} [keys] the stored file keys, when known
 */
export function measure(library: PackLibrary, city: string, keys?: Set<string> | undefined): Promise<void>;
/** @param {PackLibrary} library */
export function measureAll(library: PackLibrary): Promise<void>;
/**
 * @param {PackLibrary} library
 * @param {string} sha
 * @param {Set<string>} keys
 * @returns {Promise<number>}
 */
export function heldBytes(library: PackLibrary, sha: string, keys: Set<string>): Promise<number>;
/**
 * Drops a city's staged version: the files only it referred to and the bytes of its files in flight. With
 * `keepLearned` an update's record stays, not started (its size is still known) but holding no file.
 * @param {PackLibrary} library
 * @param {string} city
 * @param {boolean} [keepLearned]
 */
export function dropStage(library: PackLibrary, city: string, keepLearned?: boolean | undefined): Promise<void>;
/**
 * @param {PackLibrary} library
 * @param {number} bytes
 */
export function checkSpace(library: PackLibrary, bytes: number): Promise<void>;
/**
 * @param {PackLibrary} library
 * @param {string} sha
 * @param {Uint8Array} bytes
 */
export function store(library: PackLibrary, sha: string, bytes: Uint8Array): Promise<void>;
/**
 * Deletes stored files nothing refers to: not an installed version's, not a started staged version's, not the
 * kept pieces of a staged file in flight (after a switch, a removal, a drop, or a crash mid-download).
 * @param {PackLibrary} library
 */
export function collect(library: PackLibrary): Promise<void>;
/**
 * Forgets the kept bytes of a file in flight (it is stored whole, or restarts).
 * @param {PackLibrary} library
 * @param {string} sha
 */
export function dropPartial(library: PackLibrary, sha: string): Promise<void>;
/**
 * The kept bytes of a file in flight: {validator, pieces} (the pieces a prefix of the file), or null.
 * @param {PackLibrary} library
 * @param {string} sha
 * @returns {Promise<{validator: string, pieces: Uint8Array[]} | null>}
 */
export function loadPartial(library: PackLibrary, sha: string): Promise<{
    validator: string;
    pieces: Uint8Array[];
} | null>;
/**
 * Keeps the string tables of an installed city (record `copy`): the screen's copy once no city is left.
 * @param {PackLibrary} library
 * @param {InstalledRecord} record
 * @param {Manifest} manifest
 */
export function keepCopy(library: PackLibrary, record: InstalledRecord, manifest: Manifest): Promise<void>;
export type PackLibrary = import('./pack-library.js').PackLibrary;
export type InstalledRecord = import('./library-model.js').InstalledRecord;
export type StageRecord = import('./library-model.js').StageRecord;
export type KnownManifest = import('./library-model.js').KnownManifest;
export type CatalogEntry = import('./library-model.js').CatalogEntry;
export type PackState = import('./library-model.js').PackState;
export type Manifest = import('./library-model.js').Manifest;
export type WebFile = import('./library-model.js').WebFile;
