/* PLplot loaded at first use (plplot.h). */
#define BOIDS_PLPLOT_LOADER /* the plain names: the table's members and the symbols' names */
#include "app/plplot.h"
#include "base/library.h"

boids_plplot_table boids_plplot;

static void resolve(boids_library *lib)
{
#define BOIDS_PLPLOT_RESOLVE(name)                                                                 \
    boids_plplot.name = (__typeof__(boids_plplot.name))boids_library_symbol(lib, #name);
    BOIDS_PLPLOT_FUNCTIONS(BOIDS_PLPLOT_RESOLVE)
#undef BOIDS_PLPLOT_RESOLVE
}

static boids_library plplot = {.file = "libplplot.so.17",
                               .package = "libplplot17",
                               .purpose = "a figure",
                               .error = BOIDS_E_FILE_WRITE,
                               .resolve = resolve};

boids_status boids_plplot_load(void) { return boids_library_load(&plplot); }
