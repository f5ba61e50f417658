/* PNG's zlib stream through libdeflate (see png_zlib.h). */
#include "render/png_zlib.h"

#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>

unsigned char *boids_png_zlib(unsigned char *data, int len, int *out_len, int quality)
{
    (void)quality;
    if (len < 0) return NULL;
    /* A compressor per call: each encoder thread gets its own (libdeflate's are not shared),
     * and making one costs nothing next to a frame. */
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
    if (!c) return NULL;
    const size_t bound = libdeflate_zlib_compress_bound(c, (size_t)len);
    unsigned char *out = bound <= (size_t)INT32_MAX ? malloc(bound) : NULL; /* stb frees it */
    size_t n = out ? libdeflate_zlib_compress(c, data, (size_t)len, out, bound) : 0;
    libdeflate_free_compressor(c);
    if (n == 0) { /* cannot happen with the bound's room, but never hand stb a bad stream */
        free(out);
        return NULL;
    }
    *out_len = (int)n;
    return out;
}
