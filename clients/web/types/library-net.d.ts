/**
 * A small document (catalog, manifest): bounded retries, stall timeout; 200 or 304.
 * @param {PackLibrary} library
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {AbortSignal} [signal]
 * @returns {Promise<{bytes: Uint8Array, response: Response}>}
 */
export function fetchSmall(library: PackLibrary, url: string, headers: Record<string, string>, signal?: AbortSignal | undefined): Promise<{
    bytes: Uint8Array;
    response: Response;
}>;
/**
 * Whether to try again: a server that was never reached (refused, unreachable, no DNS) once, quickly, so that
 * it is reported `offline` within a second or two; a dropped or stalled connection and a 5xx `retries` times.
 * @param {PackLibrary} library
 * @param {any} e
 * @param {number} attempt
 * @returns {boolean}
 */
export function retryable(library: PackLibrary, e: any, attempt: number): boolean;
/**
 * @param {PackLibrary} library
 * @param {any} e
 * @param {number} attempt
 * @returns {number}
 */
export function delay(library: PackLibrary, e: any, attempt: number): number;
/**
 * @param {PackLibrary} library
 * @param {any} e
 * @param {string} url
 * @returns {any}
 */
export function classify(library: PackLibrary, e: any, url: string): any;
/**
 * One request: resolves to the response once its body has been read through `onChunk` (awaited; status 200,
 * 206 or 304), rejects on a server never reached (TypeError with `unreachable`), a dropped connection
 * (TypeError), a stall ({stalled: true}), or an HTTP error (LibraryError server_error).
 * @param {PackLibrary} library
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {AbortSignal | undefined} signal
 * @param {(chunk: Uint8Array) => unknown} onChunk
 * @param {(response: Response) => unknown} [onResponse]
 * @returns {Promise<Response>}
 */
export function attemptRequest(library: PackLibrary, url: string, headers: Record<string, string>, signal: AbortSignal | undefined, onChunk: (chunk: Uint8Array) => unknown, onResponse?: ((response: Response) => unknown) | undefined): Promise<Response>;
/**
 * One file of a version: streamed, resumed after a dropped or stalled connection with Range + If-Range
 * (restarted when the server answers 200: the validator changed or ranges are not supported), retried with
 * back-off, then checked against its size and SHA-256. With `keep` the bytes received are kept in storage every
 * `checkpointBytes` and when the file fails, with their validator, and a later call (after a restart) resumes
 * from them.
 * @param {PackLibrary} library
 * @param {string} url
 * @param {WebFile} file
 * @param {AbortSignal | undefined} signal
 * @param {(bytes: number) => void} onBytes
 * @param {boolean} [keep]
 * @returns {Promise<Uint8Array>}
 */
export function fetchFile(library: PackLibrary, url: string, file: WebFile, signal: AbortSignal | undefined, onBytes: (bytes: number) => void, keep?: boolean | undefined): Promise<Uint8Array>;
export type PackLibrary = import('./pack-library.js').PackLibrary;
export type InstalledRecord = import('./library-model.js').InstalledRecord;
export type StageRecord = import('./library-model.js').StageRecord;
export type KnownManifest = import('./library-model.js').KnownManifest;
export type CatalogEntry = import('./library-model.js').CatalogEntry;
export type PackState = import('./library-model.js').PackState;
export type Manifest = import('./library-model.js').Manifest;
export type WebFile = import('./library-model.js').WebFile;
