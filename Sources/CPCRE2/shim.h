#ifndef HEARTH_CPCRE2_SHIM_H
#define HEARTH_CPCRE2_SHIM_H
// PCRE2 needs the code unit width before its header; Hearth matches UTF-8 text only.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
// malloc_trim, to hand a discarded grammar's freed heap pages back (HearthGrammar/FreedMemory.swift);
// Swift's Glibc module does not export <malloc.h>.
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#endif
