#ifndef CCITYPACK_DEFLATE_SHIM_H
#define CCITYPACK_DEFLATE_SHIM_H
// libdeflate: whole-buffer DEFLATE/zlib decompression. A PBF blob declares its inflated size, so it is inflated
// in one call, without zlib's streaming state (about twice zlib's speed here; see docs/PERFORMANCE.md).
#include <libdeflate.h>
#endif
