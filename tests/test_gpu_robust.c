/* The GPU backend where it can go wrong quietly: the check mode poisons new buffers and finds a
 * pass whose program has a block with no buffer behind it, or a buffer texture showing none; a
 * neighbourhood denser than a shader invocation may loop over (llvmpipe's limit, measured) is
 * reported, never returned as a state; the first step, which includes the drivers' compiling, is
 * never timed; several GPU worlds, each with its own context, stay apart, and destroying one leaves
 * the other working. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>

#include "core/rng.h"
#include "gl/context.h"
#include "gl/limits.h"
#include "gl/program.h"
#include "gpu/buffers.h"
#include "gpu/gpu_backend.h"
#include "gpu/loop_limit.h"
#include "world/world.h"
#include "test.h"

/* Runs first, before anything reads the environment (the mode is read once). */
static void test_check_mode(void)
{
    setenv("BOIDS_GPU_CHECKS", "1", 1);
    boids_gl_make_current(test_gpu_context());
    CHECK(boids_gpu_checks_on());
    /* A new buffer reads as the poison word, never as plausible zeros. */
    GLuint b = boids_gpu_buffer(GL_SHADER_STORAGE_BUFFER, 64);
    uint32_t words[16];
    boids_gpu_read(b, 0, sizeof words, words);
    int poisoned = 0;
    for (int i = 0; i < 16; ++i) poisoned += words[i] == BOIDS_GPU_POISON_WORD;
    CHECK_MSG(poisoned == 16, "%d of 16 words poisoned", poisoned);
    /* A dispatch whose program has a block without a buffer is found, named, and an error. */
    GLuint prog = 0;
    REQUIRE_OK(boids_program_compute("scatter.comp", 2, &prog));
    for (GLuint k = 0; k < 32; ++k) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, k, 0);
    glBindBufferBase(GL_UNIFORM_BUFFER, BOIDS_BIND_FRAME, 0);
    glUseProgram(prog);
    boids_gpu_check_bindings("a pass with nothing bound");
    glUseProgram(0);
    boids_status st = boids_gl_check("the test pass");
    CHECK_MSG(st == BOIDS_ERR_GL && strstr(boids_last_error(), "scatter.comp") &&
                  strstr(boids_last_error(), "has no buffer bound"),
              "%s", boids_last_error());
    printf("  found: %s\n", boids_last_error());
    CHECK(boids_gl_check("after taking it") == BOIDS_OK); /* reported once */
    glDeleteProgram(prog);
    /* A buffer texture that shows no buffer is found too; binding its block points it there. */
    const char *src = "#version 430\nlayout(local_size_x = 1) in;\n"
                      "layout(binding = 2) uniform usamplerBuffer swarms;\n"
                      "layout(std430, binding = 13) buffer Out { uint o[]; };\n"
                      "void main() { o[0] = texelFetch(swarms, 0).x; }\n";
    GLuint sh = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    prog = glCreateProgram();
    glAttachShader(prog, sh);
    glLinkProgram(prog);
    glDeleteShader(sh);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    CHECK_MSG(linked, "the texture pass's program links");
    if (!linked) return;
    glUseProgram(prog);
    boids_gpu_bind(13, b);
    glActiveTexture(GL_TEXTURE0 + BOIDS_TEX_SWARM_IN);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0);
    boids_gpu_check_bindings("a pass with its buffer texture unbound");
    st = boids_gl_check("the texture pass");
    CHECK_MSG(st == BOIDS_ERR_GL && strstr(boids_last_error(), "buffer texture swarms"), "%s",
              boids_last_error());
    printf("  found: %s\n", boids_last_error());
    boids_gpu_bind(BOIDS_BIND_SWARM_IN, b);
    boids_gpu_check_bindings("a pass with its buffer texture bound");
    CHECK_MSG(boids_gl_check("the texture pass, bound") == BOIDS_OK, "%s", boids_last_error());
    glUseProgram(0);
    glDeleteProgram(prog);
    boids_gpu_delete(&b, 1);
    /* A world binds every block of every pass: its steps, metrics and reads pass the checks. */
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 2000);
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        d.model = (boids_model)m;
        d.params = boids_model_default_params(d.model);
        boids_world *w;
        boids_metrics mt;
        REQUIRE_OK(boids_world_create(&d, &w));
        CHECK_MSG(boids_world_metrics(w, &mt, 1) == BOIDS_OK, "%s: %s", boids_model_name(d.model),
                  boids_last_error());
        CHECK_MSG(boids_world_step(w, 2) == BOIDS_OK, "%s: %s", boids_model_name(d.model),
                  boids_last_error());
        CHECK_MSG(boids_world_metrics(w, &mt, 1) == BOIDS_OK, "%s: %s", boids_model_name(d.model),
                  boids_last_error());
        boids_world_destroy(w);
    }
}

/* The loop limit is measured: either none, or llvmpipe's kind, a little below what the probe ran.
 */
static void test_loop_limit_measured(void)
{
    uint32_t limit = 0;
    REQUIRE_OK(boids_gpu_loop_limit(test_gpu_context(), &limit));
    printf("  %s: loop limit %u\n", boids_gl_renderer(test_gl), limit);
    CHECK(limit == UINT32_MAX || (limit > 1000 && limit < 64u * 16384u));
}

/* The first step of a world includes what drivers compile at a program's first dispatch: it is
 * never timed, so the profile cannot say a step took longer than the run. Later calls are. */
static void test_first_step_not_timed(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 1000);
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_step(w, 3));
    boids_world_finish(w);
    boids_profile p;
    boids_world_get_profile(w, &p);
    CHECK_MSG(p.samples[BOIDS_PASS_STEER] == 0, "the first call's %llu samples",
              (unsigned long long)p.samples[BOIDS_PASS_STEER]);
    for (int k = 0; k < 3; ++k) REQUIRE_OK(boids_world_step(w, 2));
    boids_world_finish(w);
    boids_world_get_profile(w, &p);
    CHECK_MSG(p.samples[BOIDS_PASS_STEER] == 3, "%llu samples of 3 later calls",
              (unsigned long long)p.samples[BOIDS_PASS_STEER]);
    boids_world_destroy(w);
}

static void test_loop_limit_reported(void)
{
    /* 600 boids on one spot, and a limit of 300 loop iterations per invocation (llvmpipe's real
     * one is about 65535; this reaches it with a small flock on any driver). */
    enum { N = 600 };
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, N);
    d.width = d.height = 400;
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_boid *b = malloc(sizeof *b * N), *out = malloc(sizeof *out * N);
    boids_rng rng = boids_rng_seeded(1);
    for (int i = 0; i < N; ++i)
        b[i] = (boids_boid){200 + boids_rng_float(&rng), 200 + boids_rng_float(&rng), 60, 0, 0};
    boids_gpu_backend_set_loop_limit(boids_world_backend(w), 300);
    REQUIRE_OK(boids_world_write(w, b, N));
    REQUIRE_OK(boids_world_step(w, 1)); /* recording commands cannot know yet */
    boids_status st = boids_world_read(w, out, N);
    CHECK_MSG(st == BOIDS_ERR_LIMIT, "status %d: %s", (int)st, boids_last_error());
    printf("  reported: %s\n", boids_last_error());
    /* Spread out again, with room: a new state clears the flag, and the run is right again. */
    for (int i = 0; i < N; ++i)
        b[i] = (boids_boid){boids_rng_float(&rng) * 400, boids_rng_float(&rng) * 400, 60, 0, 0};
    REQUIRE_OK(boids_world_write(w, b, N));
    REQUIRE_OK(boids_world_step(w, 1));
    CHECK(boids_world_read(w, out, N) == BOIDS_OK);
    free(b), free(out);
    boids_world_destroy(w);
}

static void step_and_compare(boids_world *gpu, boids_world *cpu, uint32_t n, const char *what)
{
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    CHECK(boids_world_step(gpu, 5) == BOIDS_OK);
    CHECK(boids_world_step(cpu, 5) == BOIDS_OK);
    CHECK_MSG(boids_world_read(gpu, a, n) == BOIDS_OK, "%s: %s", what, boids_last_error());
    CHECK(boids_world_read(cpu, b, n) == BOIDS_OK);
    double max_dv = 0;
    for (uint32_t i = 0; i < n; ++i)
        max_dv = fmax(max_dv, hypot(a[i].vx - b[i].vx, a[i].vy - b[i].vy));
    CHECK_MSG(max_dv <= 1e-3, "%s: max |dv| %g vs the CPU", what, max_dv);
    free(a), free(b);
}

static void test_worlds_with_own_contexts(void)
{
    test_gpu_context(); /* skip where there is no GL at all */
    boids_world_def d = boids_default_world_def();
    boids_world *ga, *gb, *ca, *cb;
    d.count = 1000;
    d.seed = 1;
    REQUIRE_OK(boids_world_create(&d, &ga)); /* its own headless context */
    d.backend = BOIDS_BACKEND_CPU;
    REQUIRE_OK(boids_world_create(&d, &ca));
    d.backend = BOIDS_BACKEND_GPU;
    d.count = 1500;
    d.seed = 2;
    REQUIRE_OK(boids_world_create(&d, &gb)); /* another one */
    d.backend = BOIDS_BACKEND_CPU;
    REQUIRE_OK(boids_world_create(&d, &cb));
    step_and_compare(ga, ca, 1000, "world A");
    step_and_compare(gb, cb, 1500, "world B");
    step_and_compare(ga, ca, 1000, "world A again");
    boids_world_destroy(ga);
    step_and_compare(gb, cb, 1500, "world B after A is gone");
    boids_world_destroy(gb);
    boids_world_destroy(ca);
    boids_world_destroy(cb);
}

TEST_MAIN(TEST(test_check_mode), TEST(test_loop_limit_measured), TEST(test_first_step_not_timed),
          TEST(test_loop_limit_reported), TEST(test_worlds_with_own_contexts))
