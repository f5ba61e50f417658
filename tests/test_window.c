/* The GLFW window path of the context interface: a GPU world created on a window's context
 * (under xvfb-run in CI) steps like the CPU reference (one step within test_agreement's tolerance;
 * 20 steps bit for bit where the GPU rounds as IEEE does), so the viewer can draw from the same
 * state buffer later. Skips (77) when no window can be opened, unless BOIDS_REQUIRE_GPU=1. */
#include "gpu_exact.h"
#include "test.h"

/* The largest difference of velocity between two states, px/s. */
static double max_dv(const boids_boid *a, const boids_boid *b, uint32_t n)
{
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i)
        worst = fmax(worst, hypot((double)a[i].vx - b[i].vx, (double)a[i].vy - b[i].vy));
    return worst;
}

static void test_world_on_window_context(void)
{
    boids_gl *gl;
    if (boids_gl_create_window(320, 200, "boids test", false, &gl) != BOIDS_OK) {
        const char *req = getenv("BOIDS_REQUIRE_GPU");
        if (req && strcmp(req, "1") == 0) {
            CHECK_MSG(0, "no window context: %s", boids_last_error());
            return;
        }
        printf("SKIP: %s\n", boids_last_error());
        exit(77);
    }
    printf("  window renderer: %s\n", boids_gl_renderer(gl));
    CHECK(boids_gl_window(gl) != NULL);
    boids_world_def d = boids_default_world_def();
    d.count = 3000;
    d.swarms = 2;
    d.gl = gl;
    boids_world *gw, *cw;
    REQUIRE_OK(boids_world_create(&d, &gw));
    d.backend = BOIDS_BACKEND_CPU;
    d.gl = NULL;
    REQUIRE_OK(boids_world_create(&d, &cw));
    boids_boid *a = malloc(sizeof *a * d.count), *b = malloc(sizeof *b * d.count);
    REQUIRE_OK(boids_world_step(gw, 1));
    REQUIRE_OK(boids_world_step(cw, 1));
    REQUIRE_OK(boids_world_read(gw, a, d.count));
    REQUIRE_OK(boids_world_read(cw, b, d.count));
    printf("  1 step on the window's context: max |dv| vs CPU %.3g px/s\n", max_dv(a, b, d.count));
    CHECK(max_dv(a, b, d.count) <= 1e-3); /* test_agreement's tolerance of one step */
    REQUIRE_OK(boids_world_step(gw, 19));
    REQUIRE_OK(boids_world_step(cw, 19));
    REQUIRE_OK(boids_world_read(gw, a, d.count));
    REQUIRE_OK(boids_world_read(cw, b, d.count));
    printf("  20 steps: max |dv| vs CPU %.3g px/s\n", max_dv(a, b, d.count));
    if (test_gpu_exact_on(gl)) CHECK(memcmp(a, b, sizeof *a * d.count) == 0);
    CHECK(test_state_finite(a, d.count));
    free(a), free(b);
    boids_world_destroy(gw);
    boids_world_destroy(cw);
    boids_gl_destroy(gl);
}

TEST_MAIN(TEST(test_world_on_window_context))
