// CityPack pack library: a first download in a few requests. A manifest's `web.bundle` ({path, bytes, sha256}) is
// the concatenation of the version's part and chunk files (each part's own file, then its chunks, each path once),
// so a member's offset is the sum of the bytes before it. With more than `concurrency` members missing (and, from
// the first missing one on, no more bytes held than missing: a first download, or one cut and resumed; not an
// update's scattered files) the library fetches the bundle from the first missing member's offset (Range; a 200
// is skipped up to it), cuts it into members as it streams, verifies each one's SHA-256 and stores the missing
// ones as each completes; any failure leaves the rest to the per-file fetches. Used by library.js (`_fetchAll`).
import { sha256 } from './format.js';

/**
 * The members of a manifest's bundle in order, each {path, bytes, sha256, offset}, and their total bytes.
 * @param {any} manifest a parsed manifest
 * @returns {{members: {path: string, bytes: number, sha256: string, offset: number}[], bytes: number}}
 */
export function bundleMembers(manifest) {
  /** @type {{path: string, bytes: number, sha256: string, offset: number}[]} */
  const members = [];
  const seen = new Set();
  let offset = 0;
  for (const part of manifest?.web?.parts ?? []) {
    for (const f of [part, ...(part?.chunks ?? [])]) {
      if (!f || typeof f.path !== 'string' || seen.has(f.path)) continue;
      seen.add(f.path);
      members.push({ path: f.path, bytes: f.bytes, sha256: f.sha256, offset });
      offset += f.bytes;
    }
  }
  return { members, bytes: offset };
}

/**
 * Whether and how to fetch a version's bundle: null without `web.bundle`, when its members do not add up to its
 * bytes, when at most `concurrency` members are missing, or when the bundle from the first missing member on
 * would bring more bytes of held members than of missing ones (an update whose changed files are scattered: one
 * by one costs what changed); else {url, start, members (from the first missing one on), shas (every member's
 * SHA-256)}. A first download, or one resumed after a cut, reads no held member.
 * @param {any} manifest a parsed manifest @param {string} manifestURL @param {{sha256: string}[]} missing files not stored
 * @param {number} concurrency
 * @returns {{url: string, start: number, members: {path: string, bytes: number, sha256: string, offset: number}[], shas: Set<string>} | null}
 */
export function bundlePlan(manifest, manifestURL, missing, concurrency) {
  const bundle = manifest?.web?.bundle;
  if (!bundle || typeof bundle.path !== 'string') return null;
  const { members, bytes } = bundleMembers(manifest);
  if (bundle.bytes != null && bundle.bytes !== bytes) return null;
  if (!members.every((m) => Number.isSafeInteger(m.bytes) && m.bytes >= 0 && typeof m.sha256 === 'string')) return null;
  const wanted = new Set(missing.map((f) => f.sha256));
  const first = members.findIndex((m) => wanted.has(m.sha256));
  const lacking = new Map(members.filter((m) => wanted.has(m.sha256)).map((m) => [m.sha256, m.bytes]));
  if (first < 0 || lacking.size <= concurrency) return null;
  const needed = [...lacking.values()].reduce((n, b) => n + b, 0);
  if (bytes - members[first].offset - needed > needed) return null;
  return { url: new URL(bundle.path, manifestURL).href, start: members[first].offset, members: members.slice(first), shas: new Set(members.map((m) => m.sha256)) };
}

/**
 * Fetches a bundle (one request, streamed through the library's `_attempt`: stall timeout, abort), cutting it into
 * the members of `plan`; each member whose SHA-256 is in `wanted` is verified and handed to `store(member, bytes)`
 * as soon as it is complete (then removed from `wanted`); `onBytes(member, n)` reports a wanted member's bytes as
 * they arrive. Resolves to true when every wanted member came, false on any failure (HTTP error, a dropped or
 * stalled connection, a body cut short, a member that does not verify, a store that failed: `wanted` then names
 * what is still missing); rejects only when `signal` aborts.
 * @param {import('./pack-library.js').PackLibrary} library
 * @param {{url: string, start: number, members: {path: string, bytes: number, sha256: string}[]}} plan
 * @param {Set<string>} wanted @param {AbortSignal} signal
 * @param {(member: {path: string, bytes: number, sha256: string}, bytes: number) => void} onBytes
 * @param {(member: {path: string, bytes: number, sha256: string}, bytes: Uint8Array) => Promise<void>} store
 * @returns {Promise<boolean>}
 */
export async function fetchBundle(library, plan, wanted, signal, onBytes, store) {
  const { members } = plan;
  let end = members.length - 1; // the last member to keep: the rest of the bundle is held already
  while (end >= 0 && !wanted.has(members[end].sha256)) end--;
  let index = 0;
  let skip = 0;
  /** @type {Uint8Array[]} */
  let parts = [];
  let have = 0;
  /** @type {Record<string, string>} */
  const headers = plan.start > 0 ? { range: `bytes=${plan.start}-` } : {};
  try {
    await library._attempt(plan.url, headers, signal, async (chunk) => {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length);
        skip -= n;
        chunk = chunk.subarray(n);
      }
      while (index <= end) {
        const member = members[index];
        if (chunk.length === 0 && have < member.bytes) break;
        const take = chunk.subarray(0, member.bytes - have);
        chunk = chunk.subarray(take.length);
        have += take.length;
        const keep = wanted.has(member.sha256);
        if (keep) {
          parts.push(take);
          onBytes(member, have);
        }
        if (have < member.bytes) break;
        if (keep) {
          const bytes = concat(parts);
          const digest = await sha256(bytes);
          if (digest !== member.sha256) throw new Error(`${member.path} in the bundle: SHA-256 ${digest} is not the manifest's ${member.sha256}`);
          await store(member, bytes);
          wanted.delete(member.sha256);
        }
        index++;
        parts = [];
        have = 0;
      }
      // Past the last wanted member the rest is read and dropped: aborting a fetch whose body has all arrived can
      // leave its reader waiting for good (Node 20's fetch), and the rest is held members only.
    }, async (response) => {
      if (response.status === 206) {
        const from = Number(/bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]);
        if (from !== plan.start) {
          await response.body?.cancel?.().catch(() => {});
          throw new Error(`${plan.url}: the server answered from byte ${from}, not ${plan.start}`);
        }
      } else {
        skip = plan.start; // 200: the whole bundle, read up to the first missing member
      }
    });
  } catch (/** @type {any} */ e) {
    if (signal.aborted) throw signal.reason;
    library._bundleFailure = e; // why the files were fetched one by one (support, tests)
    return false;
  }
  if (index <= end) library._bundleFailure = new Error(`${plan.url}: the body ended at member ${index} of ${members.length}`);
  return index > end;
}

/** @param {Uint8Array[]} chunks @returns {Uint8Array} */
function concat(chunks) {
  if (chunks.length === 1) return new Uint8Array(chunks[0]);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
