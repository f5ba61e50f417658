/* couzin against its paper (Couzin et al. 2002; docs/models.md (couzin)), not just GPU against
 * CPU: one step of random groups, flat and 3D, against its oracle (src/models/couzin/oracle.c: the
 * model's equations in double precision by brute force), on both backends, with each reading the
 * paper leaves open, obstacles, swarms and topological neighbours (orientation and attraction over
 * the K nearest perceived beyond r_r); the noise's law (a lone individual's desired direction
 * turned by a wrapped Gaussian); the largest turn and the blind volume, exactly; and the paper's
 * collective states in their order as delta r_o grows (swarm, torus, parallel) with its collective
 * memory (a parallel group stays parallel where one formed from a swarm mills). */
#include "oracle.h"

/* A world of the couzin preset: n individuals in an L-box (depth D, 0: flat), wrapping, tau 0.1. */
static boids_world_def couzin_def(boids_backend be, uint32_t n, float L, float D)
{
    boids_world_def d = preset_def(be, BOIDS_MODEL_COUZIN, n, L, D, 9);
    d.dt = 0.1f; /* tau */
    return d;
}

/* Every individual of a step of d from b against the oracle: its velocity and its move (x +
 * tau v). Those near a branch's edge are counted and left out; they must be few. */
static void check_step(const boids_world_def *d, const boids_boid *b, const char *what)
{
    boids_boid *out = malloc(sizeof *out * d->count);
    step_once(d, b, out);
    const double s = d->params.base.max_speed, tau = d->dt;
    double worst_v, worst_p;
    const uint32_t skipped = oracle_step_errors(d, b, out, &worst_v, &worst_p);
    const char *be = names[d->backend == BOIDS_BACKEND_GPU];
    printf("  %-72s %s: worst off the equations: v %.2g, x %.2g of s tau (%u near an edge)\n", what,
           be, worst_v / s, worst_p / (s * tau), skipped);
    /* the velocity to float rounding (the log, cos and sin polynomials: ~1e-6); the move to a
     * position's ulp */
    CHECK_MSG(worst_v < 2e-5 * s && worst_p < 1e-4 * s * tau,
              "%s (%s): %g, %g of s off the equations", what, be, worst_v / s, worst_p / (s * tau));
    CHECK_MSG(skipped * 20 < d->count, "%s: %u of %u near an edge", what, skipped, d->count);
    CHECK(test_state_finite(out, d->count));
    free(out);
}

static void test_random_groups_match_the_equations(void)
{
    static const struct {
        float depth, noise, own, blind_rep, perception;
        int obstacles; /* -k: no obstacles, k swarms; 100 + k: nearest:6, k swarms (0: 1) */
    } cases[] = {{0, 0.05f, 1, 1, 270, 0},   {0, 0.5f, 0, 1, 270, 0},   {0, 0.05f, 1, 0, 200, 0},
                 {0, 3, 1, 1, 360, 0},       {0, 0.05f, 1, 1, 270, 2},  {8, 0.05f, 1, 1, 270, 0},
                 {8, 0.4f, 0, 0, 270, 0},    {8, 2, 1, 1, 300, 0},      {8, 0.05f, 1, 1, 90, 0},
                 {8, 0.05f, 1, 1, 270, 2},   {0, 0.05f, 1, 1, 270, -3}, {8, 0.05f, 1, 1, 270, -3},
                 {0, 0.05f, 1, 1, 270, 100}, {8, 0.3f, 0, 0, 270, 100}, {8, 0.05f, 1, 1, 270, 103}};
    /* two obstacles (the preset's reach, 5, and push, 30): circles, or spheres */
    const boids_obstacle obstacles[2] = {{3, 4, 1, 0, 0}, {6, 1.5f, 0.5f, 0, 0}};
    boids_obstacle deep[2];
    for (int o = 0; o < 2; ++o) deep[o] = obstacles[o], deep[o].z = 4;
    for (int k = 0; k < 2; ++k)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            const bool three = cases[c].depth > 0;
            /* r_r 1, r_o 2.5, r_a 4.5: dense enough that most have someone in every zone */
            boids_world_def d =
                couzin_def(backends[k], three ? 500 : 250, three ? 8 : 16, cases[c].depth);
            d.params.couzin.orientation_width = 1.5f, d.params.couzin.attraction_width = 2;
            d.params.couzin.noise = cases[c].noise, d.params.couzin.own_heading = cases[c].own;
            d.params.couzin.blind_repulsion = cases[c].blind_rep;
            d.params.couzin.perception = cases[c].perception;
            const int k_ob = cases[c].obstacles;
            const bool topo = k_ob >= 100;
            d.obstacles = three ? deep : obstacles;
            d.obstacle_count = k_ob > 0 && !topo ? (uint32_t)k_ob : 0;
            d.swarms = k_ob < 0 ? (uint32_t)-k_ob : k_ob > 100 ? (uint32_t)(k_ob - 100) : 1;
            d.nearest = topo ? 6 : 0;
            if (topo) { /* small zones: the grid's many cells, the 6 nearest rings away */
                d.params.couzin.repulsion_radius = 0.3f;
                d.params.couzin.orientation_width = d.params.couzin.attraction_width = 0.5f;
            }
            boids_boid *b = malloc(sizeof *b * d.count);
            random_state(&d, b, 40 + c);
            char what[160];
            snprintf(what, sizeof what,
                     "%s, %u individuals, sigma %g, alpha %g, own heading %g, blind rep. %g%s",
                     three ? "3D" : "flat", d.count, (double)cases[c].noise,
                     (double)cases[c].perception, (double)cases[c].own, (double)cases[c].blind_rep,
                     topo       ? (d.swarms > 1 ? ", nearest:6, 3 swarms" : ", nearest:6")
                     : k_ob > 0 ? ", 2 obstacles"
                     : k_ob < 0 ? ", 3 swarms"
                                : "");
            check_step(&d, b, what);
            free(b);
        }
}

/* The largest turn and the blind volume, without noise, exactly: an individual heading +x with
 * one neighbour in its zone of attraction straight to its left turns theta tau = 4 degrees
 * towards it; one behind (in the blind volume, alpha = 270) leaves it as it was, even within
 * r_r; with blind_repulsion = 0 one behind within r_r turns it away (20 degrees wanted: by
 * exactly 4). In the plane of a flat world and along z in a 3D one. */
static void test_the_turn_and_the_blind_volume(void)
{
    for (int k = 0; k < 2; ++k)
        for (int three = 0; three < 2; ++three) {
            boids_world_def d = couzin_def(backends[k], 2, 100, three ? 100.0f : 0.0f);
            d.params.couzin.noise = 0;
            const float z = three ? 50.0f : 0.0f;
            /* the neighbour: left (+y) at 10 (attraction); behind at 10 or at 0.5; 160 degrees
             * round at 0.5 (behind, to the left: its repulsion points 20 degrees right) */
            const float at[4][2] = {{0, 10}, {-10, 0}, {-0.5f, 0}, {-0.46984631f, 0.17101007f}};
            const double turn = 4 * PI / 180;
            for (int c = 0; c < 5; ++c) {
                const int where = c < 4 ? c : 3;
                d.params.couzin.blind_repulsion = c == 4 ? 0.0f : 1.0f;
                boids_boid b[2] = {{50, 50, 3, 0, 0},
                                   {50 + at[where][0], 50 + at[where][1], 3, 0, 0}};
                for (int i = 0; i < 2; ++i) b[i].alive = 1, b[i].z = z;
                if (three) /* the left turned to +z */
                    b[1].y = 50, b[1].z = z + at[where][1];
                boids_boid out[2];
                step_once(&d, b, out);
                const boids_d3 v = boids_oracle_velocity(&out[0]);
                const double angle = atan2(three ? v.z : v.y, v.x);
                const double want = c == 0 ? turn : c == 4 ? -turn : 0;
                CHECK_MSG(fabs(angle - want) < 1e-6 && fabs(boids_d3_len(v) - 3) < 1e-6 &&
                              fabs(three ? v.y : v.z) < 1e-7,
                          "%s %s case %d: turned %g degrees (speed %g), not %g", names[k],
                          three ? "3D" : "flat", c, angle * 180 / PI, boids_d3_len(v),
                          want * 180 / PI);
            }
        }
}

/* The noise's law: lone individuals (nobody within r_a), their heading turned by the noise alone
 * (theta large enough that the turn is never cut): flat, the turn is N(0, sigma^2); 3D, its angle
 * has Rayleigh's law, P(angle <= x) = 1 - exp(-x^2 / (2 sigma^2)). Kolmogorov-Smirnov against the
 * law, 4000 turns, on both backends. */
static void test_lone_individuals_turn_as_the_noise_says(void)
{
    enum { N = 4000 };
    static double t[N];
    const double sigma = 0.3;
    for (int k = 0; k < 2; ++k)
        for (int three = 0; three < 2; ++three) {
            boids_world_def d = couzin_def(backends[k], N, 4000, three ? 4000.0f : 0.0f);
            d.params.couzin.noise = (float)sigma, d.params.couzin.turning_rate = 1e4f;
            d.params.couzin.orientation_width = d.params.couzin.attraction_width = 0;
            d.params.couzin.repulsion_radius = 1e-3f; /* alone, all of them */
            boids_boid *b = malloc(sizeof *b * N), *out = malloc(sizeof *out * N);
            random_state(&d, b, 78);
            step_once(&d, b, out);
            for (uint32_t i = 0; i < N; ++i) {
                const boids_d3 u = boids_d3_unit(boids_oracle_velocity(&b[i])),
                               w = boids_d3_unit(boids_oracle_velocity(&out[i]));
                const double dot = boids_d3_dot(u, w);
                t[i] = three ? acos(fmax(-1, fmin(1, dot)))
                             : atan2(u.x * w.y - u.y * w.x, dot); /* signed, in the plane */
            }
            qsort(t, N, sizeof t[0], cmp_double);
            double ks = 0, mean = 0, var = 0;
            for (uint32_t i = 0; i < N; ++i) {
                const double F = three ? 1 - exp(-t[i] * t[i] / (2 * sigma * sigma))
                                       : 0.5 * erfc(-t[i] / (sigma * sqrt(2.0)));
                ks = fmax(ks, fmax(fabs(F - (double)i / N), fabs(F - (double)(i + 1) / N)));
                mean += t[i] / N, var += t[i] * t[i] / N;
            }
            /* KS at the 0.1 % level: 1.95 / sqrt(N) */
            printf("  %s %s lone individuals, sigma %.2f: KS distance %.4f (limit %.4f), mean "
                   "%.4f, rms %.4f\n",
                   names[k], three ? "3D" : "flat", sigma, ks, 1.95 / sqrt(N), mean, sqrt(var));
            CHECK_MSG(ks < 1.95 / sqrt(N), "%s %s: the turns are not the wrapped Gaussian's",
                      names[k], three ? "3D" : "flat");
            free(b), free(out);
        }
}

/* Polarization and milling, each the mean over the samples every 50 steps of steps [from, to]
 * of the world w, which has run `from` steps. */
static void mean_state(boids_world *w, uint32_t from, uint32_t to, double *p, double *m)
{
    double sp = 0, sm = 0;
    int samples = 0;
    for (uint32_t s = from; s <= to; s += 50) {
        boids_metrics x;
        REQUIRE_OK(boids_world_metrics(w, &x, 1));
        sp += x.polarization, sm += x.milling, ++samples;
        if (s + 50 <= to) REQUIRE_OK(boids_world_step(w, 50));
    }
    *p = sp / samples, *m = sm / samples;
}

/* The paper's collective states at its parameters (N = 100, 3D, delta r_a = 14), the means of
 * four runs of 2000 steps over their second half: a swarm at delta r_o = 0 (neither polarized
 * nor milling), a torus at 1.5 (milling, not polarized), a highly parallel group at 10; and the
 * collective memory: a group that turned parallel at delta r_o = 10, brought to 1.5, stays
 * parallel, where groups that formed at 1.5 mill. On the CPU (test_agreement holds the GPU
 * equal). */
static void test_the_states_and_their_memory(void)
{
    static const float widths[3] = {0, 1.5f, 10};
    enum { RUNS = 4 };
    double p[4] = {0}, m[4] = {0};
    for (uint32_t r = 0; r < RUNS; ++r) {
        for (int c = 0; c < 4; ++c) {
            boids_world_def d = couzin_def(BOIDS_BACKEND_CPU, 100, 100, 100); /* the preset's */
            d.threads = 1, d.seed = 1 + r;
            d.params.couzin.orientation_width = c < 3 ? widths[c] : widths[2];
            boids_world *w = NULL;
            REQUIRE_OK(boids_world_create(&d, &w));
            if (c == 3) { /* parallel first, then delta r_o = 1.5 */
                REQUIRE_OK(boids_world_step(w, 2000));
                REQUIRE_OK(boids_world_set_param(w, "orientation_width", "1.5"));
            }
            REQUIRE_OK(boids_world_step(w, 1000));
            double pp = 0, mm = 0;
            mean_state(w, 1000, 2000, &pp, &mm);
            p[c] += pp / RUNS, m[c] += mm / RUNS;
            boids_world_destroy(w);
        }
    }
    printf("  swarm (delta r_o 0): polarization %.3f, milling %.3f\n", p[0], m[0]);
    printf("  torus (1.5): %.3f, %.3f; parallel (10): %.3f, %.3f\n", p[1], m[1], p[2], m[2]);
    printf("  1.5 after 10: polarization %.3f, milling %.3f\n", p[3], m[3]);
    CHECK_MSG(p[0] < 0.3 && m[0] < 0.4, "delta r_o 0 is not a swarm");
    CHECK_MSG(p[1] < 0.3 && m[1] > 0.6, "delta r_o 1.5 is not a torus");
    CHECK_MSG(p[2] > 0.95 && m[2] < 0.2, "delta r_o 10 is not highly parallel");
    CHECK_MSG(p[3] > 0.8 && m[3] < 0.3, "a parallel group brought to 1.5 forgot its state");
}

TEST_MAIN(TEST(test_random_groups_match_the_equations), TEST(test_the_turn_and_the_blind_volume),
          TEST(test_lone_individuals_turn_as_the_noise_says),
          TEST(test_the_states_and_their_memory))
