// CityPack manifest patches: a new version's manifest rebuilt from the installed version's manifest and a small
// line patch (`<city>-<from>-<to>.manifest-patch.json`, listed in the catalog entry's `manifestPatches`), so an
// update fetches a few hundred bytes instead of the whole manifest. Used by library.js; no dependencies beyond
// citypack.js (SHA-256). See docs/WEB.md.
//
// The patch document: {format: 1, city, from, to, base: {bytes}, result: {bytes}, edits} (`sha256` beside a
// `bytes` is optional: writers leave it out, the catalog's manifestSha256 binds the result). The
// base's lines each keep their trailing "\n" (the last may have none); `edits` in order: a number n copies the
// next n base lines, a pair [d, text] skips the next d base lines and appends `text` (UTF-8). Every base line is
// consumed, exactly.
import { sha256 } from './format.js';

/** Patch format this library applies (`format` of a manifest patch). */
export const MANIFEST_PATCH_FORMAT = 1;

/** A patch that does not apply (malformed, invalid edits, or a base or result that is not the one it names). */
export class ManifestPatchError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ManifestPatchError';
  }
}

const NEWLINE = 0x0a;
const count = (/** @type {any} */ n) => Number.isSafeInteger(n) && n >= 0;

/** The [start, end) byte ranges of the lines of `bytes`, each with its trailing "\n" (the last may have none). */
function lineRanges(/** @type {Uint8Array} */ bytes) {
  /** @type {number[]} */
  const out = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === NEWLINE) {
      out.push(start);
      start = i + 1;
    }
  }
  if (start < bytes.length) out.push(start);
  out.push(bytes.length); // the end of the last line
  return out;
}

/**
 * Applies a manifest patch to the base manifest's bytes and returns the result's bytes. Throws a
 * ManifestPatchError when the patch is not format 1, an edit is malformed, the edits consume more or fewer lines
 * than the base has, or the base's or the result's byte count is not the patch's (`base.bytes`, `result.bytes`,
 * when given). Hashes are not checked here: see applyCheckedManifestPatch.
 * @param {Uint8Array} baseBytes @param {any} patch a parsed patch (untrusted: checked here) @returns {Uint8Array}
 */
export function applyManifestPatch(baseBytes, patch) {
  if (!patch || typeof patch !== 'object') throw new ManifestPatchError('not a manifest patch');
  if (patch.format !== MANIFEST_PATCH_FORMAT) throw new ManifestPatchError(`manifest patch format ${patch.format} is not ${MANIFEST_PATCH_FORMAT}`);
  if (!Array.isArray(patch.edits)) throw new ManifestPatchError('the patch has no edits');
  if (patch.base?.bytes != null && baseBytes.length !== patch.base.bytes) {
    throw new ManifestPatchError(`the base is ${baseBytes.length} bytes, the patch names ${patch.base.bytes}`);
  }
  const starts = lineRanges(baseBytes);
  const lines = starts.length - 1;
  const encoder = new TextEncoder();
  const out = [];
  let at = 0; // base lines consumed
  for (const [i, edit] of patch.edits.entries()) {
    let skip;
    let text = null;
    if (typeof edit === 'number') {
      if (!count(edit)) throw new ManifestPatchError(`edit ${i}: ${edit} is not a line count`);
      skip = edit;
    } else if (Array.isArray(edit) && edit.length === 2 && count(edit[0]) && typeof edit[1] === 'string') {
      [skip, text] = edit;
    } else {
      throw new ManifestPatchError(`edit ${i} is neither a line count nor a [count, text] pair`);
    }
    if (at + skip > lines) throw new ManifestPatchError(`edit ${i} consumes line ${at + skip} of a base of ${lines} lines`);
    if (text === null) {
      if (skip > 0) out.push(baseBytes.subarray(starts[at], starts[at + skip]));
    } else if (text.length > 0) {
      out.push(encoder.encode(text));
    }
    at += skip;
  }
  if (at !== lines) throw new ManifestPatchError(`the edits consume ${at} of the base's ${lines} lines`);
  const result = new Uint8Array(out.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of out) {
    result.set(c, offset);
    offset += c.length;
  }
  if (patch.result?.bytes != null && result.length !== patch.result.bytes) {
    throw new ManifestPatchError(`the result is ${result.length} bytes, the patch names ${patch.result.bytes}`);
  }
  return result;
}

/**
 * Applies a manifest patch with every check: the result's SHA-256 is `expectedSha256` (the catalog entry's
 * manifestSha256: the hash that binds, as writers name no hash in the patch), the base's and the result's byte
 * counts are the patch's, and their SHA-256s too when the patch names them (`base.sha256`, `result.sha256`).
 * Resolves to the result's bytes; rejects with a ManifestPatchError.
 * @param {Uint8Array} baseBytes @param {any} patch a parsed patch (untrusted: checked here) @param {string} expectedSha256
 * @returns {Promise<Uint8Array>}
 */
export async function applyCheckedManifestPatch(baseBytes, patch, expectedSha256) {
  if (!count(patch?.base?.bytes) || !count(patch?.result?.bytes)) throw new ManifestPatchError('the patch names no base or result size');
  if (typeof expectedSha256 !== 'string') throw new ManifestPatchError('no SHA-256 to check the result against');
  if (patch.result.sha256 != null && patch.result.sha256 !== expectedSha256) {
    throw new ManifestPatchError(`the patch makes manifest ${patch.result.sha256}, the catalog names ${expectedSha256}`);
  }
  if (patch.base.sha256 != null) {
    const base = await sha256(baseBytes);
    if (base !== patch.base.sha256) throw new ManifestPatchError(`the base is manifest ${base}, the patch applies to ${patch.base.sha256}`);
  }
  const result = applyManifestPatch(baseBytes, patch);
  const digest = await sha256(result);
  if (digest !== expectedSha256) throw new ManifestPatchError(`the result's SHA-256 ${digest} is not the catalog's ${expectedSha256}`);
  return result;
}
