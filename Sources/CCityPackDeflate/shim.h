#ifndef CCITYPACK_DEFLATE_SHIM_H
#define CCITYPACK_DEFLATE_SHIM_H
// libdeflate: whole-buffer DEFLATE/zlib decompression and gzip compression. A PBF blob declares its inflated size, so
// it is inflated in one call, without zlib's streaming state (about twice zlib's speed here; see docs/PERFORMANCE.md).
// The emitter gzips packs, deltas and web files with it: as small as zlib's level 9 at a fifth of the time.
#include <libdeflate.h>
#endif
