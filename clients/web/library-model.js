// The pack library's model: the catalog format, failure reasons and LibraryError, the records it keeps in storage
// (their keys), which files of a manifest it fetches, and when an installed city's timetable has ended.

import { webFiles } from './format.js';
import { localParts } from './zone.js';

/** Catalog format this library reads (`formatVersion` of catalog.json). */
export const CATALOG_FORMAT = 1;

/** The failure reasons (same raw strings as CityPackKit's). Copy keys: `download_error.<reason>.message|action`. */
export const REASONS = Object.freeze(['offline', 'timeout', 'server_error', 'not_enough_space', 'damaged', 'tampered', 'older_release', 'unsupported']);

/**
 * A failed library operation: `reason` is one of REASONS; `status` the HTTP status for `server_error`; `bytes`
 * the space needed for `not_enough_space`.
 */
export class LibraryError extends Error {
  constructor(reason, message, extra = {}) {
    super(message);
    this.name = 'LibraryError';
    this.reason = reason;
    Object.assign(this, extra);
  }
}

export const sleep = (ms, signal) =>
  new Promise((ok, fail) => {
    const t = setTimeout(ok, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); fail(signal.reason); }, { once: true });
  });
export const isAbort = (e) => e?.name === 'AbortError';
export const cityKey = (city) => `city:${city}`;

/**
 * @typedef {{kind: 'not_downloaded', evicted?: true, version?: number} | {kind: 'queued'}
 *   | {kind: 'downloading', bytes: number, total: number}
 *   | {kind: 'paused', version: number, installedVersion: number|null, bytes: number, total: number, evicted?: true}
 *   | {kind: 'applying', installedVersion: number|null} | {kind: 'on_disk', version: number, timetableEnded?: string}
 *   | {kind: 'on_disk_out_of_date', version: number, update: number, updateBytes: number|null}
 *   | {kind: 'failed', reason: string, installedVersion: number|null, status?: number, bytes?: number, message: string}} PackState
 */

export const stageKey = (city) => `stage:${city}`;
export const evictedKey = (city) => `evicted:${city}`;
export const partialKey = (sha) => `partial:${sha}`;
export const pieceKey = (sha, i) => `partial:${sha}:${i}`;

/**
 * The string-table locales of a manifest for the locales an app names: each one's table (or its language's), and
 * when none of them has one, the city's first locale (`city.locales[0]`, else its default locale).
 */
export function tableLocales(manifest, wanted) {
  const available = manifest?.web?.strings ?? {};
  const out = [];
  for (const locale of wanted) {
    const hit = [locale, locale?.split(/[-_]/)[0]].find((l) => l && l in available);
    if (hit && !out.includes(hit)) out.push(hit);
  }
  if (out.length === 0) {
    const first = [manifest?.city?.locales?.[0], manifest?.city?.defaultLocale, ...Object.keys(available).sort()].find((l) => l && l in available);
    if (first) out.push(first);
  }
  return out;
}

/** The files of a version the library fetches: every data file, and the string tables of `locales` only. */
export function neededFiles(manifest, locales) {
  const tables = new Set(Object.values(manifest?.web?.strings ?? {}));
  const chosen = new Set(locales.map((l) => manifest.web.strings[l]));
  return webFiles(manifest).filter((f) => !tables.has(f.path) || chosen.has(f.path));
}

export const sum = (files) => files.reduce((n, f) => n + f.bytes, 0);

export function concat(chunks) {
  const n = chunks.reduce((a, c) => a + c.length, 0);
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The last date of an installed city's timetable when it has ended today in the city's time zone (Swift
 * `InstalledPack.timetableEnded(at:)`), else null; null for records without a timetable (no transit, or installed by
 * an older library).
 * @param {{timetable?: {first: string, last: string}, timeZone?: string}} record
 * @param {number} [now] UTC milliseconds
 */
export function timetableEnded(record, now = Date.now()) {
  if (!record?.timetable) return null;
  const p = localParts(record.timeZone ?? 'UTC', now) ?? localParts('UTC', now);
  const two = (n) => String(n).padStart(2, '0');
  const today = `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)}`;
  return today > record.timetable.last ? record.timetable.last : null;
}
