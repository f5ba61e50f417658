/* The state by column (boids_world_read_columns, what the Python package reads) against the whole
 * state (boids_world_read), for every model on both backends: the same bits, column by column;
 * columns asked for in any order or twice; an unknown column or an attribute the model lacks
 * refused, naming it; write_columns replaces only what it is given. */
#include "test.h"

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};

static void test_columns_are_the_state(void)
{
    enum { N = 3000 };
    static boids_boid b[N];
    static uint32_t cols[8][N];
    for (int k = 0; k < 2; ++k) {
        if (backends[k] == BOIDS_BACKEND_GPU && !test_gpu_context()) continue;
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
            boids_world_def d = test_def(backends[k], N);
            d.model = (boids_model)m;
            d.params = boids_model_default_params(d.model);
            boids_world *w;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_step(w, 7));
            REQUIRE_OK(boids_world_read(w, b, N));
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
                CHECK_MSG(same, "%s on %s: column %s differs from the state",
                          boids_model_name(d.model), k ? "gpu" : "cpu", names[c]);
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

TEST_MAIN(TEST(test_columns_are_the_state))
