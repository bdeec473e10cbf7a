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
export function ensureTables(library: PackLibrary, record: InstalledRecord, locales: string[] | undefined, signal?: AbortSignal | undefined): Promise<InstalledRecord>;
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
export function copyFor(library: PackLibrary, locale?: string | undefined): Promise<import('./library-model.js').CopyFunction>;
/**
 * @param {PackLibrary} library
 * @param {InstalledRecord} record
 * @param {{locales?: string[]}} [options]
 * @returns {Promise<import('./pack.js').CityPack>}
 */
export function openRecord(library: PackLibrary, record: InstalledRecord, options?: {
    locales?: string[] | undefined;
} | undefined): Promise<import('./pack.js').CityPack>;
export type PackLibrary = import('./pack-library.js').PackLibrary;
export type InstalledRecord = import('./library-model.js').InstalledRecord;
export type StageRecord = import('./library-model.js').StageRecord;
export type KnownManifest = import('./library-model.js').KnownManifest;
export type CatalogEntry = import('./library-model.js').CatalogEntry;
export type PackState = import('./library-model.js').PackState;
export type Manifest = import('./library-model.js').Manifest;
export type WebFile = import('./library-model.js').WebFile;
