/* The GPU backend's check mode, for tests: BOIDS_GPU_CHECKS=1 in the environment.
 *
 * A driver is free to hand out garbage where the program never wrote, to skip or mangle a pass
 * whose program has a storage block with no buffer behind it, and to run passes in any order the
 * barriers allow. llvmpipe does none of this (new buffers read as zeros, unbound blocks are
 * harmless, passes run in issue order), so bugs of that kind pass every test there and break on
 * other drivers. The check mode makes them loud on every driver:
 *
 * - every buffer the GPU code creates is filled with the poison word 0xFFFFFFFF (a NaN as a float,
 *   the largest uint) before first use, so a read of memory nobody wrote shows up as NaNs, wild
 *   cells or ids instead of as plausible zeros;
 * - before each dispatch and draw, every storage and uniform block the current program declares
 *   must have a buffer bound at its binding, at least as large as the block's fixed part, and no
 *   storage block more than the driver's largest (GL_MAX_SHADER_STORAGE_BLOCK_SIZE, or the lower
 *   BOIDS_GPU_LIMIT_BLOCK_BYTES a test emulates a smaller driver with), and every buffer texture
 *   it samples must show a buffer with storage.
 *
 * A violation is printed once with the program's name and is returned by the next
 * boids_gl_check() as a BOIDS_E_GL error, so the step, read or draw that ran it fails. Off, the
 * mode costs one predictable branch per buffer and pass. The test suite runs with it on. */
#ifndef BOIDS_GL_CHECKS_H
#define BOIDS_GL_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include "gl/gl.h"

#define BOIDS_GPU_POISON_WORD 0xFFFFFFFFu

/* Whether the check mode is on (BOIDS_GPU_CHECKS set to anything but "" or "0"; read once). */
bool boids_gpu_checks_on(void);

/* In check mode: fills the buffer (any target) with the poison word. */
void boids_gpu_poison(GLuint buffer);

/* In check mode: checks the current program's blocks against what is bound (see above). `what`
 * names the pass in the message. */
void boids_gpu_check_bindings(const char *what);

/* The largest storage block of the context current on this thread (boids_gl_make_current sets
 * it from the context's limits; UINT64_MAX until then): the check mode's bound on a block. */
extern _Thread_local uint64_t boids_gpu_block_limit;

/* The size in bytes of buffer b (0 if it is 0 or has no storage), asked of the driver through a
 * binding point that is restored. */
uint64_t boids_gpu_buffer_bytes(GLuint b);

/* The first violation found since the last call (BOIDS_E_GL), or BOIDS_OK; clears it. */
boids_status boids_gpu_checks_take(void);

/* The GL commands that do work on the device, issued on this thread through gpu/buffers.h: a
 * step counts its own (the difference across it), so that boids-bench and the tests see how many
 * dispatches, barriers and clears a step takes, on any driver. (Per thread: each world's calls
 * run on the caller's thread, with its context current.) */
typedef struct boids_gpu_command_count {
    uint64_t dispatches, barriers, clears, copies;
} boids_gpu_command_count;
extern _Thread_local boids_gpu_command_count boids_gpu_commands;

#endif
