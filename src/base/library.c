/* Libraries loaded at first use (library.h). */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "base/error.h"
#include "base/library.h"

/* One lock for every library: loads are rare, and a table must be whole before anyone calls
 * through it. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *boids_library_symbol(boids_library *lib, const char *name)
{
    void *address = dlsym(lib->handle, name);
    if (!address && !lib->missing) lib->missing = name;
    return address;
}

static void open_library(boids_library *lib)
{
    lib->handle = dlopen(lib->file, RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle) {
        const char *why = dlerror();
        snprintf(lib->reason, sizeof lib->reason, "%s", why ? why : "dlopen failed");
        lib->state = -1;
        return;
    }
    lib->resolve(lib);
    lib->state = lib->missing ? -1 : 1;
}

boids_status boids_library_load(boids_library *lib)
{
    pthread_mutex_lock(&lock);
    if (lib->state == 0) open_library(lib);
    int state = lib->state;
    pthread_mutex_unlock(&lock);
    if (state > 0) return BOIDS_OK;
    if (lib->missing)
        return boids_fail(lib->error,
                          "%s needs %s, and the one installed lacks %s (too old? apt "
                          "install %s)",
                          lib->purpose, lib->file, lib->missing, lib->package);
    return boids_fail(lib->error, "%s needs %s, which does not load (apt install %s): %s",
                      lib->purpose, lib->file, lib->package, lib->reason);
}
