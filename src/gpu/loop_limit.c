#include "gpu/loop_limit.h"

#include <stdint.h>

#include "boids_shared.h"

#include "base/error.h"
#include "gl/context.h"
#include "gl/limits.h"
#include "gl/program.h"
#include "gpu/buffers.h"

/* The probe's loops: PROBE_OUTER rounds of PROBE_INNER iterations (a million in all). */
#define PROBE_OUTER 64u
#define PROBE_INNER 16384u

/* The probe's hash after all its iterations, and a value it never takes on the way (its u_stop,
 * so the early exit the compiler must allow never happens). */
static uint32_t replay(uint32_t *never)
{
    uint32_t h = 2166136261u, least = UINT32_MAX;
    for (uint32_t o = 0; o < PROBE_OUTER; ++o)
        for (uint32_t i = 0; i < PROBE_INNER; ++i) {
            h = (h ^ i) * 16777619u;
            least = h < least ? h : least;
        }
    *never = least - 1; /* below every value the hash took (it never takes 0 or less here) */
    return h;
}

/* Iterations the probe ran in one invocation. */
static boids_status measure(uint32_t *iterations)
{
    uint32_t stop = 0;
    const uint32_t full = replay(&stop);
    GLuint prog = 0;
    boids_status st = boids_program_compute("loop_probe.comp", 2, &prog);
    if (st != BOIDS_OK) return st;
    GLuint result = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, 2 * sizeof(uint32_t));
    glUseProgram(prog);
    glUniform1ui(glGetUniformLocation(prog, "u_outer"), PROBE_OUTER);
    glUniform1ui(glGetUniformLocation(prog, "u_inner"), PROBE_INNER);
    glUniform1ui(glGetUniformLocation(prog, "u_stop"), stop);
    boids_gpu_bind(BOIDS_BIND_PROBE_RESULT, result);
    boids_gpu_dispatch("loop limit probe", 1);
    uint32_t out[2] = {0, 0};
    boids_gpu_read(result, 0, sizeof out, out);
    glUseProgram(0);
    boids_gpu_delete(&result, 1);
    glDeleteProgram(prog);
    *iterations = out[0];
    st = boids_gl_check("measuring the loop limit");
    if (st == BOIDS_OK && out[0] == PROBE_OUTER * PROBE_INNER && out[1] != full)
        st = boids_fail(BOIDS_E_GL, "the loop limit probe computed %08x, not %08x", out[1], full);
    return st;
}

boids_status boids_gpu_loop_limit(boids_gl *gl, uint32_t *out)
{
    uint32_t *cached = &boids_gl_limits(gl)->loop;
    if (!*cached) {
        uint32_t ran = 0;
        boids_status st = measure(&ran);
        if (st != BOIDS_OK) return st;
        *cached = ran >= PROBE_OUTER * PROBE_INNER ? UINT32_MAX : ran - ran / 100;
        if (*cached == 0) *cached = 1;
    }
    *out = *cached;
    return BOIDS_OK;
}
