/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/**
 * The catalog entry's patch from the installed `record`'s version to the version the entry offers, or null.
 * @param {CatalogEntry} entry a catalog entry @param {InstalledRecord | null | undefined} record the installed city's record
 * @returns {{from: number, to: number, path: string, sha256: string, bytes: number} | null}
 */
export function offeredPatch(entry: CatalogEntry, record: InstalledRecord | null | undefined): {
    from: number;
    to: number;
    path: string;
    sha256: string;
    bytes: number;
} | null;
/**
 * The bytes a staged version's manifest costs to fetch: the patch's (`stage.patch`, recorded when the manifest
 * came through one) while the installed version is still the patch's base and its manifest is stored, else the
 * manifest's. Computed from storage alone, so the size shown is the same online and offline.
 * @param {{manifest: {bytes: number}, patch?: {from: number, bytes: number}}} stage
 * @param {InstalledRecord | null | undefined} record the installed record @param {Set<string>} keys the stored files' keys
 * @returns {number}
 */
export function manifestCost(stage: {
    manifest: {
        bytes: number;
    };
    patch?: {
        from: number;
        bytes: number;
    } | undefined;
}, record: InstalledRecord | null | undefined, keys: Set<string>): number;
/**
 * The manifest a catalog entry names, rebuilt from the installed manifest and the entry's patch: the known
 * manifest ({url, manifest, bytes, sha256, patch: {from, bytes}}, accepted and cached by the library as a fetched
 * one), or null when no patch applies or the patch path failed (the caller fetches the manifest). A cancel
 * rejects.
 * @param {import('./pack-library.js').PackLibrary} library @param {CatalogEntry} entry @param {string} url the manifest's URL
 * @param {AbortSignal} [signal]
 * @returns {Promise<import('./library-model.js').KnownManifest | null>}
 */
export function patchedManifest(library: import('./pack-library.js').PackLibrary, entry: CatalogEntry, url: string, signal?: AbortSignal | undefined): Promise<import('./library-model.js').KnownManifest | null>;
export type CatalogEntry = import('./library-model.js').CatalogEntry;
export type InstalledRecord = import('./library-model.js').InstalledRecord;
import { sha256 } from "./format.js";
