// The web format as files: the reader's error type, the files a manifest lists, fetching and verifying them
// (size, SHA-256, gzip), canonical JSON and Ed25519 signatures (Web Crypto), and the JSON row helpers.

/** @typedef {'manifest'|'hash'|'size'|'signature'|'format'|'fetch'|'part'} PackErrorCode Stable codes of PackError. */
/**
 * What openPack needs of a response: `fetch`'s Response has it.
 * @typedef {object} ResponseLike
 * @property {boolean} ok
 * @property {number} [status]
 * @property {{get(name: string): string | null} | null} [headers]
 * @property {() => Promise<ArrayBuffer>} arrayBuffer
 */
/** @typedef {(url: string) => Promise<ResponseLike>} FetchLike `fetch`, or anything with its shape (a file reader, a storage reader). */
/**
 * @typedef {object} SignatureOptions
 * @property {string|Uint8Array} [publicKey] the trusted Ed25519 public key: base64 of its 32 bytes, or the bytes
 * @property {boolean} [requireSignature] refuse unsigned documents
 */
/** @typedef {'verified'|'unsigned'|'unverified'} SignatureState `unverified`: signed, but no key was given to check it. */
/**
 * One content-addressed file of a web part (web format 2): a chunk of rows or a piece of text.
 * @typedef {object} WebChunk
 * @property {string} path
 * @property {number} bytes
 * @property {string} sha256
 * @property {number} [uncompressedBytes]
 */
/**
 * One web part of a manifest: its head file and, in web format 2, the chunks the head names.
 * @typedef {object} WebPart
 * @property {string} name
 * @property {string} path
 * @property {number} bytes
 * @property {string} sha256
 * @property {number} [uncompressedBytes]
 * @property {WebChunk[]} [chunks]
 */
/**
 * A file of the web flavour, relative to the manifest.
 * @typedef {object} WebFile
 * @property {string} path
 * @property {number} bytes
 * @property {string} sha256
 */
/**
 * The members of a manifest this reader uses (others pass through).
 * @typedef {object} Manifest
 * @property {number} dataVersion
 * @property {number} [formatVersion]
 * @property {{id?: string, name?: string, defaultLocale?: string, [member: string]: unknown}} [city]
 * @property {number[]} [bbox]
 * @property {WebFile[]} [copy]
 * @property {{format: number, parts: WebPart[], strings?: Record<string, string>}} web
 * @property {string} [keyId]
 * @property {string} [signature]
 */

/** An error with a stable `code`: `manifest`, `hash`, `size`, `signature`, `format`, `fetch`, `part`. */
export class PackError extends Error {
  /** @param {PackErrorCode} code @param {string} message */
  constructor(code, message) {
    super(message);
    /** @type {'PackError'} */
    this.name = 'PackError';
    /** @readonly */
    this.code = code;
  }
}

/**
 * Every file of the web flavour a manifest lists, each once, in a stable order: per part its head and its chunks,
 * then the string tables (`copy/web/<locale>.json`). Paths are relative to the manifest. Files are
 * content-addressed, so an app updating a city fetches only the paths it does not hold yet (same SHA-256).
 * @param {Manifest} manifest a parsed manifest.json
 * @returns {WebFile[]}
 */
export function webFiles(manifest) {
  /** @type {WebFile[]} */
  const out = [];
  const seen = new Set();
  /** @param {WebFile | undefined} f */
  const add = (f) => {
    if (!f || seen.has(f.path)) return;
    seen.add(f.path);
    out.push({ path: f.path, bytes: f.bytes, sha256: f.sha256 });
  };
  for (const part of manifest?.web?.parts ?? []) {
    add(part);
    for (const chunk of part.chunks ?? []) add(chunk);
  }
  const copy = new Map((manifest?.copy ?? []).map((f) => [f.path, f]));
  const strings = manifest?.web?.strings ?? {};
  for (const locale of Object.keys(strings).sort()) add(copy.get(strings[locale]));
  return out;
}

/**
 * @param {FetchLike} fetchLike
 * @param {string} href
 * @returns {Promise<Uint8Array>}
 */
export async function fetchBytes(fetchLike, href) {
  return (await fetchResponseBytes(fetchLike, href)).bytes;
}

/**
 * The bytes of a response and its Content-Encoding header (null when absent). A connection lost before the whole
 * body arrived (arrayBuffer() rejecting) is a PackError('fetch') like a failed request.
 * @param {FetchLike} fetchLike
 * @param {string} href
 * @returns {Promise<{bytes: Uint8Array, encoding: string | null}>}
 */
export async function fetchResponseBytes(fetchLike, href) {
  let response;
  try {
    response = await fetchLike(href);
  } catch (/** @type {any} */ e) {
    throw new PackError('fetch', `${href}: ${e.message}`);
  }
  if (!response || !response.ok) throw new PackError('fetch', `${href}: HTTP ${response?.status ?? '?'}`);
  let buffer;
  try {
    buffer = await response.arrayBuffer();
  } catch (/** @type {any} */ e) {
    throw new PackError('fetch', `${href}: the connection was lost before the whole body arrived (${e.message})`);
  }
  return { bytes: new Uint8Array(buffer), encoding: response.headers?.get?.('content-encoding') ?? null };
}

/**
 * Why stored bytes may not match the manifest although the server has the right file: the response carried
 * Content-Encoding (the client decoded it), or the bytes of a `.gz` file are not gzip. '' when neither.
 * @param {string} path @param {Uint8Array} bytes @param {string|null} encoding the response's Content-Encoding
 */
export function reencodingHint(path, bytes, encoding) {
  if (encoding && encoding !== 'identity') {
    return ` (the response carried Content-Encoding: ${encoding}, so the client decoded the stored bytes: serve .gz files as plain bytes without Content-Encoding; see docs/HOSTING.md)`;
  }
  if (path.endsWith('.gz') && bytes.length >= 2 && !(bytes[0] === 0x1f && bytes[1] === 0x8b)) {
    return ' (the bytes are not gzip: something between the server and the app decoded or re-encoded the file, e.g. a Content-Encoding a proxy added or removed)';
  }
  return '';
}

/** @param {ArrayBuffer} buffer */
function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Web Crypto: the global one (browsers, Node ≥ 19), else Node 18's `node:crypto` webcrypto. */
async function subtle() {
  if (globalThis.crypto?.subtle) return globalThis.crypto.subtle;
  const { webcrypto } = await import('node:crypto');
  return webcrypto.subtle;
}

/**
 * @param {Uint8Array} bytes
 * @returns {Promise<string>}
 */
async function sha256Hex(bytes) {
  return hex(await (await subtle()).digest('SHA-256', bytes));
}

/**
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>}
 */
export async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** @param {string} text */
function base64Bytes(text) {
  const binary = atob(text.trim());
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * RFC 8785 canonical JSON (what DocumentSignature signs): sorted keys (UTF-16 order), ECMAScript numbers.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJSON(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(/** @type {Record<string, unknown>} */ (value)[k])}`).join(',')}}`;
}

/**
 * Verifies the manifest's Ed25519 signature with Web Crypto when a public key is given.
 * @param {{signature?: unknown, keyId?: unknown}} manifest a parsed manifest (or catalog)
 * @param {SignatureOptions} options
 * @returns {Promise<SignatureState>} `unverified`: signed, but no key was given to check it.
 */
export async function checkSignature(manifest, options) {
  const signed = typeof manifest.signature === 'string';
  if (!signed) {
    if (options.requireSignature) throw new PackError('signature', 'the manifest is not signed');
    return 'unsigned';
  }
  if (options.publicKey == null) return 'unverified';
  const key = typeof options.publicKey === 'string' ? base64Bytes(options.publicKey) : options.publicKey;
  if (key.length !== 32) throw new PackError('signature', 'the public key is not 32 bytes');
  const keyId = (await sha256Hex(key)).slice(0, 16);
  if (manifest.keyId !== keyId) throw new PackError('signature', `signed by key ${manifest.keyId}, not ${keyId}`);
  const { signature, ...unsigned } = manifest;
  const message = new TextEncoder().encode(canonicalJSON(unsigned));
  let ok;
  try {
    const webCrypto = await subtle();
    const cryptoKey = await webCrypto.importKey('raw', key, { name: 'Ed25519' }, false, ['verify']);
    ok = await webCrypto.verify({ name: 'Ed25519' }, cryptoKey, base64Bytes(/** @type {string} */ (signature)), message);
  } catch (/** @type {any} */ e) {
    throw new PackError('signature', `Ed25519 is not available in this Web Crypto (${e.message}); see docs/WEB.md`);
  }
  if (!ok) throw new PackError('signature', 'the manifest signature is invalid');
  return 'verified';
}

/**
 * The text of a file of the web flavour, fetched beside `baseURL`, after its size and SHA-256 are checked against
 * the manifest and it is gunzipped.
 * @param {FetchLike} fetchLike
 * @param {string|URL} baseURL the manifest's URL
 * @param {WebFile} entry
 * @returns {Promise<string>}
 */
export async function verifiedText(fetchLike, baseURL, entry) {
  const bytes = await verifiedBytes(fetchLike, baseURL, entry);
  let plain;
  try {
    plain = await gunzip(bytes);
  } catch (/** @type {any} */ e) {
    throw new PackError('part', `${entry.path}: not gzip (${e.message})`);
  }
  return new TextDecoder().decode(plain);
}

/**
 * A JSON file of the web flavour, verified (and gunzipped when `gzipped`).
 * @param {FetchLike} fetchLike
 * @param {string|URL} baseURL the manifest's URL
 * @param {WebFile} entry
 * @param {boolean} gzipped
 * @returns {Promise<any>}
 */
export async function verifiedJSON(fetchLike, baseURL, entry, gzipped) {
  const bytes = await verifiedBytes(fetchLike, baseURL, entry);
  const plain = gzipped ? await gunzip(bytes) : bytes;
  return JSON.parse(new TextDecoder().decode(plain));
}

/**
 * A file's bytes, checked against the manifest's size and SHA-256 (a mismatch names a re-encoding server).
 * @param {FetchLike} fetchLike
 * @param {string|URL} baseURL the manifest's URL
 * @param {WebFile} entry
 * @returns {Promise<Uint8Array>}
 */
export async function verifiedBytes(fetchLike, baseURL, entry) {
  const href = new URL(entry.path, baseURL).href;
  const { bytes, encoding } = await fetchResponseBytes(fetchLike, href);
  if (bytes.length !== entry.bytes) {
    throw new PackError('size', `${entry.path}: ${bytes.length} bytes, the manifest says ${entry.bytes}${reencodingHint(entry.path, bytes, encoding)}`);
  }
  const digest = await sha256Hex(bytes);
  if (digest !== entry.sha256) {
    throw new PackError('hash', `${entry.path}: SHA-256 ${digest} is not the manifest's ${entry.sha256}${reencodingHint(entry.path, bytes, encoding)}`);
  }
  return bytes;
}

/**
 * Checks the Ed25519 signature of a parsed catalog or manifest as `openPack` checks a manifest's (throws
 * PackError('signature') when it is invalid, by another key, or missing while `requireSignature` is set).
 * @param {object} document a parsed catalog or manifest
 * @param {SignatureOptions} [options]
 * @returns {Promise<SignatureState>}
 */
export function verifySignature(document, options = {}) {
  return checkSignature(document, options);
}

/**
 * SHA-256 of bytes as lowercase hex (Web Crypto).
 * @param {Uint8Array} bytes
 * @returns {Promise<string>}
 */
export function sha256(bytes) {
  return sha256Hex(bytes);
}

/**
 * @param {string} text
 * @param {string} path what the text is, for the error
 * @returns {any}
 */
export function parseJSON(text, path) {
  try {
    return JSON.parse(text);
  } catch (/** @type {any} */ e) {
    throw new PackError('part', `${path}: not JSON (${e.message})`);
  }
}

/**
 * @param {string} a
 * @param {string} b
 */
export function compareStrings(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * @param {Record<string, any>} object (changed in place)
 * @returns {any} the object without its null and undefined members
 */
export function omitNull(object) {
  for (const k of Object.keys(object)) if (object[k] === null || object[k] === undefined) delete object[k];
  return object;
}
