/* The CPU's two walks of a lane group give the same bits: AVX-512's (cpu/walk_avx512.c, taken
 * where the processor has it) and the vector extensions' (walk_reynolds.c's walk_lanes, every
 * other processor's, and the sanitizers' build's). Each world steps from the same start once with
 * each walk, and the states must be equal, boid by boid and bit for bit: the Reynolds walk's
 * cases (one flock or several swarms, 1/d^2 separation or the raw offsets, groups on the world's
 * seam and off it, a torus and Processing's borders, flat and 3D), and Adams' box, which walks
 * walk_lanes either way. Skips where the build or the processor has no AVX-512 walk. */
#include <stdlib.h>
#include <string.h>

#include "cpu/walk_avx512.h"
#include "test.h"

typedef struct walk_case {
    const char *model;
    uint32_t count, swarms;
    float depth; /* > 0: a 3D cube of the default size */
    uint32_t steps;
} walk_case;

/* The world of case c after its steps, read into out (c->count boids). */
static void run(const walk_case *c, boids_boid *out)
{
    boids_world_def d = boids_default_world_def();
    REQUIRE_OK(boids_model_from_name(c->model, &d.model));
    d.params = boids_model_default_params(d.model);
    d.backend = BOIDS_BACKEND_CPU;
    d.count = c->count;
    d.swarms = c->swarms;
    d.depth = c->depth;
    d.seed = 7;
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_step(w, c->steps));
    REQUIRE_OK(boids_world_read(w, out, c->count));
    boids_world_destroy(w);
}

static void test_same_bits(void)
{
#if BOIDS_WALK_AVX512
    if (!boids_cpu_has_avx512()) {
        printf("SKIP: this processor has no AVX-512\n");
        exit(77);
    }
    const uint32_t steps = test_sanitized() ? 10 : 60;
    const walk_case cases[] = {
        {"shiffman-per-second", 6000, 1, 0.0f, steps}, /* one flock, 1/d^2 */
        {"shiffman-per-second", 400, 1, 0.0f, steps},  /* a small torus: most groups on seams */
        {"shiffman-per-second", 4000, 3, 0.0f, steps}, /* swarms */
        {"shiffman-per-second", 3000, 1, 1.0f, steps}, /* 3D */
        {"shiffman-per-second", 3000, 2, 1.0f, steps}, /* 3D swarms */
        {"shiffman-processing", 3000, 1, 0.0f, steps}, /* Processing's borders */
        {"hybrid", 4000, 1, 0.0f, steps},              /* the raw offsets */
        {"hybrid", 3000, 2, 1.0f, steps},              /* ... in 3D, swarms */
        {"priority", 4000, 1, 0.0f, steps},            /* one radius for two rules */
        {"adams", 3000, 2, 0.0f, steps},               /* walk_lanes both ways */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const walk_case *c = &cases[i];
        boids_boid *a = calloc(c->count, sizeof *a), *b = calloc(c->count, sizeof *b);
        boids_cpu_walk_avx512_on = true;
        run(c, a);
        boids_cpu_walk_avx512_on = false;
        run(c, b);
        boids_cpu_walk_avx512_on = true;
        uint32_t differ = 0, first = c->count;
        for (uint32_t k = 0; k < c->count; ++k)
            if (memcmp(&a[k], &b[k], sizeof a[k]) != 0) first = differ++ ? first : k;
        printf("  %s, %u boids, %u swarms, %s, %u steps: %u boids differ\n", c->model, c->count,
               c->swarms, c->depth > 0.0f ? "3D" : "flat", c->steps, differ);
        CHECK_MSG(differ == 0,
                  "%s (%u boids, %u swarms, %s): %u boids differ between the walks, the first "
                  "%u: (%.9g, %.9g) against (%.9g, %.9g)",
                  c->model, c->count, c->swarms, c->depth > 0.0f ? "3D" : "flat", differ, first,
                  first < c->count ? a[first].x : 0.0f, first < c->count ? a[first].y : 0.0f,
                  first < c->count ? b[first].x : 0.0f, first < c->count ? b[first].y : 0.0f);
        free(a), free(b);
    }
#else
    printf("SKIP: this build has no AVX-512 walk\n");
    exit(77);
#endif
}

TEST_MAIN(TEST(test_same_bits))
