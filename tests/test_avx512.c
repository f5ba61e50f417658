/* The CPU backend's AVX-512 paths (cpu/avx512.h) give their portable paths' bits, each compared
 * with its path turned off:
 * - the lane walk (cpu/walk_avx512.c) against walk_reynolds.c's walk_lanes (every other
 *   processor's, and the sanitizers' build's): each world steps from the same start once with
 *   each walk, and the states must be equal boid by boid, bit for bit: one flock or several
 *   swarms, 1/d^2 separation or the raw offsets, groups on the world's seam (shifted, or on a
 *   torus too small for that the minimum image) and off it, a torus and Processing's borders,
 *   flat and 3D, and Adams' box (walk_lanes either way);
 * - the grid's scan, scatter, sort and gather: the same starts, cursors and slots (the count:
 *   test_grid, with the count on the SIMD lanes).
 * Skips where the build or the processor has no AVX-512. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "cpu/grid.h"
#include "cpu/neighbors.h"
#include "cpu/avx512.h"
#include "test.h"

typedef struct walk_case {
    const char *model;
    uint32_t count, swarms;
    float depth; /* > 0: a 3D cube of the default size */
    uint32_t steps;
} walk_case;

#if BOIDS_CPU_AVX512
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
#endif

static void test_same_bits(void)
{
#if BOIDS_CPU_AVX512
    if (!boids_cpu_has_avx512()) {
        printf("SKIP: this processor has no AVX-512\n");
        exit(77);
    }
    const uint32_t steps = test_sanitized() ? 10 : 60;
    const walk_case cases[] = {
        {"shiffman-per-second", 6000, 1, 0.0f, steps}, /* one flock, 1/d^2 */
        {"shiffman-per-second", 400, 1, 0.0f, steps},  /* a small torus: most groups on seams,
                                                          shifted (16 x 9 cells) */
        {"shiffman-per-second", 60, 1, 0.0f, steps},   /* 6 x 3 cells: the minimum image */
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

#if BOIDS_CPU_AVX512
/* Whether the grid of the n entries at (x, y), of ids `ids` (NULL: entry k is boid k), counted
 * and scattered in `parts` parts, scans to the same cell starts and cursors, scatters and then
 * sorts its cells to the same slots with AVX-512 as without, and gathers the entries' data to them
 * alike; *moved: the slots out of order before the sort. */
static bool same_sort(const boids_grid_dims *dims, const float *x, const float *y,
                      const uint32_t *ids, uint32_t n, uint32_t parts, uint32_t *moved)
{
    boids_cpu_grid g[2];
    bool same;
    for (int i = 0; i < 2; ++i) {
        if (boids_cpu_grid_init(&g[i], dims, n, parts) != BOIDS_OK) return false;
        boids_cpu_scatter_avx512_on = boids_cpu_scan_avx512_on = i == 0;
        for (uint32_t p = 0; p < parts; ++p)
            boids_cpu_grid_count(&g[i], p, x, y, NULL, ids, n, n, NULL);
        boids_cpu_grid_scan(&g[i]);
        for (uint32_t p = 0; p < parts; ++p) boids_cpu_grid_scatter(&g[i], p, ids, n);
    }
    boids_cpu_scan_avx512_on = true;
    same = memcmp(g[0].cell_start, g[1].cell_start, sizeof(uint32_t) * (g[0].cells + 2u)) == 0 &&
           memcmp(g[0].part_count, g[1].part_count, sizeof(uint32_t) * (g[0].cells + 1u) * parts) ==
               0 &&
           memcmp(g[0].order, g[1].order, sizeof *g[0].order * n) == 0 &&
           memcmp(g[0].src, g[1].src, sizeof *g[0].src * n) == 0 &&
           memcmp(g[0].slot_cell, g[1].slot_cell, sizeof *g[0].slot_cell * n) == 0;
    *moved = 0;
    for (uint32_t k = 1; k < n; ++k)
        *moved += g[0].slot_cell[k - 1] == g[0].slot_cell[k] && g[0].order[k - 1] > g[0].order[k];
    for (int i = 0; i < 2; ++i) {
        boids_cpu_sort_avx512_on = i == 0;
        boids_cpu_grid_sort_cells(&g[i], 0, n);
    }
    boids_cpu_scatter_avx512_on = boids_cpu_sort_avx512_on = true;
    same = same && memcmp(g[0].order, g[1].order, sizeof *g[0].order * n) == 0 &&
           memcmp(g[0].src, g[1].src, sizeof *g[0].src * n) == 0;
    /* the entries' data into the sorted slots, 4 arrays (a flat world's) and 6 (a 3D one's) */
    float *data = malloc(sizeof *data * n * 18);
    const float *from[6];
    float *to[2][6];
    for (int a = 0; a < 6; ++a) {
        from[a] = data + (size_t)a * n, to[0][a] = data + (size_t)(6 + a) * n;
        to[1][a] = data + (size_t)(12 + a) * n;
    }
    for (uint32_t k = 0; k < 6 * n; ++k) data[k] = (float)k;
    for (uint32_t arrays = 4; arrays <= 6; arrays += 2) {
        for (int i = 0; i < 2; ++i) {
            boids_cpu_gather_avx512_on = i == 0;
            boids_cpu_grid_gather(&g[0], 0, n, arrays, to[i], from);
        }
        same = same && memcmp(to[0][0], to[1][0], sizeof(float) * n * arrays) == 0;
    }
    boids_cpu_gather_avx512_on = true;
    free(data);
    boids_cpu_grid_free(&g[0]), boids_cpu_grid_free(&g[1]);
    return same;
}
#endif

/* Entries in the order of a grid of the boids a little earlier (the CPU backend's state: most in
 * their cell, id ascending, a few come from the cells around), and in a random order. */
static void test_same_sort(void)
{
#if BOIDS_CPU_AVX512
    if (!boids_cpu_has_avx512()) {
        printf("SKIP: this processor has no AVX-512\n");
        exit(77);
    }
    const uint32_t n = 20011;
    const float W = 2000, H = 1200;
    const boids_grid_dims dims = boids_grid_dims_for(W, H, 0.0f, 50, 50, n, true, 1);
    float *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
    float *x1 = malloc(sizeof *x * n), *y1 = malloc(sizeof *y * n);
    uint32_t *ids = malloc(sizeof *ids * n);
    boids_rng rng = boids_rng_seeded(9);
    for (uint32_t i = 0; i < n; ++i)
        x[i] = boids_rng_float(&rng) * W, y[i] = boids_rng_float(&rng) * H;
    const char *orders[] = {"as the last step's", "shuffled", "in id order"};
    for (int order = 0; order < 3; ++order) {
        if (order == 0) { /* the entries as a grid of (x, y) holds them, then moved by up to 8 px */
            boids_cpu_grid g;
            REQUIRE_OK(boids_cpu_grid_init(&g, &dims, n, 1));
            boids_cpu_grid_build(&g, x, y, NULL, n, n, NULL);
            memcpy(ids, g.order, sizeof *ids * n);
            boids_cpu_grid_free(&g);
        } else if (order == 1) { /* shuffled */
            for (uint32_t i = 0; i < n; ++i) ids[i] = i;
            for (uint32_t i = n - 1; i > 0; --i) {
                const uint32_t j = boids_rng_u32(&rng) % (i + 1), t = ids[i];
                ids[i] = ids[j], ids[j] = t;
            }
        }
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t id = order == 2 ? k : ids[k];
            x1[k] = boids_wrap(x[id] + 16.0f * (boids_rng_float(&rng) - 0.5f), W);
            y1[k] = boids_wrap(y[id] + 16.0f * (boids_rng_float(&rng) - 0.5f), H);
        }
        for (uint32_t parts = 1; parts <= 2; ++parts) {
            uint32_t moved = 0;
            const bool same = same_sort(&dims, x1, y1, order == 2 ? NULL : ids, n, parts, &moved);
            printf("  %s, %u parts: %u slots out of order, %s\n", orders[order], parts, moved,
                   same ? "scattered, sorted and gathered alike" : "they differ");
            CHECK_MSG(same, "%s, %u parts: the scatters, sorts or gathers differ", orders[order],
                      parts);
            CHECK_MSG(moved > 0 || order == 2 || parts == 1,
                      "%s: nothing to sort (the case tests nothing)", orders[order]);
        }
    }
    free(x), free(y), free(x1), free(y1), free(ids);
#else
    printf("SKIP: this build has no AVX-512\n");
    exit(77);
#endif
}

TEST_MAIN(TEST(test_same_bits), TEST(test_same_sort))
