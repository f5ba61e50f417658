/* Libraries that only some features use (GLFW for the viewer's window, PLplot for the figures),
 * opened with dlopen when a feature first needs one, so that a headless program neither links
 * nor needs them: a GPU server without X, GLFW or PLplot runs every simulation, and asking for a
 * window or a figure there fails with a message naming the library and the package to install.
 *
 * A user of such a library declares a table of function pointers typed from the library's own
 * header (glad's way), resolves it in a callback and redirects the library's names to the table
 * with macros, so call sites read as plain calls (base/glfw.h, app/plplot.h). */
#ifndef BOIDS_BASE_LIBRARY_H
#define BOIDS_BASE_LIBRARY_H

#include <stdbool.h>

#include "boids.h"

typedef struct boids_library boids_library;
struct boids_library {
    const char *file;     /* the soname dlopen takes: "libglfw.so.3" */
    const char *package;  /* what installs it on Debian: "libglfw3" */
    const char *purpose;  /* what needs it, for the message: "a window" */
    boids_error_id error; /* the error a failure raises */
    /* Fills the table with boids_library_symbol; the load fails if any name is missing. */
    void (*resolve)(boids_library *lib);
    /* Set by the load: */
    void *handle;
    int state;           /* 0 not tried, 1 loaded, -1 failed (never tried again) */
    const char *missing; /* the first symbol the library lacked */
    char reason[256];    /* dlerror's text of a failure */
};

/* Opens lib once per process (later calls return the first call's result at once; safe from any
 * thread) and resolves its table. On failure: lib->error, with a message naming the library, the
 * package and dlopen's reason. */
boids_status boids_library_load(boids_library *lib);
/* The address of `name` in lib, during its resolve callback; NULL (and the load fails, naming
 * the symbol) when the library lacks it. */
void *boids_library_symbol(boids_library *lib, const char *name);

#endif
