/* Compiles embedded shaders into GL programs. A compile or link error is a hard error whose
 * message carries the whole info log and the legend of source numbers to file names. */
#ifndef BOIDS_GPU_PROGRAM_H
#define BOIDS_GPU_PROGRAM_H

#include "gpu/gl.h"

/* A compute program from shaders/<name>. */
boids_status boids_program_compute(const char *name, GLuint *out);
/* A vertex + fragment program. */
boids_status boids_program_graphics(const char *vert, const char *frag, GLuint *out);

#endif
