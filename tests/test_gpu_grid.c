/* The GPU's count, scan and scatter (with the id reorder) equal the CPU grid's, for flocks whose
 * grids whose scan takes one block, several, and more blocks than one chunk of the totals' scan
 * holds (the last block then scans them in several chunks). */
#include "core/rng.h"
#include "cpu/grid.h"
#include "gpu/gpu_backend.h"
#include "world/world.h"
#include "test.h"

/* The boids in cell c of a CPU grid. */
static uint32_t in_cell(const boids_cpu_grid *g, uint32_t c)
{
    return g->cell_start[c + 1] - g->cell_start[c];
}

/* The CPU's grid of a state. */
static void cpu_grid_of(boids_cpu_grid *g, const boids_world *w, const boids_boid *state,
                        uint32_t n)
{
    REQUIRE_OK(boids_cpu_grid_init(g, &w->sim.grid, n, 1));
    float *xs = malloc(sizeof *xs * n), *ys = malloc(sizeof *ys * n);
    for (uint32_t i = 0; i < n; ++i) xs[i] = state[i].x, ys[i] = state[i].y;
    boids_cpu_grid_build(g, xs, ys, NULL, n, n, NULL);
    free(xs), free(ys);
}

/* Runs two GPU steps from `state` and compares the grid the second used with the CPU's of the
 * state it started from: a grid the first step's steering sorted (the models without predators
 * sort the boids they move), whose histogram started from the zeros the first step's scan left,
 * with no clear between. Then the histogram the second step left for the next: the CPU's counts
 * of the state it made. */
static void compare_grid(boids_world_def def, const boids_boid *state, const char *what,
                         uint32_t expect_blocks)
{
    boids_world *w;
    REQUIRE_OK(boids_world_create(&def, &w));
    if (state) REQUIRE_OK(boids_world_write(w, state, def.count));
    REQUIRE_OK(boids_world_step(w, 1));
    boids_boid *initial = malloc(sizeof *initial * def.count);
    REQUIRE_OK(boids_world_read(w, initial, def.count));
    REQUIRE_OK(boids_world_step(w, 1));

    boids_cpu_grid g, next;
    cpu_grid_of(&g, w, initial, def.count);
    uint32_t *count = malloc(sizeof *count * g.cells), *start = malloc(sizeof *start * g.cells);
    uint32_t *histogram = malloc(sizeof *histogram * g.cells);
    uint32_t *ids = malloc(sizeof *ids * def.count);
    REQUIRE_OK(boids_gpu_backend_read_grid(boids_world_backend(w), count, start, ids, histogram));
    REQUIRE_OK(boids_world_read(w, initial, def.count)); /* the state the second step made */
    cpu_grid_of(&next, w, initial, def.count);

    uint32_t bad_count = 0, bad_start = 0, bad_order = 0, bad_next = 0, nonempty = 0;
    for (uint32_t c = 0; c < g.cells; ++c) {
        bad_count += count[c] != in_cell(&g, c);
        bad_start += start[c] != g.cell_start[c];
        bad_next += histogram[c] != in_cell(&next, c);
        nonempty += in_cell(&g, c) > 0;
    }
    for (uint32_t k = 0; k < def.count; ++k) bad_order += ids[k] != g.order[k];
    uint32_t blocks = boids_gpu_backend_scan_blocks(boids_world_backend(w));
    printf("  %-34s %u boids, %ux%u = %u cells (%u occupied), %u scan block%s: "
           "%u counts, %u starts, %u slots, %u next counts differ\n",
           what, def.count, g.dims.w, g.dims.h, g.cells, nonempty, blocks, blocks == 1 ? "" : "s",
           bad_count, bad_start, bad_order, bad_next);
    CHECK_MSG(bad_count == 0, "%s: %u cell counts differ", what, bad_count);
    CHECK_MSG(bad_start == 0, "%s: %u cell starts differ", what, bad_start);
    CHECK_MSG(bad_order == 0, "%s: %u sorted slots differ", what, bad_order);
    CHECK_MSG(bad_next == 0, "%s: %u of the next step's counts differ", what, bad_next);
    CHECK_MSG(blocks == expect_blocks, "%s: %u scan blocks, expected %u", what, blocks,
              expect_blocks);
    free(count), free(start), free(ids), free(initial), free(histogram);
    boids_cpu_grid_free(&g);
    boids_cpu_grid_free(&next);
    boids_world_destroy(w);
}

static void test_default_density(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 20000);
    compare_grid(d, NULL, "default density", 8); /* 119x67 = 7973 cells, + the graveyard */
}

static void test_one_block(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 3000);
    d.width = 1000;
    d.height = 500; /* 19x9 = 171 cells: one workgroup scans them */
    compare_grid(d, NULL, "one workgroup", 1);
}

static void test_clustered(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 5000);
    d.width = 2000;
    d.height = 2000;
    boids_boid *b = malloc(sizeof *b * d.count);
    boids_rng rng = boids_rng_seeded(5);
    for (uint32_t i = 0; i < d.count; ++i) {
        /* Most boids in three dense clumps, one straddling the wrap corner; a few spread out. */
        float cx = (i % 4 == 0) ? 0.0f : (i % 4 == 1) ? 700.0f : (i % 4 == 2) ? 1300.0f : -1.0f;
        float x, y;
        if (cx < 0) {
            x = boids_rng_float(&rng) * d.width;
            y = boids_rng_float(&rng) * d.height;
        } else {
            x = cx + (boids_rng_float(&rng) - 0.5f) * 60.0f;
            y = cx + (boids_rng_float(&rng) - 0.5f) * 60.0f;
        }
        b[i] = (boids_boid){boids_wrap(x, d.width), boids_wrap(y, d.height), 0, 0, 0};
    }
    compare_grid(d, b, "clustered", 2); /* 39x39 + 1 counts */
    free(b);
}

static void test_many_blocks(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 8000);
    d.width = 4000;
    d.height = 4000;
    d.params.reynolds.sep_radius = d.params.reynolds.align_radius =
        d.params.reynolds.cohesion_radius = 10;
    compare_grid(d, NULL, "many blocks (r 10)", 156); /* 399x399 + 1 = 159202 counts */
}

static void test_two_chunks(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 8000);
    d.width = 4000;
    d.height = 4000;
    d.params.reynolds.sep_radius = d.params.reynolds.align_radius =
        d.params.reynolds.cohesion_radius = 2.8f;
    d.params.base.max_speed = 100; /* keep a step shorter than the world */
    /* 1426x1426 = 2033476 cells: more blocks than one chunk of the totals' scan holds */
    CHECK(1426u * 1426u > (uint32_t)BOIDS_SCAN_BLOCK * BOIDS_SCAN_BLOCK);
    compare_grid(d, NULL, "two chunks of totals (r 2.8)", 1986);
}

static void test_block_edges(void)
{
    /* Around one scan block: one cell fewer, exactly, one more. Cells of 10.5 px (a hair more). */
    for (uint32_t cells = BOIDS_SCAN_BLOCK - 1; cells <= BOIDS_SCAN_BLOCK + 1; ++cells) {
        boids_world_def d = test_def(BOIDS_BACKEND_GPU, 2000);
        d.params.reynolds.sep_radius = d.params.reynolds.align_radius =
            d.params.reynolds.cohesion_radius = 10.5f;
        d.width = (float)cells * 10.52f;
        d.height = 10.52f; /* one row of cells */
        d.params.base.max_speed = 100;
        boids_grid_dims g =
            boids_grid_dims_for(d.width, d.height, 0.0f, 10.5f, 10.5f, d.count, true, 1);
        CHECK(g.w == cells && g.h == 1);
        char what[64];
        snprintf(what, sizeof what, "%u cells in one row", g.w * g.h);
        compare_grid(d, NULL, what,
                     g.w * g.h + 1 > BOIDS_SCAN_BLOCK ? 2 : 1); /* cells + 1 counts */
    }
}

/* A state the host writes between two steps replaces the sort the last steering made (and its
 * counts): the next step's grid is the written state's. */
static void test_write_between_steps(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_GPU, 4000);
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_step(w, 2));
    boids_boid *b = malloc(sizeof *b * d.count);
    REQUIRE_OK(boids_world_read(w, b, d.count));
    for (uint32_t i = 0; i < d.count; ++i) /* the flock moved by a third of the world */
        b[i].x = boids_wrap(b[i].x + w->sim.def.width / 3, w->sim.def.width);
    REQUIRE_OK(boids_world_write(w, b, d.count));
    REQUIRE_OK(boids_world_step(w, 1));
    boids_cpu_grid g;
    cpu_grid_of(&g, w, b, d.count);
    uint32_t *count = malloc(sizeof *count * g.cells), *start = malloc(sizeof *start * g.cells);
    uint32_t *histogram = malloc(sizeof *histogram * g.cells);
    uint32_t *ids = malloc(sizeof *ids * d.count);
    REQUIRE_OK(boids_gpu_backend_read_grid(boids_world_backend(w), count, start, ids, histogram));
    uint32_t bad = 0;
    for (uint32_t c = 0; c < g.cells; ++c) bad += count[c] != in_cell(&g, c);
    for (uint32_t k = 0; k < d.count; ++k) bad += ids[k] != g.order[k];
    printf("  a state written between steps: %u counts or slots differ\n", bad);
    CHECK_MSG(bad == 0, "%u counts or slots differ from the written state's grid", bad);
    free(count), free(start), free(histogram), free(ids), free(b);
    boids_cpu_grid_free(&g);
    boids_world_destroy(w);
}

/* The GL commands of a step, as the profile counts them: no clear (the scan leaves the histogram
 * zero: nothing the size of the grid is cleared), and at most 5 dispatches for a model without
 * predators: the scan's two, the scatter, the reorder, the steering (which sorts the boids it
 * moves: no pass of cells), whatever the number of cells (vicsek's 20 000 at 4 per unit area:
 * more blocks than one chunk). Kit
 * clears its catches' count (16 bytes) and sorts its predators too. */
static void test_commands_per_step(void)
{
    const char *models[] = {"shiffman-per-second", "vicsek", "kit"};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; ++m) {
        boids_world_def d = test_def(BOIDS_BACKEND_GPU, 20000);
        REQUIRE_OK(boids_model_from_name(models[m], &d.model));
        d.params = boids_model_default_params(d.model);
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 1)); /* (a written state's first step sorts it anew) */
        boids_world_reset_profile(w);
        REQUIRE_OK(boids_world_step(w, 3));
        boids_profile p;
        boids_world_get_profile(w, &p);

        const bool kit = !strcmp(models[m], "kit");
        const double sort = 5; /* cells, the scan's two, scatter, reorder */
        /* kit: the predators' sort, catches, catches made, stops; the steering; the hunt; the
         * others: the sort but its cells (the steering sorted the boids it moved), the steering */
        const double expect = kit ? 2 * sort + 3 + 1 + 1 : sort - 1 + 1;
        printf("  %-20s %.1f dispatches, %.1f barriers, %.1f clears a step\n", models[m],
               p.dispatches_per_step, p.barriers_per_step, p.clears_per_step);
        CHECK_MSG(p.clears_per_step == (kit ? 1.0 : 0.0), "%s: %.1f clears a step", models[m],
                  p.clears_per_step);
        CHECK_MSG(p.dispatches_per_step == expect, "%s: %.1f dispatches a step, expected %.1f",
                  models[m], p.dispatches_per_step, expect);
        boids_world_reset_profile(w);
        boids_world_get_profile(w, &p);
        CHECK(p.dispatches_per_step == 0 && p.clears_per_step == 0);
        boids_world_destroy(w);
    }
}

TEST_MAIN(TEST(test_default_density), TEST(test_one_block), TEST(test_clustered),
          TEST(test_many_blocks), TEST(test_two_chunks), TEST(test_block_edges),
          TEST(test_commands_per_step), TEST(test_write_between_steps))
