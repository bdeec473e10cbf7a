/**
 * The members of a manifest's bundle in order, each {path, bytes, sha256, offset}, and their total bytes.
 * @param {any} manifest a parsed manifest
 * @returns {{members: {path: string, bytes: number, sha256: string, offset: number}[], bytes: number}}
 */
export function bundleMembers(manifest: any): {
    members: {
        path: string;
        bytes: number;
        sha256: string;
        offset: number;
    }[];
    bytes: number;
};
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
export function bundlePlan(manifest: any, manifestURL: string, missing: {
    sha256: string;
}[], concurrency: number): {
    url: string;
    start: number;
    members: {
        path: string;
        bytes: number;
        sha256: string;
        offset: number;
    }[];
    shas: Set<string>;
} | null;
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
export function fetchBundle(library: import('./pack-library.js').PackLibrary, plan: {
    url: string;
    start: number;
    members: {
        path: string;
        bytes: number;
        sha256: string;
    }[];
}, wanted: Set<string>, signal: AbortSignal, onBytes: (member: {
    path: string;
    bytes: number;
    sha256: string;
}, bytes: number) => void, store: (member: {
    path: string;
    bytes: number;
    sha256: string;
}, bytes: Uint8Array) => Promise<void>): Promise<boolean>;
import { sha256 } from "./format.js";
