/* The one translation unit that compiles Debian's stb_image_write (its warnings are not ours:
 * built with -w, see src/CMakeLists.txt). Its deflate is swapped for libdeflate's through the
 * STBIW_ZLIB_COMPRESS hook (render/png_zlib.h): the PNG format, filtering and CRCs stay stb's. */
#include "render/png_zlib.h"
#define STBIW_ZLIB_COMPRESS boids_png_zlib
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
