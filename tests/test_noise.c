/* The rules' noise (src/rules/common.h) gives the GPU the CPU's bits: draw k of boid id in a step
 * of a world is a function of (its replica's seed, step, its place in the replica, k) alone,
 * computed in integers and made a float exactly, so it is equal on every driver, real GPUs
 * included. shaders/rules_probe.comp evaluates it for many ids, seeds, steps and draws; the CPU's
 * lanes the same. (test_simd checks the CPU's noise itself: uniform, and another number for another
 * seed, step, boid or draw.) */
#include <string.h>

#include "boids_shared.h"
#include "gl/context.h"
#include "gl/program.h"
#include "gpu/buffers.h"
#include "rules/common.h"
#include "test.h"

enum { N = 4096 };

/* The CPU's draws, lane by lane, of the ids [0, N) in replicas of `per` boids. */
static void cpu_noise(uint64_t seed, uint32_t per, uint32_t step, uint32_t k, float *out)
{
    const boids_rules_ctx c = {.seed = (uint32_t)seed,
                               .seed_hi = (uint32_t)(seed >> 32),
                               .step = step,
                               .per_replica = per},
                          *ctx = &c;
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
    boids_gpu_bind(BOIDS_BIND_PROBE_RESULT, result);
    /* the blocks every pass declares (common.glsl), which the probe does not read */
    const GLuint bindings[3] = {BOIDS_BIND_REPORT, BOIDS_BIND_ATTRIBUTES, BOIDS_BIND_REPLICAS};
    for (int i = 0; i < 3; ++i) {
        others[i] = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, 256);
        boids_gpu_bind(bindings[i], others[i]);
    }
    static float gpu[N], cpu[N];
    /* 64-bit seeds too, one whose replicas carry into the high half; one replica of all the
     * ids, and replicas of 1000 */
    const uint64_t seeds[] = {1, 7, 0xDEADBEEFu, 0x00000003FFFFFFFEull};
    const uint32_t steps[] = {0, 1, 600, 123456789u}, ks[] = {0, 3}, pers[] = {N, 1000};
    int cases = 0, differ = 0;
    for (size_t a = 0; a < sizeof seeds / sizeof seeds[0]; ++a)
        for (size_t b = 0; b < sizeof steps / sizeof steps[0]; ++b)
            for (size_t c = 0; c < sizeof ks / sizeof ks[0] * 2; ++c) {
                const uint32_t per = pers[c / 2], k = ks[c % 2];
                boids_gpu_frame f;
                memset(&f, 0, sizeof f);
                f.seed = (uint32_t)seeds[a], f.seed_hi = (uint32_t)(seeds[a] >> 32);
                f.per_replica = per;
                boids_gpu_write(frame, 0, sizeof f, &f);
                glUniform1ui(glGetUniformLocation(prog, "u_step"), steps[b]);
                glUniform1ui(glGetUniformLocation(prog, "u_count"), N);
                glUniform1ui(glGetUniformLocation(prog, "u_k"), k);
                boids_gpu_dispatch("rules probe", boids_gpu_groups(N, 64));
                boids_gpu_barrier();
                boids_gpu_read(result, 0, sizeof gpu, gpu);
                cpu_noise(seeds[a], per, steps[b], k, cpu);
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

/* Replica r of a world seeded S draws what a world of its own seeded S + r draws (its boids
 * numbered from 0), so an experiment's run is the same alone or in any batch of replicas; the
 * 64-bit sum's carry into the high half included. */
static void test_a_replica_draws_as_its_own_world(void)
{
    static float batch[N], alone[N];
    const uint64_t seeds[] = {5, 0x00000003FFFFFFFEull, 0xFFFFFFFFFFFFFFF0ull};
    const uint32_t per = 1024;
    int differ = 0, same_as_replica0 = 0;
    for (size_t a = 0; a < sizeof seeds / sizeof seeds[0]; ++a) {
        cpu_noise(seeds[a], per, 42, 1, batch);
        for (uint32_t r = 0; r < N / per; ++r) {
            cpu_noise(seeds[a] + r, N, 42, 1, alone);
            for (uint32_t i = 0; i < per; ++i) {
                differ += memcmp(&batch[r * per + i], &alone[i], sizeof alone[i]) != 0;
                same_as_replica0 += r > 0 && batch[r * per + i] == batch[i];
            }
        }
    }
    printf("  replicas of 1024 against worlds of their own: %d of %d draws differ, %d equal "
           "replica 0's\n",
           differ, N * 3, same_as_replica0);
    CHECK(differ == 0);
    CHECK(same_as_replica0 < N / 100); /* another seed, other draws */
}

TEST_MAIN(TEST(test_noise_gpu_equals_cpu), TEST(test_a_replica_draws_as_its_own_world))
