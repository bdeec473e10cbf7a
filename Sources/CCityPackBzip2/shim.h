#ifndef CCITYPACK_BZIP2_SHIM_H
#define CCITYPACK_BZIP2_SHIM_H
// Debian's libbz2-dev ships no pkg-config file: the header is on the default include path and the library is
// linked by name (see module.modulemap).
#include <bzlib.h>
#endif
