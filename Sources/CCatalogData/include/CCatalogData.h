#ifndef CCATALOGDATA_H
#define CCATALOGDATA_H

#include <stddef.h>

/* The original apps' station catalogue, version 176, as one LZ4 frame (lz4 -9 -BX --content-size),
   linked into the executable by catalog_data.c's .incbin so that a copied binary needs no other file. */
extern const unsigned char oritsubushi_catalog_176[];
extern const unsigned char oritsubushi_catalog_176_end[];

static inline const unsigned char *oritsubushi_catalog_bytes(void) { return oritsubushi_catalog_176; }
static inline size_t oritsubushi_catalog_size(void) {
    return (size_t)(oritsubushi_catalog_176_end - oritsubushi_catalog_176);
}

#endif
