#define _POSIX_C_SOURCE 200809L /* strdup */
/* The shaders added at run time, beside the embedded ones (gl/shader_sources.h). */
#include "gl/shader_sources.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

#define MAX_ADDED 64

static boids_shader_source added[MAX_ADDED];
static size_t added_count;
static pthread_mutex_t added_lock = PTHREAD_MUTEX_INITIALIZER;

const boids_shader_source *boids_shader_find(const char *name)
{
    const boids_shader_source *s = boids_shader_embedded(name);
    if (s) return s;
    pthread_mutex_lock(&added_lock);
    for (size_t i = 0; i < added_count && !s; ++i)
        if (strcmp(added[i].name, name) == 0) s = &added[i];
    pthread_mutex_unlock(&added_lock);
    return s; /* never freed: a program may be made from it at any time */
}

boids_status boids_shader_add(const char *name, const char *legend, const char *text)
{
    char *n = strdup(name), *l = strdup(legend), *t = strdup(text);
    boids_status st = BOIDS_OK;
    pthread_mutex_lock(&added_lock);
    size_t i = 0;
    while (i < added_count && strcmp(added[i].name, name) != 0) ++i;
    if (!n || !l || !t || i == MAX_ADDED) {
        st = boids_fail(BOIDS_E_NO_MEMORY, "cannot add shader %s (%d at most)", name, MAX_ADDED);
        free(n), free(l), free(t);
    } else {
        /* a replaced text stays allocated: a thread may still be compiling from it */
        added[i] = (boids_shader_source){n, l, t};
        if (i == added_count) ++added_count;
    }
    pthread_mutex_unlock(&added_lock);
    return st;
}
