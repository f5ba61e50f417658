/* The CPU grid finds exactly the neighbours brute force finds: random and clustered flocks, boids
 * on the wrap edges and on cell borders, and grids of 1, 2 and 3 cells along an axis; and its
 * ring search for a boid's K nearest (cpu/nearest.h, in a unit of 3D rules here) finds the brute
 * force's K at a cost in proportion to the cells it searches, whichever axis the world is long
 * along; and the lane groups' rows and the grid's count on the SIMD lanes give what the scalar
 * ones give. */
#define BOIDS_DIMS 3

#include <math.h>
#include <string.h>

#include "core/rng.h"
#include "cpu/grid.h"
#include "cpu/nearest.h"
#include "cpu/avx512.h"
#include "cpu/neighbors.h"
#include "test.h"

/* Neighbour sets of every boid within radius r, by the grid and by brute force, compared. */
static void compare_neighbour_sets_cells(const boids_boid *b, uint32_t n, float W, float H, float r,
                                         float cell, const char *what)
{
    boids_grid_dims dims = boids_grid_dims_for(W, H, 0.0f, cell, r, n, true, 1);
    boids_cpu_grid g;
    if (boids_cpu_grid_init(&g, &dims, n, 1) != BOIDS_OK) {
        CHECK(!"grid init");
        return;
    }
    float *xs = malloc(sizeof *xs * n), *ys = malloc(sizeof *ys * n);
    for (uint32_t i = 0; i < n; ++i) xs[i] = b[i].x, ys[i] = b[i].y;
    boids_cpu_grid_build(&g, xs, ys, NULL, n, n, NULL);
    free(xs), free(ys);
    unsigned char *by_grid = calloc(n, 1);
    uint32_t mismatches = 0, pairs = 0, revisits = 0;
    const float r2 = r * r;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t cells[BOIDS_BLOCK_MAX], c = g.cell_of[i];
        uint32_t nc = boids_grid_block(&dims, c, cells);
        memset(by_grid, 0, n);
        for (uint32_t q = 0; q < nc; ++q) {
            for (uint32_t k = g.cell_start[cells[q]]; k < g.cell_start[cells[q] + 1]; ++k) {
                uint32_t j = g.order[k];
                if (j == i) continue;
                float dx = boids_min_image(b[i].x, b[j].x, W, W * 0.5f);
                float dy = boids_min_image(b[i].y, b[j].y, H, H * 0.5f);
                if (dx * dx + dy * dy < r2) {
                    if (by_grid[j]) ++revisits; /* a cell visited twice would count twice */
                    by_grid[j] = 1;
                }
            }
        }
        for (uint32_t j = 0; j < n; ++j) {
            if (j == i) continue;
            float dx = boids_min_image(b[i].x, b[j].x, W, W * 0.5f);
            float dy = boids_min_image(b[i].y, b[j].y, H, H * 0.5f);
            int brute = dx * dx + dy * dy < r2;
            pairs += (uint32_t)brute;
            if (brute != by_grid[j]) ++mismatches;
        }
    }
    printf("  %-36s grid %ux%u (span %u), %u neighbour pairs, %u mismatches\n", what, dims.w,
           dims.h, dims.span, pairs, mismatches);
    CHECK_MSG(mismatches == 0, "%s: %u mismatches", what, mismatches);
    CHECK_MSG(revisits == 0, "%s: %u neighbours seen twice", what, revisits);
    CHECK_MSG(pairs > 0, "%s: the case has no neighbours at all", what);
    /* Cells list ascending ids (the order both backends sum neighbours in). */
    int ascending = 1;
    for (uint32_t c = 0; c < g.cells; ++c)
        for (uint32_t k = g.cell_start[c] + 1; k < g.cell_start[c + 1]; ++k)
            if (g.order[k] <= g.order[k - 1]) ascending = 0;
    CHECK(ascending);
    free(by_grid);
    boids_cpu_grid_free(&g);
}

/* The same with cells of the radius, and of half of it (blocks of 5x5 cells). */
static void compare_neighbour_sets(const boids_boid *b, uint32_t n, float W, float H, float r,
                                   const char *what)
{
    char half[96];
    compare_neighbour_sets_cells(b, n, W, H, r, r, what);
    snprintf(half, sizeof half, "%s, cells r/2", what);
    compare_neighbour_sets_cells(b, n, W, H, r, 0.5f * r, half);
}

static void random_flock(boids_boid *b, uint32_t n, float W, float H, uint64_t seed)
{
    boids_rng rng = boids_rng_seeded(seed);
    for (uint32_t i = 0; i < n; ++i) {
        b[i].x = boids_rng_float(&rng) * W;
        b[i].y = boids_rng_float(&rng) * H;
        b[i].vx = b[i].vy = 0;
        b[i].swarm = 0;
    }
}

static void test_random(void)
{
    enum { N = 3000 };
    boids_boid *b = malloc(sizeof *b * N);
    random_flock(b, N, 1500, 900, 7);
    compare_neighbour_sets(b, N, 1500, 900, 50, "random");
    compare_neighbour_sets(b, N, 1500, 900, 25, "random, r 25");
    free(b);
}

static void test_clustered(void)
{
    enum { N = 2000 };
    boids_boid *b = malloc(sizeof *b * N);
    boids_rng rng = boids_rng_seeded(11);
    const float W = 1200, H = 800;
    for (uint32_t i = 0; i < N; ++i) {
        /* Five tight clumps, one of them across the corner of the world. */
        float cx = (float)(i % 5) * 240.0f, cy = (float)(i % 5) * 160.0f;
        float x = cx + (boids_rng_float(&rng) - 0.5f) * 30.0f;
        float y = cy + (boids_rng_float(&rng) - 0.5f) * 30.0f;
        b[i] = (boids_boid){boids_wrap(x, W), boids_wrap(y, H), 0, 0, 0};
    }
    compare_neighbour_sets(b, N, W, H, 50, "clustered");
    free(b);
}

static void test_wrap_edges_and_borders(void)
{
    enum { N = 1600 };
    boids_boid *b = malloc(sizeof *b * N);
    boids_rng rng = boids_rng_seeded(3);
    const float W = 1000, H = 600, r = 50;
    boids_grid_dims d = boids_grid_dims_for(W, H, 0.0f, r, r, N, true, 1);
    for (uint32_t i = 0; i < N; ++i) {
        float x, y;
        switch (i % 4) {
        case 0: /* within a radius of the left or right edge */
            x = boids_rng_float(&rng) * r;
            if (i % 8 == 0) x = W - x;
            y = boids_rng_float(&rng) * H;
            break;
        case 1: /* within a radius of the bottom or top edge */
            x = boids_rng_float(&rng) * W;
            y = boids_rng_float(&rng) * r;
            if (i % 8 == 1) y = H - y;
            break;
        case 2: /* exactly on a cell border, or a hair either side of it */
            x = (float)(i % d.w) * d.cell_w;
            y = (float)((i / 7) % d.h) * d.cell_h;
            if (i % 3 == 1) x = nextafterf(x, 0.0f);
            if (i % 3 == 2) y = nextafterf(y, H);
            break;
        default: /* the extreme coordinates */
            x = (i % 3 == 0) ? 0.0f : nextafterf(W, 0.0f);
            y = (i % 5 < 2) ? 0.0f : nextafterf(H, 0.0f);
            x = boids_wrap(x + (boids_rng_float(&rng) - 0.5f) * 20.0f, W);
            break;
        }
        b[i] = (boids_boid){boids_wrap(x, W), boids_wrap(y, H), 0, 0, 0};
    }
    compare_neighbour_sets(b, N, W, H, r, "wrap edges, cell borders");
    free(b);
}

/* Pairs just under the radius apart, one boid on (or an ulp off) a cell border, in worlds the
 * radius divides exactly: where the cell of a boid on a border rounds one cell low, its neighbour
 * two cells up is still found (the grid's cells are a hair larger than the radius for this). */
static void pairs_across_borders(float r, int cells_x)
{
    const float W = r * (float)cells_x, H = 2.0f * r;
    enum { MAX = 3 * 3 * 64 };
    boids_boid b[MAX];
    uint32_t n = 0;
    int step = cells_x / 20 > 0 ? cells_x / 20 : 1;
    for (int k = 1; k < cells_x && n + 9 <= MAX; k += step) {
        float border = (float)k * r;
        float xs[3] = {nextafterf(border, 0), border, nextafterf(border, W)};
        for (int v = 0; v < 3; ++v) {
            float near_r = r * (1.0f - 0x1p-20f);
            float y = r * 0.1f + (float)(n % 8) * r * 0.2f;
            b[n++] = (boids_boid){xs[v], y, 0, 0, 0};
            b[n++] = (boids_boid){boids_wrap(xs[v] + near_r, W), y, 0, 0, 0};
            b[n++] = (boids_boid){boids_wrap(xs[v] - near_r, W), y + r * 1e-4f, 0, 0, 0};
        }
    }
    char what[64];
    snprintf(what, sizeof what, "border pairs r %g x %d", (double)r, cells_x);
    compare_neighbour_sets(b, n, W, H, r, what);
}

static void test_pairs_across_borders(void)
{
    const float radii[] = {50, 25, 7, 3.3f, 13, 0.7f, 123.4f};
    const int cells[] = {20, 333, 4000};
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 3; ++j) pairs_across_borders(radii[i], cells[j]);
}

static void test_small_grids(void)
{
    enum { N = 400 };
    boids_boid *b = malloc(sizeof *b * N);
    /* Worlds of 1, 2 and 3 cells along an axis (radius 50). */
    /* (and at cells of r/2, worlds of 2 to 6 cells an axis, around the 5 of a block) */
    const float sizes[][2] = {{70, 70},   {120, 70}, {70, 120},  {120, 120},
                              {160, 110}, {40, 400}, {130, 110}, {260, 90}};
    const char *names[] = {"1x1 cells",
                           "2x1 cells",
                           "1x2 cells",
                           "2x2 cells",
                           "3x2 cells",
                           "1xN cells",
                           "2x2 cells, 5x4 at r/2",
                           "5x1, 10x3 at r/2"};
    for (int s = 0; s < 8; ++s) {
        random_flock(b, N, sizes[s][0], sizes[s][1], 100 + (uint64_t)s);
        boids_grid_dims d = boids_grid_dims_for(sizes[s][0], sizes[s][1], 0.0f, 50, 50, N, true, 1);
        printf("  (%s: %ux%u)\n", names[s], d.w, d.h);
        compare_neighbour_sets(b, N, sizes[s][0], sizes[s][1], 50, names[s]);
    }
    boids_grid_dims d = boids_grid_dims_for(70, 120, 0.0f, 50, 50, N, true, 1);
    CHECK(d.w == 1 && d.h == 2);
    free(b);
}

/* A torus with more cells of the radius than the cap allows folds them onto the grid (cells of
 * the radius, several to a column and a row) rather than coarsening: two flocks straddling the
 * corner, where all four seams meet, and a third exactly one fold away from the first (so they
 * share every column and row), and a thin scatter over the rest; every boid's neighbours by the
 * grid are brute force's, none seen twice. In a box the cells coarsen as before. */
static void test_folded_grid(void)
{
    enum { N = 6000 };
    const float W = 3000, H = 2400, r = 1.5f;
    boids_grid_dims d = boids_grid_dims_for(W, H, 0.0f, r, r, N, true, 1);
    printf("  %gx%g px, r %g: %ux%u columns and rows of %ux%u cells of %.3fx%.3f px\n", (double)W,
           (double)H, (double)r, d.w, d.h, d.fine_w, d.fine_h, (double)d.cell_w, (double)d.cell_h);
    CHECK(d.fine_w > d.w && d.fine_h > d.h && d.fine_w % d.w == 0 && d.fine_h % d.h == 0);
    CHECK(d.cell_w >= r && d.cell_w < 1.01f * r && d.cell_h >= r && d.cell_h < 1.01f * r);
    CHECK((uint64_t)d.w * d.h <= boids_grid_max_cells(N));
    boids_boid *b = calloc(N, sizeof *b);
    boids_rng rng = boids_rng_seeded(77);
    const float fold_x = d.cell_w * (float)d.w, fold_y = d.cell_h * (float)d.h; /* one fold */
    for (uint32_t i = 0; i < N; ++i) {
        const float u = boids_rng_float(&rng), v = boids_rng_float(&rng);
        float x = (u - 0.5f) * 25.0f, y = (v - 0.5f) * 25.0f; /* across the corner */
        if (i % 3 == 1) x += fold_x, y += fold_y;             /* a fold away */
        if (i % 10 == 9) x = u * W, y = v * H;                /* anywhere */
        b[i].x = boids_wrap(x, W), b[i].y = boids_wrap(y, H);
    }
    compare_neighbour_sets(b, N, W, H, r, "folded: at the corner, a fold away");
    const boids_grid_dims box = boids_grid_dims_for(W, H, 0.0f, r, r, N, false, 1);
    CHECK(box.fine_w == box.w && box.fine_h == box.h && box.cell_w >= 2 * r);
    free(b);
}

static void test_cells_at_least_radius(void)
{
    const float radii[] = {1, 12.5f, 25, 50, 333};
    const float worlds[][2] = {{1000, 600}, {1920, 1080}, {100, 100}, {12345, 678}};
    for (int r = 0; r < 5; ++r)
        for (int w = 0; w < 4; ++w) {
            boids_grid_dims d = boids_grid_dims_for(worlds[w][0], worlds[w][1], 0.0f, radii[r],
                                                    radii[r], 10000, true, 1);
            /* the world's cells tile it (on a folded grid, more of them than the grid's) */
            int tiles = fabsf(d.cell_w * (float)d.fine_w - worlds[w][0]) <= worlds[w][0] * 1e-6f;
            CHECK(tiles);
            CHECK(d.fine_w % d.w == 0 && d.fine_h % d.h == 0 && d.fine_d == 1 && d.d == 1);
            CHECK((d.fine_w == 1 || d.cell_w >= radii[r]) &&
                  (d.fine_h == 1 || d.cell_h >= radii[r]));
            CHECK((uint64_t)d.w * d.h <= boids_grid_max_cells(10000));
        }
}

/* The cap on cells follows the boids (4 a boid): 10^8 boids at the default density, in 2D, keep
 * cells of the radius (50 px: about 4 * 10^7 of them), where a fixed cap of 2^24 coarsened them
 * to cells of twice the radius, four times the candidates; a small flock's cap is as before. */
static void test_cells_follow_the_boids(void)
{
    float w, h;
    boids_default_world_size(100000000u, &w, &h);
    boids_grid_dims d = boids_grid_dims_for(w, h, 0.0f, 50.0f, 50.0f, 100000000u, true, 1);
    printf("  10^8 boids in %.0fx%.0f px: %ux%u = %.3g cells of %.2f px\n", (double)w, (double)h,
           d.w, d.h, (double)d.w * d.h, (double)d.cell_w);
    CHECK(d.cell_w < 51.0f && d.cell_h < 51.0f);
    CHECK((uint64_t)d.w * d.h > (1u << 24));
    CHECK(boids_grid_max_cells(1000) == 1u << 21 && boids_grid_max_cells(1u << 20) == 1u << 22);
    CHECK(boids_grid_max_cells(4000000000u) == 1u << 28);
}

static void test_wrap_helper(void)
{
    const float W = 640;
    CHECK(boids_wrap(-1e-9f, W) == 0.0f); /* W - tiny rounds to W: must land inside */
    CHECK(boids_wrap(W, W) == 0.0f);
    CHECK(boids_wrap(-10, W) == 630);
    CHECK(boids_wrap(650, W) == 10);
    float far = boids_wrap(5000.5f, W);
    CHECK(far >= 0 && far < W);
    CHECK(boids_min_image(10, 630, W, W / 2) == -20);
    CHECK(boids_min_image(630, 10, W, W / 2) == 20);
}

/* The grid g, sorted from entries perm, equals ref, sorted in id order. */
static void check_sorted(const boids_cpu_grid *g, const uint32_t *perm, uint32_t n,
                         const boids_cpu_grid *ref, const char *what, uint32_t parts)
{
    uint32_t wrong = 0;
    for (uint32_t k = 0; k < n; ++k)
        wrong += g->order[k] != ref->order[k] || g->slot_cell[k] != ref->slot_cell[k] ||
                 perm[g->src[k]] != g->order[k];
    for (uint32_t c = 0; c <= ref->cells + 1; ++c) wrong += g->cell_start[c] != ref->cell_start[c];
    CHECK_MSG(wrong == 0, "%s, %u parts: %u slots or cells differ from the sort in id order", what,
              parts, wrong);
}

/* Sorts boids given as entries in some order, with their ids beside them, counted and scattered
 * in 1 to 3 parts and their cells sorted in spans of chunks of 37 slots (as the CPU backend's
 * threads do), and checks the result is the sort of the same boids given in id order: the same
 * cells, the same slots, ids ascending within each cell, and each slot's src naming the entry its
 * boid came from. */
static void check_any_order(const boids_grid_dims *dims, const float *x, const float *y,
                            const uint32_t *perm, uint32_t n, const boids_cpu_grid *ref,
                            const char *what)
{
    for (uint32_t parts = 1; parts <= 3; ++parts) {
        boids_cpu_grid g;
        if (boids_cpu_grid_init(&g, dims, n, parts) != BOIDS_OK) {
            CHECK(!"grid init");
            return;
        }
        float *ex = malloc(sizeof *ex * n), *ey = malloc(sizeof *ey * n);
        for (uint32_t k = 0; k < n; ++k)
            ex[k] = x[perm[k]], ey[k] = y[perm[k]]; /* entry k is boid perm[k] */
        for (uint32_t p = parts; p-- > 0;)
            boids_cpu_grid_count(&g, p, ex, ey, NULL, perm, n, n, NULL);
        boids_cpu_grid_scan(&g);
        for (uint32_t p = parts; p-- > 0;) boids_cpu_grid_scatter(&g, p, perm, n);
        uint32_t covered = 0, spans_wrong = 0;
        for (uint32_t begin = 0; begin < n; begin += 37) {
            uint32_t from, to;
            boids_cpu_grid_cell_span(&g, begin, begin + 37 < n ? begin + 37 : n, &from, &to);
            spans_wrong += from != covered && from != to; /* the spans tile the slots in order */
            if (from < to) covered = to;
            boids_cpu_grid_sort_cells(&g, from, to);
        }
        CHECK_MSG(covered == n && spans_wrong == 0,
                  "%s, %u parts: the spans cover %u of %u slots, %u out of place", what, parts,
                  covered, n, spans_wrong);
        check_sorted(&g, perm, n, ref, what, parts);
        free(ex), free(ey);
        boids_cpu_grid_free(&g);
    }
}

static void test_entries_in_any_order(void)
{
    enum { N = 20000 };
    const float W = 4000, H = 3000, r = 50;
    boids_boid *b = malloc(sizeof *b * N);
    random_flock(b, N, W, H, 7);
    float *x = malloc(sizeof *x * N), *y = malloc(sizeof *y * N);
    for (uint32_t i = 0; i < N; ++i) x[i] = b[i].x, y[i] = b[i].y;
    boids_grid_dims dims = boids_grid_dims_for(W, H, 0.0f, r, r, N, true, 1);
    boids_cpu_grid ref;
    if (boids_cpu_grid_init(&ref, &dims, N, 1) != BOIDS_OK) {
        CHECK(!"grid init");
        return;
    }
    boids_cpu_grid_build(&ref, x, y, NULL, N, N, NULL);
    uint32_t *perm = malloc(sizeof *perm * N);
    /* reversed: every cell's boids come in descending id */
    for (uint32_t k = 0; k < N; ++k) perm[k] = N - 1 - k;
    check_any_order(&dims, x, y, perm, N, &ref, "reversed");
    /* shuffled */
    uint64_t st = 99;
    for (uint32_t k = 0; k < N; ++k) perm[k] = k;
    for (uint32_t k = N - 1; k > 0; --k) {
        uint32_t j = (uint32_t)(boids_splitmix64(&st) % (k + 1)), t = perm[k];
        perm[k] = perm[j], perm[j] = t;
    }
    check_any_order(&dims, x, y, perm, N, &ref, "shuffled");
    /* the last sort's order after a small move (the CPU backend's case): most stay, some change
     * cell */
    memcpy(perm, ref.order, sizeof *perm * N);
    for (uint32_t i = 0; i < N; ++i) {
        x[i] = boids_wrap(x[i] + (float)(i % 7) * 3.0f - 9.0f, W);
        y[i] = boids_wrap(y[i] + (float)(i % 5) * 4.0f - 8.0f, H);
    }
    boids_cpu_grid_build(&ref, x, y, NULL, N, N, NULL);
    check_any_order(&dims, x, y, perm, N, &ref, "last order, moved");
    free(perm), free(x), free(y), free(b);
    boids_cpu_grid_free(&ref);
}

/* The k nearest of boid i by brute force, as the ring search orders them (squared distance, then
 * id; the same float arithmetic): their ids in who, how many returned. */
static uint32_t brute_nearest(const boids_sim *sim, const float *x, const float *y, const float *z,
                              uint32_t n, uint32_t i, uint32_t k, uint32_t *who)
{
    boids_nearest b = {0};
    for (uint32_t j = 0; j < n; ++j) {
        const float dx = boids_min_image(x[i], x[j], sim->def.width, sim->half_w);
        const float dy = boids_min_image(y[i], y[j], sim->def.height, sim->half_h);
        const float dz = boids_min_image(z[i], z[j], sim->def.depth, sim->half_d);
        const float d2 = boids_length2(dx, dy, dz);
        if (j != i && d2 > 0.0f) boids_nearest_offer(&b, k, d2, j, j);
    }
    memcpy(who, b.id, sizeof *who * b.n);
    return b.n;
}

/* n boids at random in a W x H x D world (wrapping or a box; the draws turned rot times round the
 * axes, so that worlds of the same sizes turned see the same boids turned), cells of about k/4
 * boids (as a world of nearest:k has them): every boid's k nearest by the ring search, against
 * brute force, and what the searches cost: at most 6 steps a cell of the blocks they searched (a
 * ring's layers, rows and cells with new cells, one step over each run of those without, and the
 * ring itself), where the walk before stepped through every layer and row of the block each ring.
 * The steps in all are returned. A patch (patch > 0, a torus) puts the boids in a cube of that side
 * across the corner instead, every other one a fold of the grid away along each axis (cells of
 * `cell` px: a folded grid, whose columns both cubes share). */
static uint64_t nearest_search_in(float W, float H, float D, bool wrap, uint32_t n, uint32_t k,
                                  uint32_t rot, float cell, float patch, const char *what)
{
    const boids_grid_dims dims = boids_grid_dims_for(W, H, D, cell, cell, n, wrap, 1);
    boids_cpu_grid g;
    if (boids_cpu_grid_init(&g, &dims, n, 1) != BOIDS_OK) {
        CHECK(!"grid init");
        return 0;
    }
    float *p = malloc(sizeof *p * 9 * n), *x = p, *y = p + n, *z = p + 2 * n;
    uint32_t *swarm = calloc(n, sizeof *swarm);
    boids_rng rng = boids_rng_seeded(5);
    for (uint32_t i = 0; i < n; ++i) { /* rot turns the same draws round the axes */
        float u[3];
        for (int a = 0; a < 3; ++a) u[a] = boids_rng_float(&rng);
        x[i] = u[rot % 3] * W, y[i] = u[(rot + 1) % 3] * H, z[i] = u[(rot + 2) % 3] * D;
        if (patch > 0.0f) {
            const float away = (float)(i % 2);
            x[i] = boids_wrap((u[0] - 0.5f) * patch + away * dims.cell_w * (float)dims.w, W);
            y[i] = boids_wrap((u[1] - 0.5f) * patch + away * dims.cell_h * (float)dims.h, H);
            z[i] = boids_wrap((u[2] - 0.5f) * patch + away * dims.cell_d * (float)dims.d, D);
        }
    }
    boids_cpu_grid_build(&g, x, y, z, n, n, NULL);
    boids_sim sim = {0};
    sim.def.width = W, sim.def.height = H, sim.def.depth = D, sim.three = true;
    sim.half_w = wrap ? W / 2 : INFINITY, sim.half_h = wrap ? H / 2 : INFINITY;
    sim.half_d = wrap ? D / 2 : INFINITY;
    boids_cpu_soa cand = {p + 3 * n, p + 4 * n, p + 6 * n, p + 7 * n,
                          p + 5 * n, p + 8 * n, swarm,     g.order};
    for (uint32_t s = 0; s < n; ++s) {
        const uint32_t id = g.order[s];
        cand.x[s] = x[id], cand.y[s] = y[id], cand.z[s] = z[id];
        cand.vx[s] = cand.vy[s] = cand.vz[s] = 0.0f;
    }
    const boids_cpu_step step = {.sim = &sim, .params = &sim.def.params, .grid = &g, .cand = cand};
    const boids_nearest_filter f = {0.0f, false, 0.0f};
    uint64_t steps = 0, cells = 0;
    uint32_t wrong = 0, costly = 0, who[BOIDS_MAX_NEAREST];
    for (uint32_t s = 0; s < n; ++s) {
        boids_nearest nb;
        boids_cpu_nearest(&step, s, k, &f, &nb);
        const uint32_t m = brute_nearest(&sim, x, y, z, n, g.order[s], k, who);
        wrong += nb.n != m || memcmp(nb.id, who, sizeof *who * m) != 0;
        costly += nb.steps > 6 * nb.cells;
        steps += nb.steps, cells += nb.cells;
    }
    printf("  %-26s grid %ux%ux%u (of %ux%ux%u cells): %.1f cells a search, %.1f steps a cell\n",
           what, dims.w, dims.h, dims.d, dims.fine_w, dims.fine_h, dims.fine_d, (double)cells / n,
           (double)steps / (double)cells);
    CHECK_MSG(wrong == 0, "%s: %u boids' nearest differ from brute force", what, wrong);
    CHECK_MSG(costly == 0, "%s: %u searches took more than 6 steps a cell", what, costly);
    free(p), free(swarm);
    boids_cpu_grid_free(&g);
    return steps;
}

static uint64_t nearest_search_cost(float W, float H, float D, bool wrap, uint32_t n, uint32_t k,
                                    uint32_t rot, const char *what)
{
    const float cell = cbrtf(W * H * D * (float)k / 4.0f / (float)n);
    return nearest_search_in(W, H, D, wrap, n, k, rot, cell, 0.0f, what);
}

/* Sparse worlds long along x, y (one layer deep: a flat world's rows) and z, at nearest:32 (rings
 * hundreds of cells out), the same boids along each: the searches along y and z cost what the one
 * along x does (they cost 200 times as much when the walk stepped through every layer and row of
 * the block: 10 to 40 s a step where x took 0.05); and a dense cube and a box, at nearest:7. */
static void test_nearest_search_costs(void)
{
    const uint64_t along_x = nearest_search_cost(1e5f, 3, 3, true, 300, 32, 0, "long along x");
    const uint64_t along_y = nearest_search_cost(3, 1e5f, 3, true, 300, 32, 2, "long along y");
    const uint64_t along_z = nearest_search_cost(3, 3, 1e5f, true, 300, 32, 1, "long along z");
    CHECK_MSG(along_y < 2 * along_x && along_z < 2 * along_x,
              "steps along x %llu, along y %llu, along z %llu", (unsigned long long)along_x,
              (unsigned long long)along_y, (unsigned long long)along_z);
    nearest_search_cost(3, 2e4f, 2e4f, true, 3000, 32, 0, "a wall, long along y and z");
    nearest_search_cost(40, 40, 40, true, 2000, 7, 0, "a cube");
    nearest_search_cost(40, 40, 40, false, 2000, 7, 0, "a box");
    nearest_search_cost(30, 5000, 30, false, 500, 20, 0, "a box long along y");
    /* a flock in open space: cells of 1 in a 300-wide cube, folded (2.7 * 10^7 cells of it) */
    nearest_search_in(300, 300, 300, true, 3000, 7, 0, 1.0f, 12.0f, "folded, a fold apart");
    nearest_search_in(300, 300, 300, true, 3000, 20, 0, 1.0f, 6.0f, "folded, k 20, denser");
}

/* Whether two groups formed from the same slot are the same: their lanes, parts, unwrapped and
 * shifted flags, ranges, each lane's own ranges and shifts (the lanes past the group are no part
 * of it). */
static bool same_group(const boids_cpu_group *a, const boids_cpu_group *b)
{
    if (a->lanes != b->lanes || a->rows != b->rows) return false;
    if (a->lanes < 2) return true; /* (a boid alone: no rows) */
    if (a->unwrapped != b->unwrapped || a->shifted != b->shifted) return false;
    for (uint32_t j = 0; j < a->rows; ++j) {
        if (a->begin[j] != b->begin[j] || a->end[j] != b->end[j]) return false;
        if (a->shifted && (a->shift_y[j] != b->shift_y[j] || a->shift_z[j] != b->shift_z[j] ||
                           memcmp(a->shift_x[j], b->shift_x[j], sizeof(float) * a->lanes) != 0))
            return false;
        for (uint32_t l = 0; l < a->lanes; ++l)
            if (a->own_begin[j][l] != b->own_begin[j][l] || a->own_end[j][l] != b->own_end[j][l])
                return false;
    }
    return true;
}

typedef struct group_case {
    const char *what;
    float w, h, d; /* d 0: flat */
    float cell, reach;
    uint32_t count, replicas;
    bool wrap;
} group_case;

/* Groups from every slot of a grid of c's boids (half of them in a patch a few cells wide, so
 * cells hold many), formed both ways; returns the groups that differ, and counts those formed,
 * and of them those that take the minimum image and those shifted instead (the walks' three
 * cases: test_same_bits walks them). */
static uint32_t groups_differ(const group_case *c, uint32_t *grouped, uint32_t *imaged,
                              uint32_t *shifted)
{
    boids_grid_dims dims =
        boids_grid_dims_for(c->w, c->h, c->d, c->cell, c->reach, c->count, c->wrap, c->replicas);
    boids_cpu_grid g;
    *grouped = *imaged = *shifted = 0;
    if (boids_cpu_grid_init(&g, &dims, c->count, 1) != BOIDS_OK) {
        CHECK(!"grid init");
        return 1;
    }
    float *x = malloc(sizeof *x * c->count), *y = malloc(sizeof *y * c->count),
          *z = malloc(sizeof *z * c->count);
    boids_rng rng = boids_rng_seeded(11);
    for (uint32_t i = 0; i < c->count; ++i) {
        const float f = i % 2 ? 1.0f : 4.0f * c->cell / fmaxf(c->w, c->h); /* a patch, or all */
        x[i] = boids_rng_float(&rng) * c->w * f, y[i] = boids_rng_float(&rng) * c->h * f;
        z[i] = boids_rng_float(&rng) * c->d;
    }
    boids_cpu_grid_build(&g, x, y, c->d > 0.0f ? z : NULL, c->count, c->count / c->replicas, NULL);
    boids_sim sim = {0};
    sim.def.width = c->w, sim.def.height = c->h, sim.def.depth = c->d, sim.three = c->d > 0.0f;
    sim.half_w = c->wrap ? c->w / 2 : INFINITY, sim.half_h = c->wrap ? c->h / 2 : INFINITY;
    sim.half_d = c->wrap ? c->d / 2 : INFINITY;
    const boids_cpu_step step = {.sim = &sim, .params = &sim.def.params, .grid = &g};
    uint32_t differ = 0;
    for (uint32_t s = 0; s < c->count; ++s) {
        boids_cpu_group a, b;
        boids_cpu_group_lanes_on = true;
        boids_cpu_group_at(&step, s, c->count, BOIDS_GROUP_MAX, &a);
        boids_cpu_group_lanes_on = false;
        boids_cpu_group_at(&step, s, c->count, BOIDS_GROUP_MAX, &b);
        boids_cpu_group_lanes_on = true;
        differ += !same_group(&a, &b);
        *grouped += a.lanes > 1;
        *imaged += a.lanes > 1 && !a.unwrapped && !a.shifted;
        *shifted += a.lanes > 1 && a.shifted;
    }
    printf("  %-30s grid %ux%ux%u, span %u: %u of %u slots start a group (%u shifted, %u the "
           "minimum image), %u differ\n",
           c->what, dims.w, dims.h, dims.d, dims.span, *grouped, c->count, *shifted, *imaged,
           differ);
    free(x), free(y), free(z);
    boids_cpu_grid_free(&g);
    return differ;
}

/* boids_cpu_group_at's rows on the SIMD lanes (rows_lanes) and lane by lane (rows_scalar) form
 * the same groups from every slot, on grids flat and 3D, wrapped and bounded, of span 1 and 2
 * (where the lanes' columns fit a vector only for lanes close together), with rows shorter than
 * a block, folded, of two replicas; and the cases form groups of each of the walks' three kinds. */
static void test_same_groups(void)
{
    const group_case cases[] = {
        {"a torus", 1000, 600, 0, 50, 50, 4000, 1, true},
        {"a box", 1000, 600, 0, 50, 50, 4000, 1, false},
        {"span 2 (cells half the radius)", 1000, 600, 0, 25, 50, 4000, 1, true},
        {"span 2, a box", 1000, 600, 0, 25, 50, 4000, 1, false},
        {"a 3D torus", 400, 400, 400, 50, 50, 4000, 1, true},
        {"a 3D box", 400, 400, 400, 50, 50, 4000, 1, false},
        {"rows of 3 cells", 170, 600, 0, 50, 50, 2000, 1, true},
        {"rows shorter than a block", 110, 600, 0, 50, 50, 2000, 1, true},
        {"two replicas", 1000, 600, 0, 50, 50, 4000, 2, true},
        {"folded (cells past the cap)", 5000, 5000, 0, 1, 1, 3000, 1, true},
    };
    uint32_t imaged_all = 0, shifted_all = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        uint32_t grouped, imaged, shifted;
        const uint32_t differ = groups_differ(&cases[i], &grouped, &imaged, &shifted);
        CHECK_MSG(differ == 0, "%s: %u groups differ between the two ways", cases[i].what, differ);
        CHECK_MSG(grouped > 0, "%s: no group formed (the case tests nothing)", cases[i].what);
        imaged_all += imaged, shifted_all += shifted;
        CHECK_MSG(cases[i].wrap || shifted == 0, "%s: a box's group shifted", cases[i].what);
    }
    CHECK_MSG(imaged_all > 0 && shifted_all > 0,
              "the cases formed %u groups that take the minimum image and %u shifted: each "
              "should have some",
              imaged_all, shifted_all);
}

/* The count of n boids at (x, y) on a grid of dims in `parts` parts, by `path` (0: lane by lane,
 * count_range; 1: on the SIMD lanes; 2: AVX-512's), into g (initialised here). */
static void count_by(const boids_grid_dims *dims, const float *x, const float *y, uint32_t n,
                     uint32_t parts, int path, boids_cpu_grid *g)
{
    REQUIRE_OK(boids_cpu_grid_init(g, dims, n, parts));
    boids_cpu_count_lanes_on = path == 1;
#if BOIDS_CPU_AVX512
    boids_cpu_count_avx512_on = path == 2;
#endif
    for (uint32_t p = 0; p < parts; ++p) boids_cpu_grid_count(g, p, x, y, NULL, NULL, n, n, NULL);
    boids_cpu_count_lanes_on = true;
#if BOIDS_CPU_AVX512
    boids_cpu_count_avx512_on = true;
#endif
}

/* The grid's count on the SIMD lanes (and with AVX-512 where the processor has it) gives the
 * cells and histograms of the count lane by lane: boids inside, on cell borders, outside the
 * world, far outside, NaN, on grids of 1, 2 and 3 parts (whose last vectors are partial). */
static void test_same_count(void)
{
    const uint32_t n = 5003; /* (not a multiple of 8 or 16) */
    float *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
    const struct {
        const char *what;
        float w, h, cell;
    } worlds[] = {
        {"a torus", 1000, 600, 50}, {"cells of 7 px", 1000, 600, 7}, {"one cell", 30, 30, 50}};
    int paths = 2;
#if BOIDS_CPU_AVX512
    paths = boids_cpu_has_avx512() ? 3 : 2;
#endif
    for (size_t i = 0; i < sizeof worlds / sizeof worlds[0]; ++i) {
        const boids_grid_dims dims = boids_grid_dims_for(
            worlds[i].w, worlds[i].h, 0.0f, worlds[i].cell, worlds[i].cell, n, true, 1);
        boids_rng rng = boids_rng_seeded(3);
        for (uint32_t k = 0; k < n; ++k) { /* inside, on cell borders, outside, far, NaN */
            const float u = boids_rng_float(&rng), v = boids_rng_float(&rng);
            const float kinds[][2] = {{u * worlds[i].w, v * worlds[i].h},
                                      {(float)(k % dims.w) * dims.cell_w, worlds[i].h},
                                      {-u, worlds[i].w + v},
                                      {-1e30f, 1e30f},
                                      {NAN, u * worlds[i].h},
                                      {nextafterf(dims.cell_w, 0.0f), -0.0f}};
            const uint32_t kind = k % 10 < 5 ? 0 : k % 10 - 4;
            x[k] = kinds[kind][0], y[k] = kinds[kind][1];
        }
        for (uint32_t parts = 1; parts <= 3; ++parts) {
            boids_cpu_grid a, b;
            count_by(&dims, x, y, n, parts, 0, &a);
            for (int path = 1; path < paths; ++path) {
                count_by(&dims, x, y, n, parts, path, &b);
                const bool same = memcmp(a.cell_of, b.cell_of, sizeof *a.cell_of * n) == 0 &&
                                  memcmp(a.part_count, b.part_count,
                                         sizeof *a.part_count * (a.cells + 1u) * parts) == 0;
                printf("  %-14s grid %ux%u, %u parts, %s: %s\n", worlds[i].what, dims.w, dims.h,
                       parts, path == 1 ? "the lanes" : "AVX-512",
                       same ? "the same cells and counts" : "they differ");
                CHECK_MSG(same, "%s, %u parts: the counts differ (%s)", worlds[i].what, parts,
                          path == 1 ? "the lanes" : "AVX-512");
                boids_cpu_grid_free(&b);
            }
            boids_cpu_grid_free(&a);
        }
    }
    free(x), free(y);
}

TEST_MAIN(TEST(test_random), TEST(test_cells_follow_the_boids), TEST(test_entries_in_any_order),
          TEST(test_clustered), TEST(test_wrap_edges_and_borders), TEST(test_pairs_across_borders),
          TEST(test_small_grids), TEST(test_folded_grid), TEST(test_cells_at_least_radius),
          TEST(test_wrap_helper), TEST(test_nearest_search_costs), TEST(test_same_groups),
          TEST(test_same_count))
