/* Internal GL include: glad's loader (generated into the build tree) plus the pieces of the
 * context the GPU code needs. */
#ifndef BOIDS_GPU_GL_H
#define BOIDS_GPU_GL_H

#include <glad/gl.h>

#include "boids.h"

/* Checks glGetError, and the check mode's findings (gpu/checks.h); on an error returns
 * BOIDS_ERR_GL with `what` in the message. */
boids_status boids_gl_check(const char *what);

/* Where the context keeps its measured loop limit (gpu/limits.c; 0 until measured). */
uint32_t *boids_gl_loop_limit_slot(boids_gl *gl);

#endif
