/* Topological neighbours (boids_world_def.nearest, `neighbours = nearest:K`; Ballerini et al.
 * 2008): the K a boid flocks with are its K nearest of its swarm, whatever their distance, ties by
 * id. Held here: the K the ring search finds are the brute-force K (through Vicsek's mean heading,
 * which is their sum: flat and 3D, K from 1 to 32, sparse worlds where a metric radius would see
 * nobody, two swarms, a wrapping and a bounded world) on both backends; the GPU equals the CPU bit
 * for bit on an IEEE driver for a model of each kind (the Reynolds walk's, Vicsek's, Couzin's own
 * walk), within a tolerance elsewhere; the paper's finding at small size: a flock whose density
 * drops (spread 4 times wider about its centre, as after an attack) comes back together with
 * topological neighbours and falls apart with metric ones; and what is refused. (test_couzin
 * holds Couzin's zones over the nearest against its own oracle.) */
#include "gpu_exact.h"
#include "oracle.h"

static int exact(void) { return test_gpu_exact_on(test_gpu_context()); }

/* A Vicsek world without noise: n particles in L (depth D), K nearest. */
static boids_world_def vicsek_def(boids_backend be, uint32_t n, float L, float D, uint32_t k)
{
    boids_world_def d = test_def(be, n);
    d.model = BOIDS_MODEL_VICSEK;
    d.params = boids_model_default_params(BOIDS_MODEL_VICSEK);
    d.params.vicsek.eta = 0;
    d.width = d.height = L;
    d.depth = D;
    d.dt = 1;
    d.seed = 3;
    d.nearest = k;
    return d;
}

/* Particle i's velocity after one step: v times the heading of its own velocity plus those of its
 * K nearest of its swarm (brute force over every pair, the minimum image where the world wraps).
 * *near is set where the K-th and the next lie within float rounding of each other. */
static boids_d3 oracle(const boids_world_def *d, const boids_boid *b, uint32_t i, bool *near)
{
    enum { MAX = 64 };
    const bool wrap = d->params.base.edges == 0, three = d->depth > 0;
    double best[MAX];
    uint32_t who[MAX], n = 0;
    const uint32_t k = d->nearest;
    for (uint32_t j = 0; j < d->count; ++j) {
        if (j == i || b[j].swarm != b[i].swarm) continue;
        const double dx = (double)b[j].x - b[i].x, dy = (double)b[j].y - b[i].y,
                     dz = three ? (double)b[j].z - b[i].z : 0;
        const double ox = wrap ? boids_oracle_wrap(dx, d->width) : dx,
                     oy = wrap ? boids_oracle_wrap(dy, d->height) : dy,
                     oz = wrap ? boids_oracle_wrap(dz, d->depth) : dz;
        const double d2 = ox * ox + oy * oy + oz * oz;
        if (!(d2 > 0)) continue;
        /* insertion into the k + 1 best (the one after the k-th tells a near tie) */
        uint32_t at;
        if (n < k + 1)
            at = n++;
        else if (d2 < best[k] || (d2 == best[k] && j < who[k]))
            at = k;
        else
            continue;
        for (; at > 0 && (d2 < best[at - 1] || (d2 == best[at - 1] && j < who[at - 1])); --at)
            best[at] = best[at - 1], who[at] = who[at - 1];
        best[at] = d2, who[at] = j;
    }
    *near = n > k && best[k] - best[k - 1] < 1e-5 * best[k];
    boids_d3 s = boids_oracle_velocity(&b[i]);
    for (uint32_t m = 0; m < (n < k ? n : k); ++m)
        s = boids_d3_add(s, boids_oracle_velocity(&b[who[m]]));
    return boids_d3_mul(boids_d3_unit(s), d->params.base.max_speed);
}

static void test_the_nearest_are_the_brute_force_ones(void)
{
    static const struct {
        float L, D;
        uint32_t n, k, swarms;
        bool bounded;
    } cases[] = {{40, 0, 300, 7, 1, false}, {40, 0, 300, 1, 2, false},  {40, 0, 300, 32, 1, false},
                 {40, 0, 300, 7, 2, true},  {15, 15, 400, 7, 1, false}, {15, 15, 400, 20, 2, false},
                 {15, 15, 400, 6, 1, true}, {100, 0, 40, 32, 1, false}};
    for (int be = 0; be < 2; ++be)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            boids_world_def d =
                vicsek_def(backends[be], cases[c].n, cases[c].L, cases[c].D, cases[c].k);
            d.swarms = cases[c].swarms;
            if (cases[c].bounded) d.params.base.edges = 1;
            boids_boid *b = malloc(sizeof *b * d.count), *out = malloc(sizeof *out * d.count);
            random_state(&d, b, 50 + c);
            if (cases[c].bounded) /* a box lets boids stray: some beyond its edges */
                for (uint32_t i = 0; i < d.count; i += 5) {
                    if (i % 10 == 0)
                        b[i].x = -3 - 0.1f * b[i].x;
                    else
                        b[i].y = cases[c].L + 3 + 0.1f * b[i].y;
                }
            step_once(&d, b, out);
            double worst = 0;
            uint32_t ties = 0;
            for (uint32_t i = 0; i < d.count; ++i) {
                bool near;
                const boids_d3 e = oracle(&d, b, i, &near);
                if (near) {
                    ++ties;
                    continue;
                }
                worst = fmax(worst, boids_d3_len(boids_d3_of(out[i].vx - e.x, out[i].vy - e.y,
                                                             out[i].vz - e.z)));
            }
            const double v = d.params.base.max_speed;
            printf("  %s %s, %u particles in %g%s, nearest:%u, %u swarm%s%s: worst off the brute "
                   "force %.2g of v (%u near ties)\n",
                   names[be], cases[c].D > 0 ? "3D" : "flat", d.count, (double)cases[c].L,
                   cases[c].D > 0 ? "^3" : "^2", cases[c].k, cases[c].swarms,
                   cases[c].swarms > 1 ? "s" : "", cases[c].bounded ? ", bounded" : "", worst / v,
                   ties);
            CHECK_MSG(worst < 1e-5 * v, "%s case %zu: the K chosen are not the K nearest",
                      names[be], c);
            CHECK_MSG(ties * 20 < d.count, "case %zu: %u near ties", c, ties);
            free(b), free(out);
        }
}

/* Steps of world d on the CPU and on the GPU (d's backend set to each): how many boids end the
 * same bit for bit, and in *worst the largest |dv| between the two. */
static uint32_t gpu_against_cpu(boids_world_def d, uint32_t steps, double *worst)
{
    boids_boid *out[2] = {NULL, NULL};
    uint32_t same = 0;
    *worst = INFINITY;
    for (int be = 0; be < 2; ++be) {
        d.backend = backends[be];
        d.gl = be ? test_gpu_context() : NULL;
        boids_world *w = NULL;
        out[be] = malloc(sizeof *out[be] * d.count);
        boids_status st = boids_world_create(&d, &w);
        if (st == BOIDS_OK) st = boids_world_step(w, steps);
        if (st == BOIDS_OK) st = boids_world_read(w, out[be], d.count);
        boids_world_destroy(w);
        CHECK_MSG(st == BOIDS_OK, "%s: %s", names[be], boids_last_error());
        if (st != BOIDS_OK) goto done;
    }
    *worst = 0;
    for (uint32_t i = 0; i < d.count; ++i) {
        same += memcmp(&out[0][i], &out[1][i], sizeof out[0][i]) == 0;
        *worst = fmax(*worst, boids_d3_len(boids_d3_of(out[0][i].vx - out[1][i].vx,
                                                       out[0][i].vy - out[1][i].vy,
                                                       out[0][i].vz - out[1][i].vz)));
    }
done:
    free(out[0]), free(out[1]);
    return same;
}

/* 30 steps (3 under the sanitizers) of a world of nearest:7 on both backends: the same bits on an
 * IEEE driver, else every boid within 1e-3 of the speed scale after one step. */
static void test_the_gpu_steps_as_the_cpu(void)
{
    static const struct {
        boids_model model;
        uint32_t n;
        float L, D;
        uint32_t swarms;
    } cases[] = {{BOIDS_MODEL_SHIFFMAN_PER_SECOND, 3000, 1700, 0, 2},
                 {BOIDS_MODEL_ADAMS, 2000, 1400, 0, 1},
                 {BOIDS_MODEL_SHIFFMAN_PER_SECOND, 3000, 300, 300, 1},
                 {BOIDS_MODEL_VICSEK, 2000, 20, 20, 1},
                 {BOIDS_MODEL_COUZIN, 500, 40, 40, 1},
                 {BOIDS_MODEL_COUZIN, 300, 60, 0, 2},
                 /* small zones in a sparse world: many cells, the K nearest rings away */
                 {BOIDS_MODEL_COUZIN, 500, 40, 40, 0},
                 {BOIDS_MODEL_COUZIN, 300, 100, 0, 0}};
    const bool bitwise = exact() == 1;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const uint32_t steps = bitwise ? test_steps(30) : 1;
        boids_world_def d = test_def(BOIDS_BACKEND_CPU, cases[c].n);
        d.model = cases[c].model;
        d.params = boids_model_default_params(d.model);
        d.width = d.height = cases[c].L, d.depth = cases[c].D;
        d.swarms = cases[c].swarms ? cases[c].swarms : 1, d.nearest = 7, d.seed = 11;
        if (!cases[c].swarms) { /* r_a = 2 */
            d.params.couzin.repulsion_radius = 0.5f;
            d.params.couzin.orientation_width = d.params.couzin.attraction_width = 0.75f;
        }
        double worst;
        const uint32_t same = gpu_against_cpu(d, steps, &worst);
        printf("  %-20s %s nearest:7, %u swarm%s%s, %u steps: %u/%u bit for bit, worst |dv| %.2g\n",
               boids_model_name(cases[c].model), cases[c].D > 0 ? "3D" : "flat",
               cases[c].swarms ? cases[c].swarms : 1, cases[c].swarms > 1 ? "s" : "",
               cases[c].swarms ? "" : ", r_a 2", steps, same, cases[c].n, worst);
        if (bitwise)
            CHECK_MSG(same == cases[c].n, "%s: the GPU's nearest differ from the CPU's",
                      boids_model_name(cases[c].model));
        else
            CHECK_MSG(worst < 1e-3 * d.params.base.max_speed, "%s: the GPU is off the CPU by %g",
                      boids_model_name(cases[c].model), worst);
    }
}

/* Worlds long along z (3D) and along y (flat), 300 boids at nearest:32: a boid's 32 nearest lie
 * about 200 rings of cells away, each ring 2 cells. The GPU steps them as the CPU does (the
 * same bits on an IEEE driver, else within 1e-3 of the speed scale after one step); its search
 * stepped through every layer or row of the block each ring, O(r^2) loop iterations, which ran
 * past llvmpipe's count and was refused ("a neighbourhood held more than ... boids"). And a plane
 * 3 px thick: its cells were sized by the cube root of its thin volume, 250 000 of them where the
 * 32 nearest lie across most, and the GPU's search was refused past the count. */
static void test_worlds_long_along_y_or_z(void)
{
    static const struct {
        boids_model model;
        float W, H, D;
    } cases[] = {{BOIDS_MODEL_VICSEK, 3, 3, 1e5f},
                 {BOIDS_MODEL_COUZIN, 3, 3, 1e5f},
                 {BOIDS_MODEL_COUZIN, 3, 1e6f, 0},
                 {BOIDS_MODEL_VICSEK, 1e7f, 1e7f, 3}};
    const bool bitwise = exact() == 1;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const uint32_t steps = bitwise ? 10 : 1;
        boids_world_def d = test_def(BOIDS_BACKEND_CPU, 300);
        d.model = cases[c].model;
        d.params = boids_model_default_params(d.model);
        d.width = cases[c].W, d.height = cases[c].H, d.depth = cases[c].D;
        d.nearest = 32, d.seed = 4;
        double worst;
        const uint32_t same = gpu_against_cpu(d, steps, &worst);
        char size[64];
        snprintf(size, sizeof size, d.depth > 0 ? "%gx%gx%g" : "%gx%g", (double)d.width,
                 (double)d.height, (double)d.depth);
        printf("  %-8s %-11s nearest:32, %u steps: %u/%u bit for bit, worst |dv| %.2g\n",
               boids_model_name(d.model), size, steps, same, d.count, worst);
        if (bitwise)
            CHECK_MSG(same == d.count, "%s %zu: the GPU's nearest differ from the CPU's",
                      boids_model_name(d.model), c);
        else
            CHECK_MSG(worst < 1e-3 * d.params.base.max_speed,
                      "%s %zu: the GPU is off the CPU by %g", boids_model_name(d.model), c, worst);
    }
}

/* Ballerini et al.'s finding at small size: 200 boids of the default model flock into one group in
 * a 400 px box (1200 steps); spread 4 times wider about their centre (a density change, as a
 * predator's attack scatters a flock; the K nearest of each are then the same boids) into a
 * 3000 px box, they run 1200 steps more. With nearest:7 they come back into a few groups; with
 * the metric radii (50 px), most have lost every neighbour and the flock falls apart. Groups:
 * boids linked within the model's alignment radius (the metrics'). Three seeds, on the CPU
 * (the test above holds the GPU equal). */
static void groups_after(const boids_boid *start, uint32_t n, uint32_t nearest, uint64_t seed,
                         uint32_t *groups)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, n);
    d.width = d.height = 3000, d.nearest = nearest, d.seed = seed;
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_write(w, start, n));
    REQUIRE_OK(boids_world_step(w, 1200));
    boids_metrics m;
    REQUIRE_OK(boids_world_metrics(w, &m, 1));
    boids_world_destroy(w);
    *groups = m.groups;
}

static void test_a_topological_flock_stays_together(void)
{
    enum { N = 200 };
    uint32_t metric = 0, topological = 0;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        boids_world_def d = test_def(BOIDS_BACKEND_CPU, N);
        d.width = d.height = 400, d.seed = seed;
        boids_world *w = NULL;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 1200));
        boids_metrics m;
        REQUIRE_OK(boids_world_metrics(w, &m, 1));
        CHECK_MSG(m.groups == 1, "seed %llu: %u groups before the spread, not one flock",
                  (unsigned long long)seed, m.groups);
        boids_boid b[N];
        REQUIRE_OK(boids_world_read(w, b, N));
        boids_world_destroy(w);
        /* the centre on the torus (each axis' circular mean), then 4 times the offsets from it */
        double c[2];
        for (int a = 0; a < 2; ++a) {
            double sx = 0, sy = 0;
            for (uint32_t i = 0; i < N; ++i) {
                const double t = 2 * PI * (a ? b[i].y : b[i].x) / 400;
                sx += cos(t), sy += sin(t);
            }
            c[a] = fmod(atan2(sy, sx) + 2 * PI, 2 * PI) * 400 / (2 * PI);
        }
        for (uint32_t i = 0; i < N; ++i) {
            b[i].x = (float)(1500 + 4 * boids_oracle_wrap(b[i].x - c[0], 400));
            b[i].y = (float)(1500 + 4 * boids_oracle_wrap(b[i].y - c[1], 400));
        }
        uint32_t gm = 0, gt = 0;
        groups_after(b, N, 0, seed, &gm);
        groups_after(b, N, 7, seed, &gt);
        printf("  seed %llu: after the spread, %u groups with metric neighbours, %u with the 7 "
               "nearest\n",
               (unsigned long long)seed, gm, gt);
        metric += gm, topological += gt;
    }
    CHECK_MSG(topological <= 5 * 3, "the topological flocks ended in %u groups (3 runs)",
              topological);
    CHECK_MSG(metric >= 3 * topological,
              "the metric flocks (%u groups) did not fall apart more "
              "than the topological ones (%u)",
              metric, topological);
}

/* What is refused, naming the key: more than BOIDS_MAX_NEAREST, and kit (its view field is its
 * own walk, which has no nearest reading). */
static void test_refusals(void)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, 100);
    d.nearest = BOIDS_MAX_NEAREST + 1;
    boids_world *w = NULL;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
    CHECK(boids_last_error_info()->id == BOIDS_E_DEF_NEAREST &&
          strcmp(boids_last_error_info()->key, "nearest") == 0);
    d.nearest = BOIDS_MAX_NEAREST;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_world_destroy(w);
    d.model = BOIDS_MODEL_KIT, d.params = boids_model_default_params(BOIDS_MODEL_KIT);
    d.nearest = 7, w = NULL;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
    CHECK(boids_last_error_info()->id == BOIDS_E_DEF_NEAREST);
    printf("  refused: %s\n", boids_last_error());
}

TEST_MAIN(TEST(test_the_nearest_are_the_brute_force_ones), TEST(test_the_gpu_steps_as_the_cpu),
          TEST(test_worlds_long_along_y_or_z), TEST(test_a_topological_flock_stays_together),
          TEST(test_refusals))
