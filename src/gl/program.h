/* Compiles embedded shaders into GL programs. A compile or link error is a hard error whose
 * message carries the whole info log and the legend of source numbers to file names. */
#ifndef BOIDS_GL_PROGRAM_H
#define BOIDS_GL_PROGRAM_H

#include "gl/gl.h"

/* How the compute programs round: the driver's own arithmetic, or a real GPU's emulated on any
 * driver (shaders/common.glsl's numerics), as BOIDS_GPU_NUMERICS=native|perturbed asks (default
 * native). Another value is BOIDS_E_ENVIRONMENT, naming the variable. */
boids_status boids_gpu_numerics_perturbed(bool *perturbed);

/* A compute program from shaders/<name>, with the numerics above, for a world of `dims`
 * dimensions (3 defines BOIDS_DIMS 3; 2 for a flat world, and for a pass that has no
 * positions). */
boids_status boids_program_compute(const char *name, int dims, GLuint *out);
/* The same with more definitions ("#define NAME VALUE\n" lines, at most 96 characters): a variant
 * of one source, such as the steering program of a world of nearest:K (BOIDS_NEAREST 1), so that
 * a world pays only for the code it runs. */
boids_status boids_program_compute_with(const char *name, int dims, const char *defines,
                                        GLuint *out);
/* A vertex + fragment program. */
boids_status boids_program_graphics(const char *vert, const char *frag, GLuint *out);

#endif
