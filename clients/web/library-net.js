// The pack library's requests: one attempt with a stall timeout, bounded retries with back-off, what counts as
// offline, and a file streamed and resumed (Range + If-Range) from the bytes kept in storage, then verified.
// Functions of a PackLibrary (pack-library.js).

import { reencodingHint, sha256 } from './format.js';
import { dropPartial, loadPartial } from './library-files.js';
import { LibraryError, concat, isAbort, partialKey, pieceKey, sleep } from './library-model.js';

/** @typedef {import('./pack-library.js').PackLibrary} PackLibrary */
/** @typedef {import('./library-model.js').InstalledRecord} InstalledRecord */
/** @typedef {import('./library-model.js').StageRecord} StageRecord */
/** @typedef {import('./library-model.js').KnownManifest} KnownManifest */
/** @typedef {import('./library-model.js').CatalogEntry} CatalogEntry */
/** @typedef {import('./library-model.js').PackState} PackState */
/** @typedef {import('./library-model.js').Manifest} Manifest */
/** @typedef {import('./library-model.js').WebFile} WebFile */

// Error codes (Node's, undici's) of a request that never reached a server: reported as offline at once, where a
// connection reset or a stall is retried with back-off.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Whether a fetch that rejected before any response never reached a server (refused, unreachable, no DNS): Node
 * names the cause's code; a browser's TypeError ("Failed to fetch") names none, and there a rejection before the
 * response is taken as unreachable too (a reset mid-body is not: that is a lost connection).
 * @param {any} e
 * @returns {boolean}
 */
function unreachable(e) {
  if (globalThis.navigator?.onLine === false) return true;
  for (let c = e, depth = 0; c && depth < 5; c = c.cause ?? c.errors?.[0], depth++) {
    if (typeof c.code === 'string') return UNREACHABLE.has(c.code);
  }
  return true;
}


/**
 * A small document (catalog, manifest): bounded retries, stall timeout; 200 or 304.
 * @param {PackLibrary} library
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {AbortSignal} [signal]
 * @returns {Promise<{bytes: Uint8Array, response: Response}>}
 */
export async function fetchSmall(library, url, headers, signal) {
  for (let attempt = 0; ; attempt++) {
    try {
      /** @type {Uint8Array[]} */
      const chunks = [];
      const response = await attemptRequest(library, url, headers, signal, (c) => { chunks.push(c); });
      return { bytes: concat(chunks), response };
    } catch (/** @type {any} */ e) {
      if (signal?.aborted) throw signal.reason;
      if (!retryable(library, e, attempt)) throw classify(library, e, url);
      await sleep(delay(library, e, attempt), signal);
    }
  }
}

/**
 * Whether to try again: a server that was never reached (refused, unreachable, no DNS) once, quickly, so that
 * it is reported `offline` within a second or two; a dropped or stalled connection and a 5xx `retries` times.
 * @param {PackLibrary} library
 * @param {any} e
 * @param {number} attempt
 * @returns {boolean}
 */
export function retryable(library, e, attempt) {
  if (isAbort(e)) return false;
  if (e?.unreachable) return attempt < Math.min(1, library.retries);
  if (attempt >= library.retries) return false;
  if (e instanceof LibraryError) return e.reason === 'server_error' && /** @type {number} */ (e.status) >= 500;
  return true;
}

/**
 * @param {PackLibrary} library
 * @param {any} e
 * @param {number} attempt
 * @returns {number}
 */
export function delay(library, e, attempt) {
  return e?.unreachable ? Math.min(library.backoffMs, 250) : library.backoffMs * 2 ** attempt;
}

/**
 * @param {PackLibrary} library
 * @param {any} e
 * @param {string} url
 * @returns {any}
 */
export function classify(library, e, url) {
  if (isAbort(e) || e instanceof LibraryError) return e;
  if (e?.stalled) return new LibraryError('timeout', `${url}: no data for ${library.stallTimeoutMs} ms`);
  return new LibraryError('offline', `${url}: ${e?.message ?? e}`);
}

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
export async function attemptRequest(library, url, headers, signal, onChunk, onResponse) {
  signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let stalled = false;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => { stalled = true; controller.abort(new DOMException('stalled', 'TimeoutError')); }, library.stallTimeoutMs);
  };
  try {
    arm();
    let response;
    try {
      response = await library._fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
    } catch (/** @type {any} */ e) {
      if (stalled) throw Object.assign(new Error('stalled'), { stalled: true });
      if (signal?.aborted) throw signal.reason;
      throw Object.assign(new TypeError(e?.message ?? String(e), { cause: e }), { unreachable: unreachable(e), beforeResponse: true });
    }
    if (response.status === 304) return response;
    if (!response.ok) {
      await response.body?.cancel?.().catch(() => {});
      throw new LibraryError('server_error', `${url}: HTTP ${response.status}`, { status: response.status });
    }
    await onResponse?.(response);
    try {
      if (response.body?.getReader) {
        const reader = response.body.getReader();
        for (;;) {
          arm();
          const { done, value } = await reader.read();
          clearTimeout(timer);
          if (done) break;
          await onChunk(value);
        }
      } else {
        await onChunk(new Uint8Array(await response.arrayBuffer()));
      }
    } catch (/** @type {any} */ e) {
      if (stalled) throw Object.assign(new Error('stalled'), { stalled: true });
      if (signal?.aborted) throw signal.reason;
      if (e instanceof LibraryError) throw e;
      throw new TypeError(`the connection was lost mid-body (${e?.message ?? e})`);
    }
    return response;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

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
export async function fetchFile(library, url, file, signal, onBytes, keep = true) {
  const sha = file.sha256;
  const held = keep ? await loadPartial(library, sha) : null;
  let chunks = held ? [...held.pieces] : [];
  let received = chunks.reduce((n, c) => n + c.length, 0);
  let validator = held?.validator ?? null;
  /** @type {Uint8Array[]} */
  let pending = []; // chunks not kept in storage yet
  let kept = held ? held.pieces.map((p) => p.length) : [];
  let keeping = keep && library.checkpointBytes > 0;
  let encoding = null;
  onBytes(received);
  const forget = async () => {
    if (kept.length) await dropPartial(library, sha);
    kept = [];
  };
  const restart = async () => {
    chunks = [];
    pending = [];
    received = 0;
    onBytes(0);
    await forget();
  };
  const checkpoint = async () => {
    if (!keeping || !validator || pending.length === 0) return;
    const piece = concat(pending);
    pending = [];
    try {
      await library.storage.putFile(pieceKey(sha, kept.length), piece);
      kept.push(piece.length);
      await library.storage.putRecord(partialKey(sha), { validator, pieces: kept.slice() });
    } catch {
      keeping = false; // storage full or failing: the file goes on in memory only
    }
  };
  // A request with Range that gets no response at all is tried once without (a server or proxy may fail the
  // partial answer, e.g. a re-encoding one); the kept bytes go only when a whole-file answer (200) arrives.
  let rangeless = false;
  for (let attempt = 0; ; attempt++) {
    /** @type {Record<string, string>} */
    const headers = {};
    if (received > 0 && validator && !rangeless) {
      headers.range = `bytes=${received}-`;
      headers['if-range'] = validator;
    } else if (received > 0 && !validator) {
      await restart();
    }
    try {
      await attemptRequest(library, url, headers, signal, async (chunk) => {
        chunks.push(chunk);
        pending.push(chunk);
        received += chunk.length;
        onBytes(Math.min(received, file.bytes));
        if (keeping && pending.reduce((n, c) => n + c.length, 0) >= library.checkpointBytes) await checkpoint();
      }, async (response) => {
        encoding = response.headers?.get?.('content-encoding') ?? null;
        if (response.status === 206) {
          const start = Number(/bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]);
          if (start !== received) {
            await restart();
            validator = null;
            throw new TypeError(`the server resumed at byte ${start}, not ${received}`);
          }
          return;
        }
        if (received > 0) await restart(); // 200: the whole file again
        const etag = response.headers?.get?.('etag');
        validator = etag && !etag.startsWith('W/') ? etag : (response.headers?.get?.('last-modified') ?? null);
      });
      break;
    } catch (/** @type {any} */ e) {
      // Every byte arrived before the connection went: the checks below decide.
      if (!signal?.aborted && !(e instanceof LibraryError) && received === file.bytes && validator != null) break;
      if (!signal?.aborted && e?.beforeResponse && headers.range && !rangeless) {
        rangeless = true;
        continue;
      }
      if (!retryable(library, e, attempt) || signal?.aborted) {
        if (!(e instanceof LibraryError)) await checkpoint(); // what arrived stays for the next try
        if (signal?.aborted) throw signal.reason;
        throw classify(library, e, url);
      }
      await sleep(delay(library, e, attempt), signal).catch(async (stopped) => {
        await checkpoint();
        throw stopped;
      });
    }
  }
  const bytes = concat(chunks);
  const hint = reencodingHint(file.path, bytes, encoding);
  if (bytes.length !== file.bytes || (await sha256(bytes)) !== file.sha256) {
    await forget().catch(() => {});
    if (bytes.length !== file.bytes) throw new LibraryError('damaged', `${file.path}: ${bytes.length} bytes, the manifest says ${file.bytes}${hint}`);
    throw new LibraryError('damaged', `${file.path}: SHA-256 ${await sha256(bytes)} is not the manifest's ${file.sha256}${hint}`);
  }
  return bytes;
}
