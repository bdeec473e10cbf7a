/**
 * Applies a manifest patch to the base manifest's bytes and returns the result's bytes. Throws a
 * ManifestPatchError when the patch is not format 1, an edit is malformed, the edits consume more or fewer lines
 * than the base has, or the base's or the result's byte count is not the patch's (`base.bytes`, `result.bytes`,
 * when given). Hashes are not checked here: see applyCheckedManifestPatch.
 * @param {Uint8Array} baseBytes @param {any} patch a parsed patch (untrusted: checked here) @returns {Uint8Array}
 */
export function applyManifestPatch(baseBytes: Uint8Array, patch: any): Uint8Array;
/**
 * Applies a manifest patch with every check: the result's SHA-256 is `expectedSha256` (the catalog entry's
 * manifestSha256: the hash that binds, as writers name no hash in the patch), the base's and the result's byte
 * counts are the patch's, and their SHA-256s too when the patch names them (`base.sha256`, `result.sha256`).
 * Resolves to the result's bytes; rejects with a ManifestPatchError.
 * @param {Uint8Array} baseBytes @param {any} patch a parsed patch (untrusted: checked here) @param {string} expectedSha256
 * @returns {Promise<Uint8Array>}
 */
export function applyCheckedManifestPatch(baseBytes: Uint8Array, patch: any, expectedSha256: string): Promise<Uint8Array>;
/** Patch format this library applies (`format` of a manifest patch). */
export const MANIFEST_PATCH_FORMAT: 1;
/** A patch that does not apply (malformed, invalid edits, or a base or result that is not the one it names). */
export class ManifestPatchError extends Error {
    /** @param {string} message */
    constructor(message: string);
}
