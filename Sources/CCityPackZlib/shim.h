#ifndef CCITYPACK_ZLIB_SHIM_H
#define CCITYPACK_ZLIB_SHIM_H
#include <zlib.h>

/// `deflateInit2` and `inflateInit2` are macros Swift cannot import.
static inline int citypack_deflateInit2(z_streamp strm, int level, int windowBits, int memLevel) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}
static inline int citypack_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
