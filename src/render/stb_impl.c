/* The one translation unit that compiles Debian's stb_image_write (its warnings are not ours:
 * built with -w, see src/CMakeLists.txt). */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
