/* GL 4.3 core contexts (gl/context.c): what the library's own code asks of one besides the public
 * header's boids_gl_* (boids.h makes, destroys and names them). */
#ifndef BOIDS_GL_CONTEXT_H
#define BOIDS_GL_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "gl/gl.h"

/* Checks glGetError, and the check mode's findings (gl/checks.h); on an error returns
 * BOIDS_ERR_GL with `what` in the message. */
boids_status boids_gl_check(const char *what);

/* The driver's limits (gl/limits.h), asked when the context was made; the loop limit is
 * measured on first use (0 until then). */
typedef struct boids_gpu_limits boids_gpu_limits;
boids_gpu_limits *boids_gl_limits(boids_gl *gl);
/* Whether the driver tells of a GPU reset of this context (then boids_gl_check says so). */
bool boids_gl_told_of_resets(const boids_gl *gl);

/* Leaves a headless context current on no thread (where it is current on this one), so another
 * thread may make it current next: a world with a context of its own does it after every call. */
void boids_gl_release(boids_gl *gl);

/* The workgroups along x a dispatch of the context current on this thread may have. */
uint32_t boids_gl_dispatch_groups_x(void);

/* Texture unit `unit` (below BOIDS_GL_TEXEL_VIEWS) of the context current on this thread shows
 * `buffer` as a buffer texture of `format` (one texture of the context's per unit). */
#define BOIDS_GL_TEXEL_VIEWS 4
void boids_gl_texel_view(GLuint unit, GLenum format, GLuint buffer);

#endif
