/* The shaders' sources: those embedded at build time by cmake/embed_shaders.py (#include resolved,
 * #line mapped), the files they include (as written, for the programs made at run time), and the
 * steering programs of the models loaded at run time (gpu/steer_source.c adds them). */
#ifndef BOIDS_GL_SHADER_SOURCES_H
#define BOIDS_GL_SHADER_SOURCES_H

#include <stddef.h>

#include "boids.h"

/* A program made at run time numbers the lines of its n-th file from n * BOIDS_SHADER_LINE_SPAN
 * (its legend begins with BOIDS_SHADER_LINE_LEGEND), so that an error's line tells its file and
 * line whatever source number the driver reports. */
#define BOIDS_SHADER_LINE_SPAN 100000
#define BOIDS_SHADER_LINE_LEGEND "lines: file n from n x 100000;"

typedef struct boids_shader_source {
    const char *name;   /* file name in shaders/, e.g. "scan.comp" */
    const char *legend; /* source-string numbers of #line -> file names, for error messages */
    const char *text;   /* expanded source, #version first */
} boids_shader_source;

/* A shader embedded or added, by name; NULL if there is none of that name. */
const boids_shader_source *boids_shader_find(const char *name);
/* A shader embedded at build time (the generated shader_sources.c); NULL if none. */
const boids_shader_source *boids_shader_embedded(const char *name);
/* A file the embedded shaders include, by the name an #include gives it ("steer_common.glsl",
 * "rules/common.h"), its text as written (legend ""); NULL if none. */
const boids_shader_source *boids_shader_include(const char *name);
/* Adds a shader made at run time (the texts are copied; a name already there is replaced, for a
 * process that loads a model again). Fails only where memory does. */
boids_status boids_shader_add(const char *name, const char *legend, const char *text);

#endif
