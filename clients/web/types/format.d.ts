/**
 * Every file of the web flavour a manifest lists, each once, in a stable order: per part its head and its chunks,
 * then the string tables (`copy/web/<locale>.json`). Paths are relative to the manifest. Files are
 * content-addressed, so an app updating a city fetches only the paths it does not hold yet (same SHA-256).
 * @param {Manifest} manifest a parsed manifest.json
 * @returns {WebFile[]}
 */
export function webFiles(manifest: Manifest): WebFile[];
/**
 * @param {FetchLike} fetchLike
 * @param {string} href
 * @returns {Promise<Uint8Array>}
 */
export function fetchBytes(fetchLike: FetchLike, href: string): Promise<Uint8Array>;
/**
 * The bytes of a response and its Content-Encoding header (null when absent). A connection lost before the whole
 * body arrived (arrayBuffer() rejecting) is a PackError('fetch') like a failed request.
 * @param {FetchLike} fetchLike
 * @param {string} href
 * @returns {Promise<{bytes: Uint8Array, encoding: string | null}>}
 */
export function fetchResponseBytes(fetchLike: FetchLike, href: string): Promise<{
    bytes: Uint8Array;
    encoding: string | null;
}>;
/**
 * Why stored bytes may not match the manifest although the server has the right file: the response carried
 * Content-Encoding (the client decoded it), or the bytes of a `.gz` file are not gzip. '' when neither.
 * @param {string} path @param {Uint8Array} bytes @param {string|null} encoding the response's Content-Encoding
 */
export function reencodingHint(path: string, bytes: Uint8Array, encoding: string | null): string;
/**
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>}
 */
export function gunzip(bytes: Uint8Array): Promise<Uint8Array>;
/**
 * RFC 8785 canonical JSON (what DocumentSignature signs): sorted keys (UTF-16 order), ECMAScript numbers.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJSON(value: unknown): string;
/**
 * Verifies the manifest's Ed25519 signature with Web Crypto when a public key is given.
 * @param {{signature?: unknown, keyId?: unknown}} manifest a parsed manifest (or catalog)
 * @param {SignatureOptions} options
 * @returns {Promise<SignatureState>} `unverified`: signed, but no key was given to check it.
 */
export function checkSignature(manifest: {
    signature?: unknown;
    keyId?: unknown;
}, options: SignatureOptions): Promise<SignatureState>;
/**
 * The text of a file of the web flavour, fetched beside `baseURL`, after its size and SHA-256 are checked against
 * the manifest and it is gunzipped.
 * @param {FetchLike} fetchLike
 * @param {string|URL} baseURL the manifest's URL
 * @param {WebFile} entry
 * @returns {Promise<string>}
 */
export function verifiedText(fetchLike: FetchLike, baseURL: string | URL, entry: WebFile): Promise<string>;
/**
 * A JSON file of the web flavour, verified (and gunzipped when `gzipped`).
 * @param {FetchLike} fetchLike
 * @param {string|URL} baseURL the manifest's URL
 * @param {WebFile} entry
 * @param {boolean} gzipped
 * @returns {Promise<any>}
 */
export function verifiedJSON(fetchLike: FetchLike, baseURL: string | URL, entry: WebFile, gzipped: boolean): Promise<any>;
/**
 * A file's bytes, checked against the manifest's size and SHA-256 (a mismatch names a re-encoding server).
 * @param {FetchLike} fetchLike
 * @param {string|URL} baseURL the manifest's URL
 * @param {WebFile} entry
 * @returns {Promise<Uint8Array>}
 */
export function verifiedBytes(fetchLike: FetchLike, baseURL: string | URL, entry: WebFile): Promise<Uint8Array>;
/**
 * Checks the Ed25519 signature of a parsed catalog or manifest as `openPack` checks a manifest's (throws
 * PackError('signature') when it is invalid, by another key, or missing while `requireSignature` is set).
 * @param {object} document a parsed catalog or manifest
 * @param {SignatureOptions} [options]
 * @returns {Promise<SignatureState>}
 */
export function verifySignature(document: object, options?: SignatureOptions | undefined): Promise<SignatureState>;
/**
 * SHA-256 of bytes as lowercase hex (Web Crypto).
 * @param {Uint8Array} bytes
 * @returns {Promise<string>}
 */
export function sha256(bytes: Uint8Array): Promise<string>;
/**
 * @param {string} text
 * @param {string} path what the text is, for the error
 * @returns {any}
 */
export function parseJSON(text: string, path: string): any;
/**
 * @param {string} a
 * @param {string} b
 */
export function compareStrings(a: string, b: string): 1 | -1 | 0;
/**
 * @param {Record<string, any>} object (changed in place)
 * @returns {any} the object without its null and undefined members
 */
export function omitNull(object: Record<string, any>): any;
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
    constructor(code: PackErrorCode, message: string);
    /** @type {'PackError'} */
    name: 'PackError';
    /** @readonly */
    readonly code: PackErrorCode;
}
/**
 * Stable codes of PackError.
 */
export type PackErrorCode = 'manifest' | 'hash' | 'size' | 'signature' | 'format' | 'fetch' | 'part';
/**
 * What openPack needs of a response: `fetch`'s Response has it.
 */
export type ResponseLike = {
    ok: boolean;
    status?: number | undefined;
    headers?: {
        get(name: string): string | null;
    } | null | undefined;
    arrayBuffer: () => Promise<ArrayBuffer>;
};
/**
 * `fetch`, or anything with its shape (a file reader, a storage reader).
 */
export type FetchLike = (url: string) => Promise<ResponseLike>;
export type SignatureOptions = {
    /**
     * the trusted Ed25519 public key: base64 of its 32 bytes, or the bytes
     */
    publicKey?: string | Uint8Array | undefined;
    /**
     * refuse unsigned documents
     */
    requireSignature?: boolean | undefined;
};
/**
 * `unverified`: signed, but no key was given to check it.
 */
export type SignatureState = 'verified' | 'unsigned' | 'unverified';
/**
 * One content-addressed file of a web part (web format 2): a chunk of rows or a piece of text.
 */
export type WebChunk = {
    path: string;
    bytes: number;
    sha256: string;
    uncompressedBytes?: number | undefined;
};
/**
 * One web part of a manifest: its head file and, in web format 2, the chunks the head names.
 */
export type WebPart = {
    name: string;
    path: string;
    bytes: number;
    sha256: string;
    uncompressedBytes?: number | undefined;
    chunks?: WebChunk[] | undefined;
};
/**
 * A file of the web flavour, relative to the manifest.
 */
export type WebFile = {
    path: string;
    bytes: number;
    sha256: string;
};
/**
 * The members of a manifest this reader uses (others pass through).
 */
export type Manifest = {
    dataVersion: number;
    formatVersion?: number | undefined;
    city?: {
        [member: string]: unknown;
        id?: string | undefined;
        name?: string | undefined;
        defaultLocale?: string | undefined;
    } | undefined;
    bbox?: number[] | undefined;
    copy?: WebFile[] | undefined;
    web: {
        format: number;
        parts: WebPart[];
        strings?: Record<string, string>;
    };
    keyId?: string | undefined;
    signature?: string | undefined;
};
