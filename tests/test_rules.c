/* shiffman-per-second against the paper's formulas (docs/models.md (shiffman-per-second)), not just
 * GPU against CPU: its oracle (src/models/shiffman/oracle.c: §3 in double precision, brute force
 * over all pairs) for small flocks on both backends, the mouse tool's field among them (every
 * model's oracle: test_dims); and hand-worked cases
 * pin each rule: separation across swarms, alignment and cohesion within a swarm, 1/d weighting,
 * per-behaviour truncation with no total clamp, v_max and v_min. */
#include "core/rng.h"
#include "models/oracle.h"
#include "test.h"

/* The mouse tool's field, kind NONE unless a test sets it. */
static boids_tool oracle_tool;

/* Steps `in` once on a backend; returns the worst velocity error against the oracle. */
static double worst_vs_oracle(boids_backend backend, const boids_boid *in, uint32_t n,
                              uint32_t swarms, float W, float H, const boids_params *p,
                              boids_boid *out)
{
    boids_world_def d = test_def(backend, n);
    d.swarms = swarms;
    d.width = W;
    d.height = H;
    d.params = *p;
    boids_world *w;
    if (boids_world_create(&d, &w) != BOIDS_OK || boids_world_write(w, in, n) != BOIDS_OK ||
        boids_world_set_tool(w, &oracle_tool) != BOIDS_OK || boids_world_step(w, 1) != BOIDS_OK ||
        boids_world_read(w, out, n) != BOIDS_OK) {
        CHECK_MSG(0, "%s", boids_last_error());
        return 1e30;
    }
    boids_world_destroy(w);
    /* the oracle: shiffman's (src/models/shiffman/oracle.c) */
    const boids_oracle *o = boids_oracle_of(d.model);
    if (!o) {
        CHECK_MSG(0, "no oracle for %s", boids_model_name(d.model));
        return 1e30;
    }
    const boids_oracle_world ow = {.model = d.model,
                                   .params = p,
                                   .width = W,
                                   .height = H,
                                   .dt = d.dt,
                                   .boids = in,
                                   .count = n,
                                   .tool = &oracle_tool};
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i) {
        boids_boid e = o->step(&ow, i, NULL);
        worst = fmax(worst, hypot((double)out[i].vx - e.vx, (double)out[i].vy - e.vy));
        worst = fmax(worst, hypot((double)out[i].x - e.x, (double)out[i].y - e.y) * 60.0);
    }
    return worst;
}

static void check_both(const boids_boid *in, uint32_t n, uint32_t swarms, float W, float H,
                       const boids_params *p, const char *what, boids_boid *out_cpu)
{
    boids_boid *out = malloc(sizeof *out * n);
    for (int k = 0; k < 2; ++k) {
        boids_backend be = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        double worst = worst_vs_oracle(be, in, n, swarms, W, H, p, k ? out : out_cpu);
        printf("  %-34s %s: worst error vs the formulas %.2g px/s\n", what, k ? "gpu" : "cpu",
               worst);
        CHECK_MSG(worst < 1e-2, "%s (%s): %g px/s off the formulas", what, k ? "gpu" : "cpu",
                  worst);
    }
    free(out);
}

static void test_random_flocks_match_formulas(void)
{
    /* Small dense flocks (every behaviour active, truncations hit), across the wrap, 1 to 3
     * swarms, random speeds from 0 to beyond v_max (the written state may be faster). */
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    for (uint32_t swarms = 1; swarms <= 3; ++swarms) {
        enum { N = 60 };
        boids_boid in[N], out[N];
        boids_rng rng = boids_rng_seeded(100 + swarms);
        for (uint32_t i = 0; i < N; ++i) {
            float a = boids_rng_float(&rng) * 6.2831853f, sp = boids_rng_float(&rng) * 250.0f;
            in[i] = (boids_boid){boids_rng_float(&rng) * 160.0f, boids_rng_float(&rng) * 120.0f,
                                 sp * cosf(a), sp * sinf(a), i % swarms};
        }
        char what[64];
        snprintf(what, sizeof what, "60 boids, %u swarm%s", swarms, swarms > 1 ? "s" : "");
        check_both(in, N, swarms, 160, 120, &p, what, out);
    }
    /* Other weights and radii: the parameters are read, not assumed. */
    p.reynolds.sep_weight = 0.3f;
    p.reynolds.align_weight = 2.5f;
    p.reynolds.cohesion_weight = 0.7f;
    p.reynolds.sep_radius = 40;
    p.reynolds.align_radius = 30;
    p.reynolds.max_force = 90;
    boids_boid in[40], out[40];
    boids_rng rng = boids_rng_seeded(7);
    for (uint32_t i = 0; i < 40; ++i)
        in[i] = (boids_boid){boids_rng_float(&rng) * 150.0f, boids_rng_float(&rng) * 150.0f,
                             boids_rng_float(&rng) * 200.0f - 100.0f,
                             boids_rng_float(&rng) * 200.0f - 100.0f, i % 2};
    check_both(in, 40, 2, 150, 150, &p, "40 boids, other parameters", out);
}

static void test_swarm_rules(void)
{
    /* Two boids 10 px apart, one per swarm: separation acts (it counts every swarm), alignment
     * and cohesion do not. Worked by hand for boid 0 (at rest on the left): s = (-10, 0)/100, so
     * desired = (-180, 0), truncated steer (-180, 0), F = 1.5 * that, v' = F dt = (-4.5, 0),
     * then raised to v_min = 54 along -x. */
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    boids_boid in[2] = {{100, 100, 0.001f, 0, 0}, {110, 100, 0, 120, 1}}, out[2];
    check_both(in, 2, 2, 400, 400, &p, "pair in two swarms", out);
    CHECK_MSG(fabsf(out[0].vx + 54.0f) < 1e-3f && fabsf(out[0].vy) < 1e-3f, "v = (%g, %g)",
              (double)out[0].vx, (double)out[0].vy);
    /* In one swarm, alignment (towards (0, 120)) and cohesion (towards +x) join in: different. */
    in[1].swarm = 0;
    boids_boid same[2];
    check_both(in, 2, 1, 400, 400, &p, "pair in one swarm", same);
    CHECK(fabsf(same[0].vy) > 1.0f);
}

static void test_separation_weights_by_inverse_distance(void)
{
    /* Boid 0 between a neighbour 5 px to its right and one 20 px to its left (other swarm: only
     * separation acts). With 1/d weighting the nearer one wins and boid 0 is pushed left; raw
     * differences (Adams) would push it right, equal weights would cancel. */
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    boids_boid in[3] = {{200, 200, 0, 60, 0}, {205, 200, 0, 0, 1}, {180, 200, 0, 0, 1}}, out[3];
    check_both(in, 3, 2, 400, 400, &p, "1/d separation", out);
    CHECK_MSG(out[0].vx < -1.0f, "vx %g: not pushed away from the nearer neighbour",
              (double)out[0].vx);
}

static void test_truncation_and_speed_limits(void)
{
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    /* No total clamp: with separation weighted 0, a neighbour 30 px to the right moving right
     * makes alignment and cohesion both ask for +x at full force, each truncated to f_max = 180
     * alone, so F = 2 * 180 = 360 px/s^2 and v' = 0.001 + 360/60 = 6.001 px/s (then v_min). */
    p.reynolds.sep_weight = 0;
    boids_boid in[2] = {{100, 100, 0.001f, 0, 0}, {130, 100, 180, 0, 0}}, out[2];
    check_both(in, 2, 1, 400, 400, &p, "alignment + cohesion agree", out);
    /* v' = (0.001 + 360/60, 0) = 6.001 px/s, raised to v_min 54 */
    CHECK_MSG(fabsf(out[0].vx - 54.0f) < 1e-3f, "vx %g", (double)out[0].vx);
    p.base.min_speed = 0;
    check_both(in, 2, 1, 400, 400, &p, "same, v_min 0", out);
    CHECK_MSG(fabsf(out[0].vx - (0.001f + 6.0f)) < 1e-3f, "vx %g: total force is not 2 f_max",
              (double)out[0].vx);

    /* v_max: a lone boid at 500 px/s is truncated to 180; at 10 px/s raised to 54; at 0 stays. */
    p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    boids_boid lone[3] = {{50, 50, 300, 400, 0}, {250, 250, 6, 8, 0}, {150, 350, 0, 0, 0}}, o3[3];
    check_both(lone, 3, 1, 400, 400, &p, "speed limits", o3);
    CHECK(fabsf(o3[0].vx - 108.0f) < 1e-3f && fabsf(o3[0].vy - 144.0f) < 1e-3f);
    CHECK(fabsf(o3[1].vx - 32.4f) < 1e-3f && fabsf(o3[1].vy - 43.2f) < 1e-3f);
    CHECK(o3[2].vx == 0 && o3[2].vy == 0);
}

static void test_mouse_tool(void)
{
    /* The viewer's attract and repel field, on both backends, against the oracle: a flock around
     * the tool, which sits near a corner so the field reaches across the wrap. */
    boids_params p = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    enum { N = 50 };
    boids_boid in[N], out[N], none[N];
    boids_rng rng = boids_rng_seeded(77);
    for (uint32_t i = 0; i < N; ++i)
        in[i] = (boids_boid){boids_rng_float(&rng) * 300.0f, boids_rng_float(&rng) * 300.0f,
                             boids_rng_float(&rng) * 100.0f - 50.0f,
                             boids_rng_float(&rng) * 100.0f - 50.0f, 0};
    oracle_tool = (boids_tool){10, 290, 120, 400, BOIDS_TOOL_NONE, 0, 0, 0};
    check_both(in, N, 1, 300, 300, &p, "no tool", none);
    oracle_tool.kind = BOIDS_TOOL_ATTRACT;
    check_both(in, N, 1, 300, 300, &p, "attract", out);
    /* a boid within reach moved towards the tool compared with no tool */
    int moved = 0;
    for (uint32_t i = 0; i < N; ++i) moved += memcmp(&out[i], &none[i], sizeof out[i]) != 0;
    CHECK_MSG(moved > 0 && moved < N, "%d boids felt the tool", moved);
    oracle_tool.kind = BOIDS_TOOL_REPEL;
    check_both(in, N, 1, 300, 300, &p, "repel", out);
    oracle_tool.kind = BOIDS_TOOL_NONE;
}

TEST_MAIN(TEST(test_random_flocks_match_formulas), TEST(test_mouse_tool), TEST(test_swarm_rules),
          TEST(test_separation_weights_by_inverse_distance), TEST(test_truncation_and_speed_limits))
