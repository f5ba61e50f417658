/* The one translation unit of the test tools that compiles Debian's stb_image (the decoder
 * png_diff and png_probe share); its warnings are not ours. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#pragma GCC diagnostic pop
