/* GLFW loaded at first use (glfw.h). */
#define BOIDS_GLFW_LOADER /* the plain names: the table's members and the symbols' names */
#include "base/glfw.h"
#include "base/library.h"

boids_glfw_table boids_glfw;

static void resolve(boids_library *lib)
{
#define BOIDS_GLFW_RESOLVE(name)                                                                   \
    boids_glfw.name = (__typeof__(boids_glfw.name))boids_library_symbol(lib, #name);
    BOIDS_GLFW_FUNCTIONS(BOIDS_GLFW_RESOLVE)
#undef BOIDS_GLFW_RESOLVE
}

static boids_library glfw = {.file = "libglfw.so.3",
                             .package = "libglfw3",
                             .purpose = "a window",
                             .error = BOIDS_E_NO_GL,
                             .resolve = resolve};

boids_status boids_glfw_load(void) { return boids_library_load(&glfw); }
