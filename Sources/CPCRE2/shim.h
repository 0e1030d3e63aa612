#ifndef HEARTH_CPCRE2_SHIM_H
#define HEARTH_CPCRE2_SHIM_H
// PCRE2 needs the code unit width before its header; Hearth matches UTF-8 text only.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
