/* One step from the same state: GPU and CPU velocities agree within a tolerance (TOL_DV, see
 * within_tolerance()). On a driver that rounds as IEEE does and never contracts to FMA (measured:
 * tests/gpu_exact.h) they agree bit for bit, over many steps too, and that stronger property is
 * checked there; BOIDS_TEST_EXACT=0 leaves only the tolerance checks, as on a real GPU. The
 * tolerance checks must be able to fail: a rule with a flipped sign or a shrunken radius on one
 * side is caught by them. Also: the CPU's brute-force search agrees with its grid, and the CPU
 * result does not depend on the thread count.
 *
 * Every model's rules are one source for both backends (src/rules/). What this test holds equal
 * is what stays twinned, written once per backend because lanes and invocations differ in kind
 * there: the walks over the neighbours (cpu/walk_reynolds.c and shaders/walk_reynolds.glsl; kit's
 * lane groups, models/kit/walk.c, and the GPU's pair walk, shaders/walk_pairs.glsl, which run
 * the one pair rule of models/kit/rules.h), the predators' steering and catches
 * (cpu/hunt.c, cpu/predators.c; hunt.comp, catch.comp, catch_apply.comp), the external-force hook
 * and the move through the edges (cpu/steer.h, shaders/steer_common.glsl), and the grids. */
#include <string.h>

#include "core/rng.h"
#include "cpu/grid.h"
#include "gpu_exact.h"
#include "test.h"

static int exact(void) { return test_gpu_exact_on(test_gpu_context()); }

/* The tolerance of one step from the same state, px/s (px/frame for frame-based models): the
 * velocities of a GPU that contracts to FMA and approximates divisions and square roots differ
 * from the CPU's by a few units in the last place of each operation, about 1e-5 of a speed. */
#define TOL_DV 1e-3

typedef struct diff {
    double max_dv, max_dp;
    uint32_t worst, identical, beyond; /* beyond: boids whose |dv| exceeds TOL_DV */
} diff;

static diff compare_states(const boids_boid *a, const boids_boid *b, uint32_t n, float W, float H,
                           float D)
{
    diff d = {0, 0, 0, 0, 0};
    for (uint32_t i = 0; i < n; ++i) {
        double dv = hypot(hypot((double)a[i].vx - b[i].vx, (double)a[i].vy - b[i].vy),
                          (double)a[i].vz - b[i].vz);
        double dx = boids_min_image(a[i].x, b[i].x, W, W / 2),
               dy = boids_min_image(a[i].y, b[i].y, H, H / 2),
               dz = D > 0 ? boids_min_image(a[i].z, b[i].z, D, D / 2) : 0.0;
        double dp = hypot(hypot(dx, dy), dz);
        if (dv > d.max_dv) {
            d.max_dv = dv;
            d.worst = i;
        }
        if (dp > d.max_dp) d.max_dp = dp;
        d.identical += memcmp(&a[i], &b[i], sizeof a[i]) == 0;
        d.beyond += !(dv <= TOL_DV);
    }
    return d;
}

/* The tolerance path's verdict on one step from the same state: every boid within TOL_DV, but
 * for one in a thousand. Those few are allowed because a neighbour can sit within an ulp of a
 * radius, where the two roundings of its squared distance fall on either side: that boid then
 * counts one neighbour more on one backend, legitimately. */
static bool within_tolerance(diff d, uint32_t n) { return d.beyond <= 1 + n / 1000; }

/* Runs `steps` from `initial` (or the def's random state) on both backends, the GPU with the
 * parameters of `gpu_params` where not NULL (the wrong rules below); returns the diff. */
static diff run_both_with(boids_world_def def, const boids_params *gpu_params,
                          const boids_boid *initial, uint32_t steps, const char *what)
{
    diff none = {1e30, 1e30, 0, 0, def.count};
    boids_world *gw, *cw;
    boids_world_def gdef = def;
    gdef.backend = BOIDS_BACKEND_GPU;
    gdef.gl = test_gpu_context();
    if (gpu_params) gdef.params = *gpu_params;
    if (boids_world_create(&gdef, &gw) != BOIDS_OK) {
        CHECK_MSG(0, "%s: %s", what, boids_last_error());
        return none;
    }
    def.backend = BOIDS_BACKEND_CPU;
    if (boids_world_create(&def, &cw) != BOIDS_OK) {
        CHECK_MSG(0, "%s: %s", what, boids_last_error());
        boids_world_destroy(gw);
        return none;
    }
    uint32_t n = def.count;
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    if (initial) {
        CHECK(boids_world_write(gw, initial, n) == BOIDS_OK);
        CHECK(boids_world_write(cw, initial, n) == BOIDS_OK);
    }
    CHECK(boids_world_step(gw, steps) == BOIDS_OK);
    CHECK(boids_world_step(cw, steps) == BOIDS_OK);
    CHECK(boids_world_read(gw, a, n) == BOIDS_OK);
    CHECK(boids_world_read(cw, b, n) == BOIDS_OK);
    boids_world_info info;
    boids_world_get_info(gw, &info);
    diff d = compare_states(a, b, n, info.width, info.height, info.depth);
    CHECK_MSG(test_state_finite(a, n) && test_state_finite(b, n), "%s: NaN or inf", what);
    printf("  %-26s N %-6u %3u step%s: max |dv| %.3g px/s (boid %u), max |dp| %.3g px, "
           "%u/%u boids bit-identical, %u beyond %g\n",
           what, n, steps, steps == 1 ? " " : "s", d.max_dv, d.worst, d.max_dp, d.identical, n,
           d.beyond, TOL_DV);
    free(a), free(b);
    boids_world_destroy(gw);
    boids_world_destroy(cw);
    return d;
}

static diff run_both(boids_world_def def, const boids_boid *initial, uint32_t steps,
                     const char *what)
{
    return run_both_with(def, NULL, initial, steps, what);
}

static void one_step(boids_world_def def, const boids_boid *initial, const char *what)
{
    diff d = run_both(def, initial, 1, what);
    CHECK_MSG(within_tolerance(d, def.count), "%s: %u boids beyond %g px/s (max |dv| %g)", what,
              d.beyond, TOL_DV, d.max_dv);
    if (exact())
        CHECK_MSG(d.identical == def.count, "%s: not bit-identical on a bitwise driver", what);
}

/* The tolerance path can fail: one step of a deliberately wrong rule on the GPU (cohesion's
 * sign flipped; the separation radius a fifth short, as if the walk missed part of a cell) is
 * beyond the tolerance, while the right rule is within it. */
static void test_tolerance_catches_wrong_rules(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 8000);
    d.seed = 31;
    diff right = run_both(d, NULL, 1, "right rules");
    CHECK_MSG(within_tolerance(right, d.count), "the right rules: %u boids beyond", right.beyond);
    boids_params flipped = d.params, short_radius = d.params;
    flipped.reynolds.cohesion_weight = -flipped.reynolds.cohesion_weight;
    short_radius.reynolds.sep_radius *= 0.8f;
    diff a = run_both_with(d, &flipped, NULL, 1, "cohesion sign flipped");
    diff b = run_both_with(d, &short_radius, NULL, 1, "separation radius short");
    CHECK_MSG(!within_tolerance(a, d.count), "a flipped cohesion passed the tolerance (%u beyond)",
              a.beyond);
    CHECK_MSG(!within_tolerance(b, d.count),
              "a short separation radius passed the tolerance (%u beyond)", b.beyond);
}

static void test_one_step_default(void)
{
    one_step(test_def(BOIDS_BACKEND_GPU, 20000), NULL, "default density");
}

static void test_one_step_swarms(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 20000);
    d.swarms = 3;
    d.seed = 9;
    one_step(d, NULL, "3 swarms");
}

static void test_one_step_clustered(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 4000);
    d.width = 1600;
    d.height = 900;
    d.swarms = 2;
    boids_boid *b = malloc(sizeof *b * d.count);
    boids_rng rng = boids_rng_seeded(21);
    for (uint32_t i = 0; i < d.count; ++i) {
        /* Dense clumps (about 40 boids within a radius), one across the wrap corner. */
        float c = (float)(i % 8) * 200.0f;
        float x = c + (boids_rng_float(&rng) - 0.5f) * 80.0f,
              y = c * 0.5f + (boids_rng_float(&rng) - 0.5f) * 80.0f;
        float a = boids_rng_float(&rng) * 6.2831853f;
        b[i] = (boids_boid){boids_wrap(x, d.width), boids_wrap(y, d.height), 120.0f * cosf(a),
                            120.0f * sinf(a), i % 2};
    }
    one_step(d, b, "clustered, 2 swarms");
    free(b);
}

static void test_one_step_small_grid(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 200);
    d.width = 120;
    d.height = 110; /* 2x2 cells: every cell once, never twice */
    d.params.base.max_speed = 100;
    d.params.base.min_speed = 30;
    one_step(d, NULL, "2x2-cell world");
}

/* The CPU walks the candidates of up to 8 boids of a cell row at once (SIMD lanes, rules/simd.h),
 * and each boid alone where its block wraps across the row's ends: worlds whose grids make every
 * kind of group, against the GPU, which walks each boid alone. */
static void test_one_step_lane_groups(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 4000);
    d.replicas = 4; /* rows of four replicas side by side in the cell order */
    one_step(d, NULL, "4 replicas");
    d = test_def(BOIDS_BACKEND_GPU, 1500);
    d.width = 160; /* 3 columns: every block's x-cells wrap but the middle one's */
    d.height = 1200;
    one_step(d, NULL, "3-column world");
    d = test_def(BOIDS_BACKEND_GPU, 3000);
    d.model =
        BOIDS_MODEL_SHIFFMAN_PROCESSING; /* edges that do not wrap: blocks clipped at the ends */
    d.params = boids_model_default_params(d.model);
    d.swarms = 2;
    one_step(d, NULL, "processing edges");
    diff r = run_both(d, NULL, 100, "processing edges");
    if (exact())
        CHECK_MSG(r.identical == d.count, "processing edges, 100 steps: not bit-identical");
    /* adams and kit walk the same groups with their own readings: Adams' box (also a protected
     * range wider than the visual range, where the box cuts the protected zone), the
     * protected zone in or out of the flock; kit's per-boid radius and view cone, with
     * predators, over several replicas. */
    const float adams_ranges[3][3] = {
        {8, 40, 0}, {8, 40, 1}, {50, 30, 0}}; /* protected, visual, include */
    for (int k = 0; k < 3; ++k) {
        d = test_def(BOIDS_BACKEND_GPU, 3000);
        d.model = BOIDS_MODEL_ADAMS;
        d.params = boids_model_default_params(d.model);
        d.params.adams.protected_range = adams_ranges[k][0];
        d.params.adams.visual_range = adams_ranges[k][1];
        d.params.adams.include_protected = adams_ranges[k][2];
        d.replicas = 2;
        r = run_both(d, NULL, 50, "adams");
        if (exact())
            CHECK_MSG(r.identical == d.count,
                      "adams (protected %g, visual %g, include %g), 50 steps: not bit-identical",
                      (double)adams_ranges[k][0], (double)adams_ranges[k][1],
                      (double)adams_ranges[k][2]);
    }
    d = test_def(BOIDS_BACKEND_GPU, 4000);
    d.model = BOIDS_MODEL_KIT;
    d.params = boids_model_default_params(d.model);
    d.params.kit.view_radius = 100,
    d.params.predators.pred_view_radius = 100; /* a flock's scale, not 35 boids' */
    d.replicas = 4;
    r = run_both(d, NULL, 50, "kit, 4 replicas");
    if (exact()) CHECK_MSG(r.identical == d.count, "kit, 4 replicas, 50 steps: not bit-identical");
}

static void test_many_steps_bitwise(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 5000);
    d.swarms = 2;
    diff r = run_both(d, NULL, 200, "200 steps");
    if (exact())
        CHECK_MSG(r.identical == d.count, "200 steps: not bit-identical on a bitwise driver");
    else
        printf("  (not a bitwise driver: identity over many steps is not expected; test_longrun\n"
               "   compares the observables)\n");
}

/* One step of brute force (the minimum image of every pair) against the grid's on the CPU, in
 * the default world or in a w x h x depth torus (w 0: the default). */
static void cpu_brute_equals_grid(float cell_size, uint32_t count, float w, float h, float depth)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, count);
    d.swarms = 2;
    d.cell_size = cell_size;
    if (w > 0.0f) d.width = w, d.height = h, d.depth = depth;
    boids_world *g, *b;
    REQUIRE_OK(boids_world_create(&d, &g));
    d.neighbors = BOIDS_NEIGHBORS_BRUTE;
    REQUIRE_OK(boids_world_create(&d, &b));
    REQUIRE_OK(boids_world_step(g, 1));
    REQUIRE_OK(boids_world_step(b, 1));
    boids_boid *x = malloc(sizeof *x * d.count), *y = malloc(sizeof *y * d.count);
    REQUIRE_OK(boids_world_read(g, x, d.count));
    REQUIRE_OK(boids_world_read(b, y, d.count));
    boids_world_info info;
    boids_world_get_info(g, &info);
    diff r = compare_states(x, y, d.count, info.width, info.height, info.depth);
    printf("  brute force vs grid (CPU, %gx%gx%g px, cells of %.3g px): max |dv| %.3g px/s, "
           "%u/%u bit-identical\n",
           (double)info.width, (double)info.height, (double)info.depth, (double)info.cell_w,
           r.max_dv, r.identical, d.count);
    /* Same neighbours, summed in another order: equal to rounding. */
    CHECK(r.max_dv <= 1e-3);
    free(x), free(y);
    boids_world_destroy(g);
    boids_world_destroy(b);
}

static void test_cpu_brute_equals_grid(void)
{
    cpu_brute_equals_grid(0.0f, 5000, 0.0f, 0.0f, 0.0f);
    cpu_brute_equals_grid(26.0f, 5000, 0.0f, 0.0f, 0.0f); /* half the radius, 50 px, and a hair */
    /* a 3D torus of one layer (10 x 10 x 1 cells): z wraps within the layer, so its groups
     * take the minimum image along z, on the seam and off it */
    cpu_brute_equals_grid(0.0f, 2000, 500.0f, 500.0f, 60.0f);
}

static void test_cpu_threads_independent(void)
{
    /* 3 threads, and 10: more than the grid's parts (8), so some threads sort nothing */
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 8000);
    boids_world *one;
    d.threads = 1;
    REQUIRE_OK(boids_world_create(&d, &one));
    REQUIRE_OK(boids_world_step(one, 30));
    boids_boid *x = malloc(sizeof *x * d.count), *y = malloc(sizeof *y * d.count);
    REQUIRE_OK(boids_world_read(one, x, d.count));
    boids_world_destroy(one);
    const int threads[] = {3, 10};
    for (int t = 0; t < 2; ++t) {
        boids_world *many;
        d.threads = threads[t];
        REQUIRE_OK(boids_world_create(&d, &many));
        REQUIRE_OK(boids_world_step(many, 30));
        REQUIRE_OK(boids_world_read(many, y, d.count));
        CHECK_MSG(memcmp(x, y, sizeof *x * d.count) == 0, "%d threads differ from 1", threads[t]);
        boids_world_destroy(many);
    }
    free(x), free(y);
}

/* One step within the tolerance and, on a bitwise driver, 100 steps (40 in 3D) bit for bit, for
 * model m with its preset (at scale where it has a flock scenario), 2 swarms, Adams with scouts and
 * the dynamic bias; in a 3D world's default cube where depth is given; with cells of half the
 * radius where `half` is (blocks of 5 cells an axis; 30 steps, 15 in 3D). */
static void model_case(boids_model m, bool three, bool half)
{
    /* (3D: fewer boids and steps, its GPU step costs llvmpipe four times a flat one's) */
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, three ? 2000 : 8000);
    d.model = m;
    d.params = boids_model_default_params(d.model);
    /* a model whose preset is a small paper world (kit: a 950 px view for 35 boids) runs at 8000
     * boids with its scenario for flocks at scale, as test_longrun does */
    char flock[128];
    boids_world_def at_scale;
    snprintf(flock, sizeof flock, "%s-flock.ini", boids_model_name(d.model));
    if (test_scenario_def(flock, &at_scale)) d.params = at_scale.params, d.dt = at_scale.dt;
    d.depth = three ? 1.0f : 0.0f; /* 3D: the default cube */
    d.swarms = 2;
    d.seed = (three ? 300 : 100) + (uint64_t)m;
    if (d.model == BOIDS_MODEL_ADAMS) {
        d.params.adams.scout1_count = 400;
        d.params.adams.scout2_count = 300;
        d.params.adams.dynamic_bias = 1;
    }
    if (half) { /* cells of half those the model's radius gives */
        boids_world *probe;
        boids_world_info info;
        REQUIRE_OK(boids_world_create(&d, &probe));
        boids_world_get_info(probe, &info);
        boids_world_destroy(probe);
        d.cell_size = 0.5f * fminf(info.cell_w, info.cell_h);
    }
    char what[64];
    snprintf(what, sizeof what, "%s%s%s", three ? "3D " : "", boids_model_name(d.model),
             half ? ", cells r/2" : "");
    one_step(d, NULL, what);
    if (!exact()) return; /* (the steps after the first part from the CPU's, as a GPU's do) */
    const uint32_t steps = test_steps(half ? (three ? 15 : 30) : three ? 40 : 100);
    diff r = run_both(d, NULL, steps, what);
    CHECK_MSG(r.identical == d.count, "%s: %u steps not bit-identical", what, steps);
}

static void test_every_model(void)
{
    printf("  twinned per backend and held equal here: the walks (Reynolds', kit's), the "
           "predators, the external-force hook, the edges, the grids\n");
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) model_case((boids_model)m, false, false);
}

/* Cells of half the radius (world_def.cell_size): every walk reaches two cells each way, blocks
 * of 5x5 (5x5x5) cells; every model, flat and 3D, the same on both backends; and the CPU's grid
 * finds what brute force finds. */
static void test_every_model_half_cells(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        model_case((boids_model)m, false, true);
        model_case((boids_model)m, true, true);
    }
}

/* 3D worlds (every model, kit's predators hunting in 3D among its spheres; a grid of 1 and 2
 * cells along an axis, and of one layer only; a box; the mouse tool at a depth): the same, with
 * z. */
static void test_every_model_3d(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) model_case((boids_model)m, true, false);
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 3000);
    d.width = 500, d.height = 120, d.depth = 60; /* 1 and 2 cells along y and z, 50 px cells */
    one_step(d, NULL, "3D, thin along y and z");
    d.height = 500; /* one layer, 10 x 10 cells: z wraps within the layer */
    one_step(d, NULL, "3D, one layer along z");
    d.width = 400, d.height = 400, d.depth = 400;
    d.count = 6000;
    d.params.base.edges = BOIDS_EDGES_BOUNDED;
    one_step(d, NULL, "3D, bounded");
    /* spheres: random obstacles in the default cube, a push (shiffman-per-second) and in the
     * rule of its own (priority) */
    const boids_model pushed[2] = {BOIDS_MODEL_SHIFFMAN_PER_SECOND, BOIDS_MODEL_PRIORITY};
    for (int k = 0; k < 2; ++k) {
        d = test_def(BOIDS_BACKEND_GPU, 2000);
        d.model = pushed[k];
        d.params = boids_model_default_params(d.model);
        d.depth = 1;
        d.params.obstacles.obstacles = 30;
        d.params.obstacles.max_obstacle_size = 50, d.params.obstacles.obstacle_radius = 80;
        char what[64];
        snprintf(what, sizeof what, "3D %s, 30 spheres", boids_model_name(d.model));
        one_step(d, NULL, what);
        if (!exact()) continue;
        diff r = run_both(d, NULL, test_steps(40), what);
        CHECK_MSG(r.identical == d.count, "%s: %u steps not bit-identical", what, test_steps(40));
    }
}

/* Open space: flocks in a torus hundreds of times their size, whose cells of the radius fold onto
 * the grid (boids_grid_dims' fine_w), one flock across the corner where the seams meet and one a
 * fold away from it, so they share every column and row of the grid. One step and 10, metric and
 * nearest:7, on both backends (bit for bit on a bitwise driver); and the CPU's folded grid
 * against its brute force (no grid), equal to rounding (the same neighbours in another order). */
static void folded_case(boids_world_def d, float patch, float speed, const char *what)
{
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_world_destroy(w);
    const float fold[3] = {info.cell_w * (float)info.grid_w, info.cell_h * (float)info.grid_h,
                           info.cell_d * (float)info.grid_d};
    const float size[3] = {d.width, d.height, d.depth};
    CHECK_MSG(fold[0] < 0.99f * d.width, "%s: the grid is not folded (%u columns of %g px)", what,
              info.grid_w, (double)info.cell_w);
    CHECK_MSG(info.fine_w > info.grid_w &&
                  fabsf((float)info.fine_w * info.cell_w - d.width) < 1e-3f * d.width,
              "%s: the info's world cells %u x %g px do not tile the world", what, info.fine_w,
              (double)info.cell_w);
    boids_boid *b = calloc(d.count, sizeof *b);
    boids_rng rng = boids_rng_seeded(404);
    for (uint32_t i = 0; i < d.count; ++i) {
        float p[3], v[3], s = 0.0f;
        for (int a = 0; a < 3; ++a) {
            p[a] = (boids_rng_float(&rng) - 0.5f) * patch + (float)(i % 2) * fold[a];
            v[a] = boids_rng_float(&rng) - 0.5f;
            s += a < 2 || d.depth > 0.0f ? v[a] * v[a] : 0.0f;
        }
        s = speed / sqrtf(s);
        b[i].x = boids_wrap(p[0], size[0]), b[i].y = boids_wrap(p[1], size[1]);
        b[i].vx = v[0] * s, b[i].vy = v[1] * s;
        if (d.depth > 0.0f) b[i].z = boids_wrap(p[2], size[2]), b[i].vz = v[2] * s;
    }
    for (uint32_t k = 0; k <= 7; k += 7) {
        d.nearest = k;
        char label[96];
        snprintf(label, sizeof label, "%s%s", what, k ? ", nearest:7" : "");
        one_step(d, b, label);
        diff r = run_both(d, b, test_steps(10), label);
        if (exact())
            CHECK_MSG(r.identical == d.count, "%s: %u steps not bit-identical", label,
                      test_steps(10));
    }
    d.nearest = 0;
    d.backend = BOIDS_BACKEND_CPU;
    d.gl = NULL;
    boids_world *g, *brute;
    REQUIRE_OK(boids_world_create(&d, &g));
    d.neighbors = BOIDS_NEIGHBORS_BRUTE;
    REQUIRE_OK(boids_world_create(&d, &brute));
    boids_boid *x = malloc(sizeof *x * d.count), *y = malloc(sizeof *y * d.count);
    REQUIRE_OK(boids_world_write(g, b, d.count));
    REQUIRE_OK(boids_world_write(brute, b, d.count));
    REQUIRE_OK(boids_world_step(g, 1));
    REQUIRE_OK(boids_world_step(brute, 1));
    REQUIRE_OK(boids_world_read(g, x, d.count));
    REQUIRE_OK(boids_world_read(brute, y, d.count));
    diff r = compare_states(x, y, d.count, d.width, d.height, d.depth);
    printf("  %s: brute force vs the folded grid (CPU): max |dv| %.3g, %u/%u bit-identical\n", what,
           r.max_dv, r.identical, d.count);
    CHECK_MSG(r.max_dv <= 1e-5 * speed, "%s: brute force and the folded grid differ", what);
    free(x), free(y), free(b);
    boids_world_destroy(g);
    boids_world_destroy(brute);
}

static void test_folded_world(void)
{
    /* the default model in a 75 000 px square (2.25 * 10^6 cells of its 50 px radius, past the
     * cap of 2^21 for 3000 boids: folded in two along each axis), 2 swarms */
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 3000);
    d.width = d.height = 75000;
    d.swarms = 2;
    folded_case(d, 600.0f, 100.0f, "folded 2D");
    /* gregoire-chate in 3D in a 150-wide cube (3.4 * 10^6 cells of r_0 = 1: folded in two) */
    d = test_def(BOIDS_BACKEND_GPU, 3000);
    d.model = BOIDS_MODEL_GREGOIRE;
    d.params = boids_model_default_params(d.model);
    d.dt = 1;
    d.width = d.height = d.depth = 150;
    folded_case(d, 12.0f, d.params.base.max_speed, "folded 3D gregoire-chate");
}

/* The mouse tool at a depth, in a 3D world: the same pulls, and the same events. */
static void test_tool_3d(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 2500);
    d.depth = 1;
    d.event_mask = 1u << BOIDS_EVENT_TOOL;
    boids_world *w[2];
    d.backend = BOIDS_BACKEND_CPU;
    REQUIRE_OK(boids_world_create(&d, &w[0]));
    d.backend = BOIDS_BACKEND_GPU;
    d.gl = test_gpu_context();
    REQUIRE_OK(boids_world_create(&d, &w[1]));
    boids_world_info info;
    boids_world_get_info(w[0], &info);
    const boids_tool tool = {info.width * 0.5f,  info.height * 0.5f, 150, 400,
                             BOIDS_TOOL_ATTRACT, info.depth * 0.25f, 0,   0};
    size_t events[2] = {0, 0};
    boids_boid *s[2] = {malloc(sizeof(boids_boid) * d.count), malloc(sizeof(boids_boid) * d.count)};
    for (int k = 0; k < 2; ++k) {
        REQUIRE_OK(boids_world_set_tool(w[k], &tool));
        REQUIRE_OK(boids_world_step(w[k], 12));
        boids_events e;
        REQUIRE_OK(boids_world_take_events(w[k], &e));
        events[k] = e.count;
        REQUIRE_OK(boids_world_read(w[k], s[k], d.count));
    }
    printf("  3D tool: %zu events on the CPU, %zu on the GPU\n", events[0], events[1]);
    CHECK(events[0] > 0);
    diff df = compare_states(s[1], s[0], d.count, info.width, info.height, info.depth);
    if (exact()) { /* elsewhere 20 steps part the two, as any rounding does */
        CHECK(events[0] == events[1]);
        CHECK(df.identical == d.count);
    } else {
        CHECK(fabs((double)events[1] - (double)events[0]) <= 0.05 * (double)events[0] + 10);
    }
    for (int k = 0; k < 2; ++k) boids_world_destroy(w[k]), free(s[k]);
}

TEST_MAIN(TEST(test_every_model), TEST(test_every_model_3d), TEST(test_every_model_half_cells),
          TEST(test_tool_3d), TEST(test_one_step_default), TEST(test_one_step_swarms),
          TEST(test_one_step_clustered), TEST(test_one_step_small_grid),
          TEST(test_one_step_lane_groups), TEST(test_many_steps_bitwise),
          TEST(test_tolerance_catches_wrong_rules), TEST(test_cpu_brute_equals_grid),
          TEST(test_cpu_threads_independent), TEST(test_folded_world))
