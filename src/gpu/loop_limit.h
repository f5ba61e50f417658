/* The loop limit of a driver's shader invocations, measured once per context by a probe
 * (shaders/loop_probe.comp) and kept with the context's other limits (gl/limits.h). Above the
 * context (gl/context.c), which asks the other limits when it is made: the probe needs a
 * context. */
#ifndef BOIDS_GPU_LOOP_LIMIT_H
#define BOIDS_GPU_LOOP_LIMIT_H

#include "gl/gl.h"

/* Iterations one shader invocation may run in its loops before a pass stops on its own and
 * raises BOIDS_STATUS_LOOP_LIMIT. llvmpipe, and the drivers built on it (zink over lavapipe),
 * end an invocation silently after about 65535 loop iterations in all; shaders/loop_probe.comp
 * finds that out, and the limit is then 1 % below what it measured, to leave room for the
 * loops a pass runs besides its candidates. A driver that runs the probe's million iterations
 * has no limit: UINT32_MAX. gl must be current. */
boids_status boids_gpu_loop_limit(boids_gl *gl, uint32_t *out);

#endif
