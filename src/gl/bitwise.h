/* The driver's rounding, measured (bitwise.c): what boids_gl_bitwise (boids.h) rests on. */
#ifndef BOIDS_GL_BITWISE_H
#define BOIDS_GL_BITWISE_H

#include <stdbool.h>

#include "boids.h"

/* Whether the driver behind gl rounds as IEEE 754 does and never fuses a multiply-add, whatever
 * BOIDS_GPU_NUMERICS says (the emulated numerics change the steering's shaders, not the driver). */
boids_status boids_gl_rounds_as_ieee(boids_gl *gl, bool *out);

#endif
