/* The state by column (boids_world_read_columns, what the Python package reads) against the whole
 * state (boids_world_read), for every model on both backends, and on the GPU with the state put in
 * id order on the device, on the host, and wherever the world measured faster: the same bits,
 * column by column, and the same on both places; columns asked for in any order or twice; an
 * unknown column or an attribute the model lacks refused, naming it; write_columns replaces only
 * what it is given. The host's scatter by id (core/id_order.c) alone: the same bits on any number
 * of threads and any size, and slots that do not hold every id once found out. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>

#include "core/id_order.h"
#include "test.h"

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};

/* Where a GPU world orders its reads (BOIDS_GPU_READ; NULL: measured), for one backend's round. */
static const char *const gpu_places[3] = {"device", "host", NULL};

static void test_columns_are_the_state(void)
{
    enum { N = 3000 };
    static boids_boid b[N], first_place[BOIDS_MODEL_COUNT][N];
    static uint32_t cols[8][N];
    for (int round = 0; round < 4; ++round) {
        const int k = round == 0 ? 0 : 1;
        if (backends[k] == BOIDS_BACKEND_GPU && !test_gpu_context()) continue;
        const char *place = k ? gpu_places[round - 1] : "cpu";
        if (k && gpu_places[round - 1]) setenv("BOIDS_GPU_READ", place, 1);
        if (k && !gpu_places[round - 1]) unsetenv("BOIDS_GPU_READ"), place = "measured";
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
            boids_world_def d = test_def(backends[k], N);
            d.model = (boids_model)m;
            d.params = boids_model_default_params(d.model);
            boids_world *w;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_step(w, 7));
            REQUIRE_OK(boids_world_read(w, b, N));
            if (round == 1) memcpy(first_place[m], b, sizeof b);
            if (round > 1)
                CHECK_MSG(!memcmp(first_place[m], b, sizeof b),
                          "%s: the GPU state read %s "
                          "differs from the one read on the device",
                          boids_model_name(d.model), place);
            const char *names[8] = {"vy", "x", "swarm", "y", "vx", "x"};
            int n = 6;
            for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
                if (boids_model_attributes(d.model) & (1u << a))
                    names[n++] = boids_attribute_info_of((boids_attribute)a)->name;
            void *out[8];
            for (int c = 0; c < n; ++c) out[c] = cols[c];
            REQUIRE_OK(boids_world_read_columns(w, names, out, (size_t)n));
            for (int c = 0; c < n; ++c) {
                size_t off = !strcmp(names[c], "x")       ? offsetof(boids_boid, x)
                             : !strcmp(names[c], "y")     ? offsetof(boids_boid, y)
                             : !strcmp(names[c], "vx")    ? offsetof(boids_boid, vx)
                             : !strcmp(names[c], "vy")    ? offsetof(boids_boid, vy)
                             : !strcmp(names[c], "swarm") ? offsetof(boids_boid, swarm)
                                                          : 0;
                for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
                    if (!strcmp(names[c], boids_attribute_info_of((boids_attribute)a)->name))
                        off = boids_attribute_info_of((boids_attribute)a)->offset;
                int same = 1;
                for (int i = 0; i < N; ++i)
                    same &= !memcmp(&cols[c][i], (const char *)&b[i] + off, 4);
                CHECK_MSG(same, "%s on %s (%s): column %s differs from the state",
                          boids_model_name(d.model), k ? "gpu" : "cpu", place, names[c]);
            }
            const char *bad[2] = {"z", "bias"};
            CHECK(boids_world_read_columns(w, bad, out, 1) != BOIDS_OK);
            CHECK(!strcmp(boids_last_error_info()->key, "z"));
            if (!(boids_model_attributes(d.model) & BOIDS_ATTR_BIT(BIAS)))
                CHECK(boids_world_read_columns(w, bad + 1, out, 1) != BOIDS_OK);
            /* write x alone: the rest stays */
            for (int i = 0; i < N; ++i) ((float *)cols[0])[i] = (float)i * 0.5f;
            const char *x[1] = {"x"};
            const void *in[1] = {cols[0]};
            REQUIRE_OK(boids_world_write_columns(w, x, in, 1));
            static boids_boid after[N];
            REQUIRE_OK(boids_world_read(w, after, N));
            int kept = 1;
            for (int i = 0; i < N; ++i)
                kept &= after[i].x == (float)i * 0.5f && after[i].y == b[i].y &&
                        after[i].vx == b[i].vx && after[i].swarm == b[i].swarm;
            CHECK_MSG(kept, "%s: write_columns changed more than x", boids_model_name(d.model));
            boids_world_destroy(w);
        }
    }
}

/* dst[ids[k]] = src[k] by a plain loop, for the scatter to match. */
static void scatter_plain(uint32_t n, const uint32_t *ids, const uint32_t *src, uint32_t *dst)
{
    for (uint32_t k = 0; k < n; ++k) dst[ids[k]] = src[k];
}

static void test_scatter_by_id(void)
{
    enum { MAX = 5000 };
    static uint32_t ids[MAX], src[4 * MAX], swarm[MAX], want[5][MAX], got[5][MAX];
    const uint32_t sizes[] = {0, 1, 1023, 1024, 1025, 3000, MAX};
    boids_pool *pools[3] = {NULL, boids_pool_create(2), boids_pool_create(3)};
    CHECK(pools[1] && pools[2]);
    if (!pools[1] || !pools[2]) return;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        const uint32_t n = sizes[s];
        for (uint32_t i = 0; i < n; ++i) ids[i] = i;
        for (uint32_t i = n; i > 1; --i) { /* a shuffle, seeded */
            const uint32_t r = (uint32_t)((i * 2654435761u) >> 7) % i, t = ids[i - 1];
            ids[i - 1] = ids[r], ids[r] = t;
        }
        for (uint32_t i = 0; i < 4 * n; ++i) src[i] = i * 7919u;
        for (uint32_t i = 0; i < n; ++i) swarm[i] = i % 5;
        const uint32_t *from[5] = {src, src + 1, src + 2, src + 3, swarm};
        const size_t stride[5] = {4, 4, 4, 4, 1};
        uint32_t col[MAX];
        for (int c = 0; c < 5; ++c) {
            for (uint32_t k = 0; k < n; ++k) col[k] = from[c][k * stride[c]];
            scatter_plain(n, ids, col, want[c]);
        }
        for (int p = 0; p < 3; ++p) {
            uint32_t *to[5] = {got[0], got[1], NULL, got[3], got[4]}, bad = 0;
            memset(got, 0xff, sizeof got);
            REQUIRE_OK(boids_scatter_by_id(n, ids, from, stride, to, pools[p], &bad));
            CHECK(bad == UINT32_MAX);
            int same = 1, untouched = 1;
            for (int c = 0; c < 5; ++c)
                for (uint32_t i = 0; i < n; ++i)
                    if (c == 2)
                        untouched &= got[c][i] == 0xffffffffu;
                    else
                        same &= got[c][i] == want[c][i];
            CHECK_MSG(same, "%u ids on %d threads: not the plain scatter's bits", n, p + 1);
            CHECK_MSG(untouched, "%u ids: a column not asked for was written", n);
        }
        if (n < 2) continue;
        uint32_t *to[5] = {got[0], NULL, NULL, NULL, NULL}, bad = 0;
        const uint32_t keep = ids[n - 1];
        ids[n - 1] = ids[0]; /* one id twice, one missing */
        for (int p = 0; p < 3; ++p) {
            REQUIRE_OK(boids_scatter_by_id(n, ids, from, stride, to, pools[p], &bad));
            CHECK_MSG(bad == ids[0], "%u ids on %d threads: id %u twice, found %u", n, p + 1,
                      ids[0], bad);
        }
        ids[n - 1] = n; /* out of range */
        REQUIRE_OK(boids_scatter_by_id(n, ids, from, stride, to, pools[1], &bad));
        CHECK_MSG(bad == n, "%u ids: id %u out of range, found %u", n, n, bad);
        ids[n - 1] = keep;
    }
    boids_pool_destroy(pools[1]);
    boids_pool_destroy(pools[2]);
}

TEST_MAIN(TEST(test_columns_are_the_state), TEST(test_scatter_by_id))
