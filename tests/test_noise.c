/* The rules' noise (src/rules/common.h) gives the GPU the CPU's bits: draw k of boid id in a step
 * of a world is a function of (seed, step, id, k) alone, computed in integers and made a float
 * exactly, so it is equal on every driver, real GPUs included. shaders/rules_probe.comp
 * evaluates it for many ids, seeds, steps and draws; the CPU's lanes the same. (test_simd checks
 * the CPU's noise itself: uniform, and another number for another seed, step, boid or draw.) */
#include <string.h>

#include "boids_shared.h"
#include "gpu/buffers.h"
#include "gpu/program.h"
#include "rules/common.h"
#include "test.h"

enum { N = 4096 };

/* The CPU's draws, lane by lane. */
static void cpu_noise(uint32_t seed, uint32_t step, uint32_t k, float *out)
{
    const boids_rules_ctx c = {.seed = seed, .step = step}, *ctx = &c;
    for (uint32_t i = 0; i < N; i += BOIDS_LANES) {
        boids_vu id;
        for (int l = 0; l < BOIDS_LANES; ++l) id[l] = i + (uint32_t)l;
        const boids_vf r = noise(ctx, id, boids_vu_all(k));
        for (int l = 0; l < BOIDS_LANES; ++l) out[i + (uint32_t)l] = r[l];
    }
}

static void test_noise_gpu_equals_cpu(void)
{
    test_gpu_context();
    GLuint prog, frame, result, others[3];
    REQUIRE_OK(boids_program_compute("rules_probe.comp", 2, &prog));
    frame = boids_gpu_buffer(GL_UNIFORM_BUFFER, sizeof(boids_gpu_frame));
    result = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, sizeof(float) * N);
    glUseProgram(prog);
    glBindBufferBase(GL_UNIFORM_BUFFER, BOIDS_BIND_FRAME, frame);
    boids_gpu_bind(BOIDS_BIND_SCAN_OUT, result);
    /* the blocks every pass declares (common.glsl), which the probe does not read */
    const GLuint bindings[3] = {BOIDS_BIND_REPORT, BOIDS_BIND_ATTRIBUTES, BOIDS_BIND_REPLICAS};
    for (int i = 0; i < 3; ++i) {
        others[i] = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, 256);
        boids_gpu_bind(bindings[i], others[i]);
    }
    static float gpu[N], cpu[N];
    const uint32_t seeds[] = {1, 7, 0xDEADBEEFu}, steps[] = {0, 1, 600, 123456789u}, ks[] = {0, 3};
    int cases = 0, differ = 0;
    for (size_t a = 0; a < sizeof seeds / sizeof seeds[0]; ++a)
        for (size_t b = 0; b < sizeof steps / sizeof steps[0]; ++b)
            for (size_t c = 0; c < sizeof ks / sizeof ks[0]; ++c) {
                boids_gpu_frame f;
                memset(&f, 0, sizeof f);
                f.seed = seeds[a];
                boids_gpu_write(frame, 0, sizeof f, &f);
                glUniform1ui(glGetUniformLocation(prog, "u_step"), steps[b]);
                glUniform1ui(glGetUniformLocation(prog, "u_count"), N);
                glUniform1ui(glGetUniformLocation(prog, "u_k"), ks[c]);
                boids_gpu_dispatch("rules probe", boids_gpu_groups(N, 64));
                boids_gpu_barrier();
                boids_gpu_read(result, 0, sizeof gpu, gpu);
                cpu_noise(seeds[a], steps[b], ks[c], cpu);
                for (int i = 0; i < N; ++i) differ += memcmp(&gpu[i], &cpu[i], sizeof gpu[i]) != 0;
                cases += N;
            }
    REQUIRE_OK(boids_gl_check("the rules probe"));
    printf("  %d draws on the GPU against the CPU's lanes: %d differ\n", cases, differ);
    CHECK(cases > 0 && differ == 0);
    glUseProgram(0);
    glDeleteProgram(prog);
    boids_gpu_delete(&frame, 1);
    boids_gpu_delete(&result, 1);
    boids_gpu_delete(others, 3);
}

TEST_MAIN(TEST(test_noise_gpu_equals_cpu))
