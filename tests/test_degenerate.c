/* Degenerate states on both backends: no boids, one boid, every boid on one point, zero
 * velocities. Nothing crashes, no NaN enters the state, and the documented choices hold. */
#include "core/rng.h"
#include "gpu_exact.h"
#include "test.h"

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};
static const char *const names[2] = {"cpu", "gpu"};

static void test_no_boids(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 0);
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 10));
        REQUIRE_OK(boids_world_read(w, NULL, 0));
        boids_world_info info;
        boids_world_get_info(w, &info);
        CHECK(info.count == 0 && info.width > 0 && info.height > 0);
        boids_world_destroy(w);
    }
}

static void test_one_boid(void)
{
    /* Alone, a boid feels no force: it keeps its velocity and moves v dt per step, wrapping. */
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 1);
        d.width = 400;
        d.height = 300;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        boids_boid b = {390, 10, 120, -60, 0};
        REQUIRE_OK(boids_world_write(w, &b, 1));
        REQUIRE_OK(boids_world_step(w, 60));
        boids_boid out;
        REQUIRE_OK(boids_world_read(w, &out, 1));
        CHECK_MSG(out.vx == 120 && out.vy == -60, "%s: velocity changed to (%g, %g)", names[k],
                  (double)out.vx, (double)out.vy);
        /* 60 steps of 1/60 s: (390 + 120, 10 - 60) wrapped = (110, 250), to float rounding. */
        CHECK_MSG(fabsf(out.x - 110) < 1e-2f && fabsf(out.y - 250) < 1e-2f, "%s: at (%g, %g)",
                  names[k], (double)out.x, (double)out.y);
        boids_world_destroy(w);
    }
}

static void test_all_on_one_point(void)
{
    /* Coincident boids have no direction between them: they are ignored as neighbours (Shiffman's
     * d > 0), so each keeps its own velocity, and the clump spreads out along them. */
    enum { N = 500 };
    boids_boid init[N], out[2][N];
    boids_rng rng = boids_rng_seeded(4);
    for (int i = 0; i < N; ++i) {
        float a = boids_rng_float(&rng) * 6.2831853f;
        init[i] = (boids_boid){100, 100, 100 * cosf(a), 100 * sinf(a), (uint32_t)(i % 2)};
    }
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], N);
        d.swarms = 2;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, init, N));
        REQUIRE_OK(boids_world_step(w, 1));
        REQUIRE_OK(boids_world_read(w, out[k], N));
        CHECK_MSG(test_state_finite(out[k], N), "%s: NaN after one step", names[k]);
        int kept = 1;
        for (int i = 0; i < N; ++i)
            kept &= out[k][i].vx == init[i].vx && out[k][i].vy == init[i].vy;
        CHECK_MSG(kept, "%s: coincident boids changed velocity", names[k]);
        REQUIRE_OK(boids_world_step(w, 30));
        REQUIRE_OK(boids_world_read(w, out[k], N));
        CHECK_MSG(test_state_finite(out[k], N), "%s: NaN after 31 steps", names[k]);
        boids_world_destroy(w);
    }
    CHECK(memcmp(out[0], out[1], sizeof out[0]) == 0 || !test_gpu_exact_on(test_gl));
}

static void test_zero_velocities(void)
{
    /* Zero velocities: alignment's mean velocity is zero (desired = 0, no NaN), cohesion pulls;
     * the flock starts moving. A boid with v = 0 and no neighbours has no direction to be
     * raised to v_min along: it stays put, finite. */
    enum { N = 2000 };
    boids_boid *init = malloc(sizeof *init * N), *out = malloc(sizeof *out * N);
    boids_rng rng = boids_rng_seeded(8);
    for (int i = 0; i < N; ++i)
        init[i] = (boids_boid){boids_rng_float(&rng) * 1000, boids_rng_float(&rng) * 600, 0, 0, 0};
    init[0] = (boids_boid){500, 300, 0, 0, 0};
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], N);
        d.width = 1000;
        d.height = 600;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        /* Boid 0 isolated: move the others out of its radius. */
        for (int i = 1; i < N; ++i)
            if (fabsf(init[i].x - 500) < 60 && fabsf(init[i].y - 300) < 60) init[i].x = 100;
        REQUIRE_OK(boids_world_write(w, init, N));
        REQUIRE_OK(boids_world_step(w, 20));
        REQUIRE_OK(boids_world_read(w, out, N));
        CHECK_MSG(test_state_finite(out, N), "%s: NaN", names[k]);
        CHECK(out[0].vx == 0 && out[0].vy == 0 && out[0].x == 500 && out[0].y == 300);
        int moving = 0;
        for (int i = 1; i < N; ++i) moving += out[i].vx != 0 || out[i].vy != 0;
        CHECK_MSG(moving > N / 2, "%s: only %d boids moving", names[k], moving);
        boids_world_destroy(w);
    }
    free(init), free(out);
}

static void test_bad_states_rejected(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 2);
    d.width = 100;
    d.height = 100;
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_boid b[2] = {{10, 10, 1, 1, 0}, {20, 20, 1, 1, 0}};
    b[1].vx = NAN;
    CHECK(boids_world_write(w, b, 2) == BOIDS_ERR_INVALID);
    b[1].vx = 1;
    b[1].x = 100; /* the world is [0, 100) */
    CHECK(boids_world_write(w, b, 2) == BOIDS_ERR_INVALID);
    CHECK(strstr(boids_last_error(), "boid 1") != NULL);
    b[1].x = 20;
    b[1].swarm = 1; /* swarms = 1 */
    CHECK(boids_world_write(w, b, 2) == BOIDS_ERR_INVALID);
    CHECK(boids_world_write(w, b, 1) == BOIDS_ERR_INVALID);
    b[1].swarm = 0;
    CHECK(boids_world_write(w, b, 2) == BOIDS_OK);
    boids_world_destroy(w);

    d.params.base.min_speed = 500; /* above max_speed */
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && w == NULL);
    d = test_def(BOIDS_BACKEND_CPU, 10);
    d.dt = 0;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID);
    d.dt = 1.0f / 60;
    d.width = 2;
    d.height = 2; /* a step of 3 px would cross the world */
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID);
    d.width = d.height = 0;
    d.cell_size = 10; /* below the 50 px radius */
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID);
}

TEST_MAIN(TEST(test_no_boids), TEST(test_one_boid), TEST(test_all_on_one_point),
          TEST(test_zero_velocities), TEST(test_bad_states_rejected))
