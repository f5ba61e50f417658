/* vicsek against its paper (Vicsek et al. 1995; docs/models.md (vicsek)), not just GPU against CPU:
 * one step of random flocks, flat and 3D, with the angular and the vectorial noise, against its
 * oracle (src/models/vicsek/oracle.c: the formulas in double precision by brute force), on both
 * backends; the noise's own law (a lone
 * particle turns uniformly within [-eta/2, eta/2], or onto the cap of 2 eta steradians); the edge
 * cases the paper leaves open (a sum of headings that cancels, a particle at rest); and the shape
 * of the paper's figure 2a at small sizes: ordered at low noise, near the finite-size floor at
 * high noise, monotone within the runs' spread, and sharper for the larger system. */
#include "oracle.h"

/* A world of the vicsek preset: n particles in an L-box (depth D, 0: flat), wrapping. */
static boids_world_def vicsek_def(boids_backend be, uint32_t n, float L, float D)
{
    return preset_def(be, BOIDS_MODEL_VICSEK, n, L, D, 5);
}

/* Every particle of a step of d from b against the oracle: its velocity and its move. */
static void check_step(const boids_world_def *d, const boids_boid *b, const char *what)
{
    boids_boid *out = malloc(sizeof *out * d->count);
    step_once(d, b, out);
    const double v0 = d->params.base.max_speed;
    double worst_v, worst_p;
    const uint32_t skipped = oracle_step_errors(d, b, out, &worst_v, &worst_p);
    const char *be = names[d->backend == BOIDS_BACKEND_GPU];
    printf("  %-54s %s: worst off the equations: v %.2g, x %.2g of v\n", what, be, worst_v / v0,
           worst_p / v0);
    /* the velocity to float rounding; the move to a position's ulp (5e-7 at x ~ 5: 2e-5 v) */
    CHECK_MSG(worst_v < 1e-5 * v0 && worst_p < 1e-4 * v0, "%s (%s): %g, %g of v off the equations",
              what, be, worst_v / v0, worst_p / v0);
    CHECK_MSG(skipped == 0, "%s: %u at an edge (the oracle has none)", what, skipped);
    CHECK(test_state_finite(out, d->count));
    free(out);
}

static void test_random_flocks_match_the_equations(void)
{
    static const struct {
        float depth, eta, vectorial;
        int obstacles;
    } cases[] = {{0, 0.5f, 0, 0}, {0, 2, 0, 0},    {0, 6.2831853f, 0, 0}, {0, 9, 0, 0},
                 {0, 0.3f, 1, 0}, {0, 1.5f, 1, 0}, {0, 1, 0, 2},          {0, 0.5f, 1, 2},
                 {5, 0.5f, 0, 0}, {5, 3, 0, 0},    {5, 7, 0, 0},          {5, 0.4f, 1, 0},
                 {5, 2, 0, 2}};
    /* two obstacles (the preset's reach, 3, and a push of about v): circles, or spheres */
    const boids_obstacle obstacles[2] = {{2, 3, 1, 0, 0}, {4.5f, 1, 0.5f, 0, 0}};
    boids_obstacle deep[2];
    for (int o = 0; o < 2; ++o) deep[o] = obstacles[o], deep[o].z = 2.5f;
    for (int k = 0; k < 2; ++k)
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            const bool three = cases[c].depth > 0;
            /* dense enough that every particle has neighbours, across the wrap */
            boids_world_def d =
                vicsek_def(backends[k], three ? 600 : 300, three ? 5 : 7, cases[c].depth);
            d.params.vicsek.eta = cases[c].eta, d.params.vicsek.vectorial = cases[c].vectorial;
            d.obstacles = three ? deep : obstacles, d.obstacle_count = (uint32_t)cases[c].obstacles;
            boids_boid *b = malloc(sizeof *b * d.count);
            random_state(&d, b, 30 + c);
            char what[96];
            snprintf(what, sizeof what, "%s, %u particles, %s noise, eta %g%s",
                     three ? "3D" : "flat", d.count,
                     cases[c].vectorial != 0 ? "vectorial" : "angular", (double)cases[c].eta,
                     cases[c].obstacles ? ", 2 obstacles" : "");
            check_step(&d, b, what);
            free(b);
        }
}

/* What the paper leaves open: two particles alone with opposite headings (their sum cancels:
 * each keeps its own), and a particle at rest (it heads along +x); without noise, exactly. */
static void test_what_the_paper_leaves_open(void)
{
    for (int k = 0; k < 2; ++k)
        for (int three = 0; three < 2; ++three) {
            boids_world_def d = vicsek_def(backends[k], 3, 20, three ? 20.0f : 0.0f);
            d.params.vicsek.eta = 0;
            boids_boid b[3] = {{5, 5, 0.03f, 0, 0}, {5.5f, 5, -0.03f, 0, 0}, {15, 15, 0, 0, 0}};
            for (int i = 0; i < 3; ++i) b[i].alive = 1, b[i].z = three ? 10.0f : 0.0f;
            if (three) b[0].vx = 0.0f, b[0].vz = 0.03f, b[1].vx = 0.0f, b[1].vz = -0.03f;
            boids_boid out[3];
            step_once(&d, b, out);
            double off = 0; /* (its heading at length v: an ulp from the bits it had) */
            for (int i = 0; i < 2; ++i)
                off = fmax(off, boids_d3_len(boids_d3_of(out[i].vx - b[i].vx, out[i].vy - b[i].vy,
                                                         out[i].vz - b[i].vz)));
            CHECK_MSG(off < 1e-8, "%s %s: a cancelling pair turned (%g %g %g, %g %g %g)", names[k],
                      three ? "3D" : "flat", out[0].vx, out[0].vy, out[0].vz, out[1].vx, out[1].vy,
                      out[1].vz);
            const double rest_off =
                boids_d3_len(boids_d3_of(out[2].vx - 0.03, out[2].vy, out[2].vz));
            CHECK_MSG(rest_off < 1e-8, "%s %s: the particle at rest heads %g %g %g", names[k],
                      three ? "3D" : "flat", out[2].vx, out[2].vy, out[2].vz);
            /* the vectorial noise of a cancelling pair: the noise alone, Theta[eta n xi] */
            d.params.vicsek.vectorial = 1, d.params.vicsek.eta = 0.5f;
            check_step(&d, b,
                       three ? "3D cancelling pair, vectorial noise"
                             : "flat cancelling pair, vectorial noise");
        }
}

/* The noise's law: lone particles (no neighbour within r) turn by the noise alone. Flat: the turn
 * is uniform in [-eta/2, eta/2]; 3D: the cosine of the turn is uniform in [1 - eta / pi, 1] and
 * its azimuth about the old heading uniform all round. The quartiles and extremes of 4000 turns,
 * on both backends; every speed v. */
static void test_lone_particles_turn_as_the_noise_says(void)
{
    enum { N = 4000 };
    static double t[N];
    for (int k = 0; k < 2; ++k)
        for (int three = 0; three < 2; ++three) {
            const float eta = 2.5f;
            boids_world_def d = vicsek_def(backends[k], N, 2000, three ? 2000.0f : 0.0f);
            d.params.vicsek.eta = eta, d.params.vicsek.radius = 1e-3f; /* alone, all of them */
            boids_boid *b = malloc(sizeof *b * N), *out = malloc(sizeof *out * N);
            random_state(&d, b, 77);
            step_once(&d, b, out);
            static double azimuth[N];
            double speed_off = 0;
            for (uint32_t i = 0; i < N; ++i) {
                const double dot = (double)b[i].vx * out[i].vx + (double)b[i].vy * out[i].vy +
                                   (double)b[i].vz * out[i].vz,
                             v2 = 0.03 * 0.03;
                speed_off = fmax(
                    speed_off,
                    fabs(boids_d3_len(boids_d3_of(out[i].vx, out[i].vy, out[i].vz)) - 0.03) / 0.03);
                /* the turn's azimuth about the old heading u, from a reference of our own (the
                 * plane's projection of z), not the rules' basis: uniform if the basis is */
                const boids_d3 u = boids_d3_mul(boids_d3_of(b[i].vx, b[i].vy, b[i].vz), 1 / 0.03);
                boids_d3 a = boids_d3_of(-u.z * u.x, -u.z * u.y, 1 - u.z * u.z);
                a = boids_d3_mul(a, 1 / boids_d3_len(a));
                const boids_d3 c = boids_d3_of(u.y * a.z - u.z * a.y, u.z * a.x - u.x * a.z,
                                               u.x * a.y - u.y * a.x);
                const boids_d3 w = boids_d3_of(out[i].vx, out[i].vy, out[i].vz);
                azimuth[i] =
                    atan2(w.x * c.x + w.y * c.y + w.z * c.z, w.x * a.x + w.y * a.y + w.z * a.z);
                if (three)
                    t[i] = dot / v2; /* cos of the turn */
                else
                    t[i] = atan2((double)b[i].vx * out[i].vy - (double)b[i].vy * out[i].vx, dot);
            }
            qsort(t, N, sizeof t[0], cmp_double);
            /* the uniform law's extremes and quartiles, within 3 sigma of a quartile's spread */
            const double lo = three ? 1 - eta / PI : -eta / 2.0, hi = three ? 1 : eta / 2.0;
            const double span = hi - lo, tol = 3 * span * sqrt(0.1875 / N) + 1e-6;
            double worst = fmax(fabs(t[0] - lo), fabs(t[N - 1] - hi)) / span * 50; /* ~1/N */
            for (int q = 1; q < 4; ++q)
                worst = fmax(worst, fabs(t[q * N / 4] - (lo + span * q / 4)) / tol);
            if (three) { /* the azimuth uniform in [-pi, pi): its quartiles */
                qsort(azimuth, N, sizeof azimuth[0], cmp_double);
                const double atol = 3 * 2 * PI * sqrt(0.1875 / N);
                for (int q = 1; q < 4; ++q)
                    CHECK_MSG(fabs(azimuth[q * N / 4] - (-PI + PI * q / 2)) < atol,
                              "%s 3D: the turn's azimuth's quartile %d is %g", names[k], q,
                              azimuth[q * N / 4]);
            }
            CHECK_MSG(speed_off < 1e-6, "%s: a speed off v by %g of it", names[k], speed_off);
            printf("  %s %s lone particles, eta %.1f: turns within [%.4f, %.4f] of [%.4f, %.4f], "
                   "quartiles %.3f %.3f %.3f\n",
                   names[k], three ? "3D" : "flat", (double)eta, t[0], t[N - 1], lo, hi, t[N / 4],
                   t[N / 2], t[3 * N / 4]);
            CHECK_MSG(t[0] >= lo - 1e-5 && t[N - 1] <= hi + 1e-5 && worst <= 1,
                      "%s %s: the turns are not uniform over [%g, %g]", names[k],
                      three ? "3D" : "flat", lo, hi);
            free(b), free(out);
        }
}

/* v_a = |sum v_i| / (N v) (the polarization), its mean over steps [from, steps] of a run. */
static void mean_va(boids_world_def d, uint32_t seed, uint32_t from, uint32_t steps, double *va)
{
    d.seed = seed;
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_step(w, from));
    double sum = 0;
    int samples = 0;
    for (uint32_t s = from; s <= steps; s += 50) {
        boids_metrics m;
        REQUIRE_OK(boids_world_metrics(w, &m, 1));
        sum += m.polarization, ++samples;
        if (s + 50 <= steps) REQUIRE_OK(boids_world_step(w, 50));
    }
    boids_world_destroy(w);
    *va = sum / samples;
}

/* Figure 2a's shape at rho = 4 for N = 40 (L = 3.1) and N = 400 (L = 10): v_a near 1 at low
 * noise; near the finite-size floor at high noise (a random heading's sqrt(pi / 4N)); falling
 * with eta within the runs' spread; and the larger system's fall the sharper (lower beyond the
 * transition, as the paper's curves for larger N). On the CPU (the figure's own command runs
 * either backend; test_agreement holds the two equal). */
static void test_figure_2a_shape(void)
{
    if (test_sanitized()) { /* statistics of the CPU step the tests above run */
        printf("  not under the sanitizers: 120 runs for statistics of the step run above\n");
        return;
    }
    static const float etas[] = {0.25f, 1, 2, 3, 4, 5};
    enum { E = sizeof etas / sizeof etas[0] };
    static const struct {
        uint32_t n, runs;
        float L;
    } sizes[2] = {{40, 16, 3.1f}, {400, 4, 10}};
    double va[2][E], se[2][E];
    for (int s = 0; s < 2; ++s) {
        boids_world_def d = vicsek_def(BOIDS_BACKEND_CPU, sizes[s].n, sizes[s].L, 0);
        for (int e = 0; e < E; ++e) {
            d.params.vicsek.eta = etas[e];
            double sum = 0, sum2 = 0;
            for (uint32_t r = 0; r < sizes[s].runs; ++r) {
                double x = 0;
                mean_va(d, 1 + r, 1000, 2000, &x);
                sum += x, sum2 += x * x;
            }
            const double n = sizes[s].runs, mean = sum / n;
            va[s][e] = mean;
            se[s][e] = sqrt(fmax(0, sum2 / n - mean * mean) / (n - 1));
        }
        printf("  N = %3u, L = %.1f:", sizes[s].n, (double)sizes[s].L);
        for (int e = 0; e < E; ++e)
            printf(" eta %.2g v_a %.3f+-%.3f", (double)etas[e], va[s][e], se[s][e]);
        printf("\n");
        const double floor = sqrt(PI / (4.0 * sizes[s].n));
        CHECK_MSG(va[s][0] > 0.95, "N %u: v_a %g at eta 0.25, not ordered", sizes[s].n, va[s][0]);
        CHECK_MSG(va[s][E - 1] < 2.0 * floor, "N %u: v_a %g at eta 5, not near the floor %g",
                  sizes[s].n, va[s][E - 1], floor);
        for (int e = 1; e < E; ++e)
            CHECK_MSG(va[s][e] <= va[s][e - 1] + 2 * (se[s][e] + se[s][e - 1]),
                      "N %u: v_a rises from %g to %g between eta %g and %g", sizes[s].n,
                      va[s][e - 1], va[s][e], (double)etas[e - 1], (double)etas[e]);
    }
    for (int e = E - 2; e < E; ++e) /* beyond the transition: the larger system is lower */
        CHECK_MSG(va[1][e] + 2 * (se[0][e] + se[1][e]) < va[0][e],
                  "eta %g: N 400's v_a %g is not below N 40's %g", (double)etas[e], va[1][e],
                  va[0][e]);
    CHECK_MSG(va[1][0] - va[1][E - 1] > va[0][0] - va[0][E - 1],
              "the larger system's fall is not the sharper");
}

TEST_MAIN(TEST(test_random_flocks_match_the_equations), TEST(test_what_the_paper_leaves_open),
          TEST(test_lone_particles_turn_as_the_noise_says), TEST(test_figure_2a_shape))
