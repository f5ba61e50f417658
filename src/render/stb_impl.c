/* The one translation unit that compiles Debian's stb_image_write (its warnings are not ours:
 * built with -w, see src/CMakeLists.txt). Its deflate is swapped for boids_deflate_rle through
 * the STBIW_ZLIB_COMPRESS hook: the PNG format, filtering and CRCs stay stb's. */
#include "render/deflate_rle.h"
#define STBIW_ZLIB_COMPRESS boids_deflate_rle
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
