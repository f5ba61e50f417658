/* Shaders embedded at build time by cmake/embed_shaders.py (#include resolved, #line mapped). */
#ifndef BOIDS_GL_SHADER_SOURCES_H
#define BOIDS_GL_SHADER_SOURCES_H

#include <stddef.h>

typedef struct boids_shader_source {
    const char *name;   /* file name in shaders/, e.g. "scan.comp" */
    const char *legend; /* source-string numbers of #line -> file names, for error messages */
    const char *text;   /* expanded source, #version first */
} boids_shader_source;

/* NULL if no shader of that name was embedded. */
const boids_shader_source *boids_shader_find(const char *name);

#endif
