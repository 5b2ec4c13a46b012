// Embeds the LZ4-compressed catalogue dump in .rodata. CATALOG_FILE (an absolute path to
// stations-176.sql.lz4) comes from Package.swift. SwiftPM does not track the data file as an input:
// a new catalogue is a new file name, hence an edit here and in the header.
#include "CCatalogData.h"

__asm__(".section .rodata\n"
        ".balign 16\n"
        ".global oritsubushi_catalog_176\n"
        "oritsubushi_catalog_176:\n"
        ".incbin \"" CATALOG_FILE "\"\n"
        ".global oritsubushi_catalog_176_end\n"
        "oritsubushi_catalog_176_end:\n"
        ".previous\n");
