/* boids_gl_bitwise (boids.h): whether a GPU world on a context steps bit for bit as the CPU backend
 * does. That holds on a driver that rounds every operation as IEEE 754 does and never contracts
 * a * b + c into a fused multiply-add: the steering then does, operation for operation, what the
 * CPU (built with -ffp-contract=off) does. Real GPUs contract and approximate division and square
 * roots. Which kind of driver it is, is measured, never read from the renderer's name: a compute
 * shader evaluates products plus sums, quotients, square roots and sums of squares on a few
 * thousand random and awkward operands, every result against the CPU's. The emulated GPU numerics
 * (BOIDS_GPU_NUMERICS=perturbed) round as a real GPU might: never bitwise under them. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gl/bitwise.h"

#include "base/error.h"
#include "gl/context.h"
#include "gl/gl.h"
#include "gl/program.h"

#define PROBE_N 4096

static const char probe_glsl[] =
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
static void probe_operands(float *in)
{
    uint32_t s = 12345u;
    for (int i = 0; i < 4 * PROBE_N; ++i) {
        s = s * 1664525u + 1013904223u;
        float m = (float)((s >> 8) & 0xFFFFu) / 65536.0f + 0.5f;
        int e = (int)((s >> 24) % 24u) - 12;
        in[i] = ldexpf((s & 1u) ? -m : m, e);
    }
    const float awkward[] = {1.0f / 3.0f, 0.1f, 3.0f, 7.0f, 1e-3f, 1e3f, 0.7f, 1.1f};
    for (int i = 0; i < 8; ++i) in[4 * i + (i % 4)] = awkward[i];
}

/* The probe's results into out (gl current); whether it ran. */
static bool probe_run(const float *in, float *out)
{
    const char *src = probe_glsl;
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
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 4 * PROBE_N, in, GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf[1]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof(float) * 4 * PROBE_N, NULL, GL_STATIC_READ);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf[0]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buf[1]);
    glUseProgram(prog);
    glDispatchCompute(PROBE_N / 64, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof(float) * 4 * PROBE_N, out);
    glUseProgram(0);
    glDeleteBuffers(2, buf);
    glDeleteProgram(prog);
    glDeleteShader(sh);
    return linked && glGetError() == GL_NO_ERROR;
}

boids_status boids_gl_bitwise(boids_gl *gl, bool *out)
{
    BOIDS_REQUIRE(gl, "gl");
    BOIDS_REQUIRE(out, "out");
    *out = false;
    bool perturbed = false;
    boids_status st = boids_gpu_numerics_perturbed(&perturbed);
    if (st != BOIDS_OK || perturbed) return st;
    return boids_gl_rounds_as_ieee(gl, out);
}

boids_status boids_gl_rounds_as_ieee(boids_gl *gl, bool *out)
{
    BOIDS_REQUIRE(gl, "gl");
    BOIDS_REQUIRE(out, "out");
    *out = false;
    boids_status st = boids_gl_make_current(gl);
    if (st != BOIDS_OK) return st;
    float *in = malloc(sizeof(float) * 4 * PROBE_N), *res = malloc(sizeof(float) * 4 * PROBE_N);
    if (!in || !res) {
        free(in), free(res);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the rounding probe");
    }
    probe_operands(in);
    if (!probe_run(in, res)) {
        free(in), free(res);
        return boids_fail(BOIDS_E_GL, "the rounding probe's compute shader did not run");
    }
    bool same = true;
    for (int i = 0; same && i < PROBE_N; ++i) {
        const float *v = &in[4 * i];
        volatile float p = v[0] * v[1]; /* volatile: no contraction, whatever the flags */
        volatile float q = v[0] * v[0], w = v[3] * v[3];
        const float want[4] = {p + v[2], v[0] / v[1], sqrtf(fabsf(v[2])), q + w};
        same = memcmp(want, &res[4 * i], sizeof want) == 0;
    }
    free(in), free(res);
    *out = same;
    return BOIDS_OK;
}
