// Type declarations for library.js (hand-written; checked by clients/web/test/types.test.mjs with `tsc --strict`).
import type { CityPack, Place } from './citypack.js';

/** Catalog format this library reads. */
export const CATALOG_FORMAT: number;

/** Why a download or update failed (same raw strings as CityPackKit's). */
export type FailureReason = 'offline' | 'timeout' | 'server_error' | 'not_enough_space' | 'damaged' | 'tampered' | 'older_release' | 'unsupported';
export const REASONS: readonly FailureReason[];

/**
 * One state per city of a catalog.
 * - `not_downloaded` with `evicted: true` (and the `version` that was saved): the city was saved, then the browser
 *   evicted its files (noticed on start; copy key `pack.state.evicted`, else the not-downloaded text).
 * - `paused`: a download (or update to `version`) stopped part-way — by a restart, or a failure before it — with
 *   `bytes` of `total` kept in storage (verified files and the kept bytes of a file cut mid-body); `download(city)`
 *   goes on from there. `evicted` as above when the kept files are what eviction left. Copy key `pack.state.paused`
 *   (`{percent}`, `{size}`), else the downloading text.
 * - `on_disk_out_of_date.updateBytes`: what the update will fetch (its manifest, or the manifest patch the catalog
 *   lists from the installed version when one applies, and every data file not stored), the same online and
 *   offline; null when the update's manifest could not be fetched yet.
 */
export type PackState =
  | { kind: 'not_downloaded'; evicted?: true; version?: number }
  | { kind: 'queued' }
  | { kind: 'downloading'; bytes: number; total: number }
  | { kind: 'paused'; version: number; installedVersion: number | null; bytes: number; total: number; evicted?: true }
  | { kind: 'applying'; installedVersion: number | null }
  /** timetableEnded: the timetable's last date once it has ended in the city's time zone (the data is old). */
  | { kind: 'on_disk'; version: number; timetableEnded?: string }
  | { kind: 'on_disk_out_of_date'; version: number; update: number; updateBytes: number | null; timetableEnded?: string }
  | { kind: 'failed'; reason: FailureReason; installedVersion: number | null; status?: number; bytes?: number; message: string };

export class LibraryError extends Error {
  constructor(reason: FailureReason, message: string, extra?: { status?: number; bytes?: number });
  readonly name: 'LibraryError';
  readonly reason: FailureReason;
  readonly status?: number;
  readonly bytes?: number;
}

/** Where a library keeps files (by SHA-256) and records (small JSON values); `putRecord` must be atomic. */
export interface PackStorage {
  getFile(sha256: string): Promise<Uint8Array | undefined>;
  putFile(sha256: string, bytes: Uint8Array): Promise<void>;
  hasFile(sha256: string): Promise<boolean>;
  deleteFile(sha256: string): Promise<void>;
  fileKeys(): Promise<string[]>;
  getRecord(key: string): Promise<any>;
  putRecord(key: string, value: unknown): Promise<void>;
  deleteRecord(key: string): Promise<void>;
  recordKeys(): Promise<string[]>;
}
/** Storage in memory (tests, or an app that re-downloads each session). */
export interface MemoryStore extends PackStorage {}
export class MemoryStore {
  constructor();
}
/** IndexedDB (the default in browsers; pages, workers and service workers of one origin share it). */
export interface IndexedDBStore extends PackStorage {}
export class IndexedDBStore {
  constructor(name?: string, indexedDB?: IDBFactory);
  readonly name: string;
}
/** Cache Storage (the `caches` API). */
export interface CacheStore extends PackStorage {}
export class CacheStore {
  constructor(name?: string, caches?: CacheStorage);
  readonly name: string;
}

/** What the library records for an installed city. */
export interface InstalledRecord {
  city: string;
  name: string;
  version: number;
  manifest: { sha256: string; bytes: number };
  /** The data files and the string tables of `locales` (tables of other locales are fetched when asked). */
  files: { path: string; bytes: number; sha256: string }[];
  /** The manifest's URL (tables asked for later resolve against it); absent in records of older libraries. */
  manifestURL?: string;
  /** The locales whose string tables are stored; absent in records of older libraries (every table stored). */
  locales?: string[];
  /** The dates the timetable covers (the manifest's `timetable`); absent without transit and in older records. */
  timetable?: { first: string; last: string };
  /** The city's IANA time zone (manifest `city.timezone`); absent in older records. */
  timeZone?: string;
  installedAt: string;
}
/** A fetch-shaped reader of a city's stored files (for openPack); never touches the network. */
export function storageFetch(storage: PackStorage, record: InstalledRecord): (url: string) => Promise<{ ok: boolean; status: number; headers: null; arrayBuffer(): Promise<ArrayBuffer> }>;

export interface LibraryOptions {
  catalogURL: string;
  storage?: PackStorage;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  publicKey?: string | Uint8Array;
  requireSignature?: boolean;
  retries?: number;
  stallTimeoutMs?: number;
  backoffMs?: number;
  /** Requests in flight while a city downloads (default 6: what browsers open per host over HTTP/1.1). */
  concurrency?: number;
  /** Locales whose string tables are downloaded (default: navigator.language; a city without it: its first locale's). */
  locales?: string[] | string;
  /** Bytes of a file in flight kept in storage at a time so a restart resumes it (default 262144; 0: whole files only). */
  checkpointBytes?: number;
  /** Ask for persistent storage (navigator.storage.persist()) on the first download (default true). */
  persist?: boolean;
}
/** A catalog entry (the members the library uses; others pass through). */
export interface CatalogEntry {
  id: string;
  name?: string;
  dataVersion: number;
  manifest: string;
  manifestSha256?: string;
  bytes?: number;
  [member: string]: unknown;
}
export interface Catalog {
  formatVersion?: number;
  packs: CatalogEntry[];
  [member: string]: unknown;
}
export interface CityListing {
  city: string;
  name: string;
  entry: CatalogEntry | null;
  state: PackState;
}
export interface StateChangeDetail { city: string; state: PackState }
export interface ProgressDetail { city: string; bytes: number; total: number }
export interface PersistenceDetail { persisted: boolean | null }
/** Copy lookup: the text of a key with `{placeholders}` filled, or the key itself when no table has it. */
export type CopyFunction = (key: string, params?: Record<string, string | number>) => string;

export class PackLibrary extends EventTarget {
  constructor(options: LibraryOptions);
  readonly catalogURL: string;
  readonly storage: PackStorage;
  publicKey?: string | Uint8Array;
  requireSignature: boolean;
  retries: number;
  stallTimeoutMs: number;
  backoffMs: number;
  concurrency: number;
  locales: string[];
  checkpointBytes: number;
  persist: boolean;
  /** Whether the browser keeps this origin's storage under pressure: null until known (or without the API). */
  readonly persisted: boolean | null;
  /** The last accepted catalog, or null. */
  readonly catalog: Catalog | null;
  ready(): Promise<void>;
  /** Conditional fetch of catalog.json; rejects with a LibraryError; resolves to true when the catalog changed. */
  refresh(options?: { signal?: AbortSignal }): Promise<boolean>;
  entry(city: string): CatalogEntry | undefined;
  state(city: string): PackState;
  cities(): CityListing[];
  installedVersion(city: string): number | null;
  installed(): Promise<{ city: string; version: number; bytes: number; timetable?: { first: string; last: string }; timetableEnded?: string }[]>;
  /** `refresh`: refresh the catalog first (what update() does). */
  download(city: string, options?: { signal?: AbortSignal; refresh?: boolean }): Promise<PackState>;
  update(city: string, options?: { signal?: AbortSignal }): Promise<PackState>;
  cancel(city: string): void;
  remove(city: string): Promise<void>;
  open(city: string, options?: { locales?: string[] }): Promise<CityPack>;
  copy(locale?: string): Promise<CopyFunction>;
  addEventListener(type: 'statechange', listener: (event: CustomEvent<StateChangeDetail>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: 'progress', listener: (event: CustomEvent<ProgressDetail>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: 'persistence', listener: (event: CustomEvent<PersistenceDetail>) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
}

export function formatBytes(bytes: number, locale?: string): string;
export function fillCopy(text: string, params?: Record<string, string | number>): string;
/** The screen copy the library ships for a locale (else its language, else English): the templates' `pack.*` and `download_error.*` keys, what `copy()` says before any city's tables are stored. */
export function libraryCopy(locale?: string): Record<string, string>;
export function describeState(state: PackState, t: CopyFunction, context?: { name?: string; locale?: string }): { text: string; headline: string | null; action: string | null };
export function renderCityList(
  library: PackLibrary,
  elements: { list: HTMLElement; chips: HTMLElement; heading?: HTMLElement },
  options?: { locale?: string; onOpen?: (city: string) => void },
): Promise<{ render(): void; t: CopyFunction }>;
/**
 * Where to search from: the device's position when geolocation is already granted (it never asks), else the
 * city's centre (the middle of the manifest's bbox); pass it as `search(text, locale, {near})` for nearest-first.
 */
export function searchOrigin(
  pack: { manifest: { bbox?: number[] } },
  options?: { geolocation?: Geolocation; permissions?: Permissions; timeoutMs?: number },
): Promise<{ lat: number; lon: number; source: 'device' | 'city' }>;
export function renderPlaces(list: HTMLElement, rows: Place[], options?: { empty?: string }): void;
