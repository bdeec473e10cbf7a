// Ambient declarations that Debian's tsc 4.8 libraries lack, for checking the reader's sources with
// `tsc -p tsconfig.json` (not part of the package: the generated declarations do not refer to them).
declare class DecompressionStream {
  constructor(format: 'gzip' | 'deflate' | 'deflate-raw');
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<BufferSource>;
}
declare module 'node:crypto' {
  export const webcrypto: { subtle: SubtleCrypto };
}
