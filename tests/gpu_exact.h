/* Whether the GPU tests expect the GPU to equal the CPU reference bit for bit.
 *
 * That holds on a driver that rounds every operation as IEEE 754 does and never contracts
 * a * b + c into a fused multiply-add: the steering then does, operation for operation, what the
 * CPU reference (built with -ffp-contract=off) does. Real GPUs contract and approximate division
 * and square roots, and there the tests compare within tolerances and statistics instead.
 *
 * Which kind of driver this is, is measured, never read from the renderer's name
 * (boids_gl_bitwise, src/gl/bitwise.c). The emulated GPU numerics (BOIDS_GPU_NUMERICS=perturbed,
 * see shaders/common.glsl) make any driver round as a real GPU might: the bitwise checks are then
 * off too. BOIDS_TEST_EXACT=0 turns them off anyway, =1 forces them on (under the perturbed
 * numerics they then fail: a check that the emulation perturbs). */
#ifndef BOIDS_TEST_GPU_EXACT_H
#define BOIDS_TEST_GPU_EXACT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "boids.h"

/* Whether the bitwise checks run (see the top of this file): measured once per process. */
static inline bool test_gpu_exact_on(boids_gl *gl)
{
    static int exact = -1;
    if (exact >= 0) return exact == 1;
    const char *force = getenv("BOIDS_TEST_EXACT");
    if (force && force[0]) {
        exact = strcmp(force, "0") != 0;
    } else {
        bool bitwise = false;
        exact = boids_gl_bitwise(gl, &bitwise) == BOIDS_OK && bitwise;
    }
    return exact == 1;
}

#endif
