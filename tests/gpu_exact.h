/* Whether the GPU tests expect the GPU to equal the CPU reference bit for bit.
 *
 * That holds on a driver that rounds every operation as IEEE 754 does and never contracts
 * a * b + c into a fused multiply-add: the steering then does, operation for operation, what the
 * CPU reference (built with -ffp-contract=off) does. Real GPUs contract and approximate division
 * and square roots, and there the tests compare within tolerances and statistics instead.
 *
 * Which kind of driver this is, is measured, never read from the renderer's name: a compute
 * shader evaluates products plus sums, quotients, square roots and sums of squares on a few
 * thousand random and awkward operands, and the driver rounds as IEEE does when every result
 * equals the CPU's bit for bit. The emulated GPU numerics (BOIDS_GPU_NUMERICS=perturbed, see
 * shaders/common.glsl) make any driver round as a real GPU might: the bitwise checks are then off
 * too. BOIDS_TEST_EXACT=0 turns them off anyway, =1 forces them on (under the perturbed numerics
 * they then fail: a check that the emulation perturbs). */
#ifndef BOIDS_TEST_GPU_EXACT_H
#define BOIDS_TEST_GPU_EXACT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glad/gl.h>

#include "boids.h"
#include "gl/program.h"

#define TEST_PROBE_N 4096

static const char test_probe_glsl[] =
    "#version 430 core\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) readonly buffer In { vec4 a[]; };\n"
    "layout(std430, binding = 1) writeonly buffer Out { vec4 r[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    vec4 v = a[i];\n"
    "    r[i] = vec4(v.x * v.y + v.z, v.x / v.y, sqrt(abs(v.z)), v.x * v.x + v.w * v.w);\n"
    "}\n";

/* The operands: random magnitudes over many binades and signs, and a few awkward ones. */
static inline void test_probe_operands(float *in)
{
    uint32_t s = 12345u;
    for (int i = 0; i < 4 * TEST_PROBE_N; ++i) {
        s = s * 1664525u + 1013904223u;
        float m = (float)((s >> 8) & 0xFFFFu) / 65536.0f + 0.5f;
        int e = (int)((s >> 24) % 24u) - 12;
        in[i] = ldexpf((s & 1u) ? -m : m, e);
    }
    const float awkward[] = {1.0f / 3.0f, 0.1f, 3.0f, 7.0f, 1e-3f, 1e3f, 0.7f, 1.1f};
    for (int i = 0; i < 8; ++i) in[4 * i + (i % 4)] = awkward[i];
}

/* 1 when every probe result equals the CPU's, 0 when one differs, -1 when the probe could not
 * run (gl must be current). */
static inline int test_gpu_rounds_as_ieee(void)
{
    float *in = malloc(sizeof(float) * 4 * TEST_PROBE_N),
          *out = malloc(sizeof(float) * 4 * TEST_PROBE_N);
    if (!in || !out) return free(in), free(out), -1;
    test_probe_operands(in);
    const char *src = test_probe_glsl;
    GLuint sh = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, sh);
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    GLuint buf[2];
    glGenBuffers(2, buf);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[0]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 4 * TEST_PROBE_N, in, GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[1]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 4 * TEST_PROBE_N, NULL, GL_STATIC_READ);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf[0]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    glUseProgram(prog);
    glDispatchCompute(TEST_PROBE_N / 64, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(float) * 4 * TEST_PROBE_N, out);
    glUseProgram(0);
    glDeleteBuffers(2, buf);
    glDeleteProgram(prog);
    glDeleteShader(sh);
    int result = linked && glGetError() == GL_NO_ERROR ? 1 : -1;
    for (int i = 0; result == 1 && i < TEST_PROBE_N; ++i) {
        const float *v = &in[4 * i];
        volatile float p = v[0] * v[1]; /* volatile: no contraction, whatever the flags */
        volatile float q = v[0] * v[0], w = v[3] * v[3];
        const float want[4] = {p + v[2], v[0] / v[1], sqrtf(fabsf(v[2])), q + w};
        if (memcmp(want, &out[4 * i], sizeof want) != 0) result = 0;
    }
    free(in);
    free(out);
    return result;
}

/* Whether the bitwise checks run (see the top of this file): measured once per process. */
static inline bool test_gpu_exact_on(boids_gl *gl)
{
    static int exact = -1;
    if (exact >= 0) return exact == 1;
    const char *force = getenv("BOIDS_TEST_EXACT");
    if (force && force[0]) {
        exact = strcmp(force, "0") != 0;
    } else {
        bool perturbed = false;
        exact = boids_gpu_numerics_perturbed(&perturbed) == BOIDS_OK && !perturbed &&
                boids_gl_make_current(gl) == BOIDS_OK && test_gpu_rounds_as_ieee() == 1;
    }
    return exact == 1;
}

#endif
