/* Internal GL include: glad's loader (generated into the build tree) plus the pieces of the
 * context the GPU code needs. */
#ifndef BOIDS_GPU_GL_H
#define BOIDS_GPU_GL_H

#include <glad/gl.h>

#include "boids.h"

/* Checks glGetError, and the check mode's findings (gpu/checks.h); on an error returns
 * BOIDS_ERR_GL with `what` in the message. */
boids_status boids_gl_check(const char *what);

#endif
