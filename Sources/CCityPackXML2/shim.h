#ifndef CCITYPACK_XML2_SHIM_H
#define CCITYPACK_XML2_SHIM_H
// Debian's libxml2 headers pull in ICU, whose types clash with Foundation's in debug builds.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

/// `xmlFree` is a global function pointer, which Swift 6 rejects; call it through this wrapper.
static inline void citypack_xmlFree(void *p) { xmlFree(p); }
#endif
