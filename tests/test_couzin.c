/* couzin against its paper (Couzin et al. 2002; docs/models.md (couzin)), not just GPU against
 * CPU: one step of random groups, flat and 3D, from the model's equations in double precision by
 * brute force, on both backends, with each reading the paper leaves open, obstacles, swarms and
 * topological neighbours (orientation and attraction over the K nearest perceived beyond r_r); the
 * noise's law (a lone individual's desired direction turned by a wrapped Gaussian); the largest
 * turn and the blind volume, exactly; and the paper's collective states in their order as delta r_o
 * grows (swarm, torus, parallel) with its collective memory (a parallel group stays parallel where
 * one formed from a swarm mills). */
#include "oracle.h"

/* A world of the couzin preset: n individuals in an L-box (depth D, 0: flat), wrapping, tau 0.1. */
static boids_world_def couzin_def(boids_backend be, uint32_t n, float L, float D)
{
    boids_world_def d = test_def(be, n);
    d.model = BOIDS_MODEL_COUZIN;
    d.params = boids_model_default_params(BOIDS_MODEL_COUZIN);
    d.width = d.height = L;
    d.depth = D;
    d.dt = 0.1f; /* tau */
    d.seed = 9;
    return d;
}

/* Individual i's velocity after one step, from the paper's equations with our readings
 * (docs/models.md (couzin)). *near is set where a float's rounding could take the other branch
 * of a comparison (a zone's edge, the blind volume's, the turn's limit): such individuals are
 * left out of the comparison. */
static d3 oracle(const boids_world_def *d, const boids_boid *b, uint32_t n, uint32_t i, bool *near)
{
    const boids_couzin_params *p = &d->params.couzin;
    const bool three = d->depth > 0;
    const double eps = 2e-5; /* float rounding is ~1e-7 of these distances */
    const double rr = p->repulsion_radius, ro = rr + p->orientation_width,
                 ra = ro + p->attraction_width, half = p->perception / 2 * PI / 180;
    const d3 v = velocity_of(&b[i]), u = d3_unit(v);
    d3 rep = d3_of(0, 0, 0), ori = d3_of(0, 0, 0), att = d3_of(0, 0, 0);
    int n_r = 0, n_o = 0, n_a = 0;
    *near = false;
    /* nearest:K: the perceived beyond r_r, to be sorted (distance, then id), the K first taken */
    const uint32_t k = d->nearest;
    typedef struct {
        double dist;
        uint32_t j;
        d3 off;
    } beyond;
    beyond *far = k ? malloc(sizeof *far * n) : NULL;
    uint32_t n_far = 0;
    for (uint32_t j = 0; j < n; ++j) {
        const d3 off = d3_of(wrapd((double)b[j].x - b[i].x, d->width),
                             wrapd((double)b[j].y - b[i].y, d->height),
                             three ? wrapd((double)b[j].z - b[i].z, d->depth) : 0);
        const double dist = d3_len(off);
        if (j == i || !(dist > 0)) continue;
        *near |= fabs(dist - rr) < eps || fabs(dist - ro) < eps || (!k && fabs(dist - ra) < eps);
        if (dist >= ra && !k) continue;
        const bool repel = dist < rr;
        if (!repel && b[j].swarm != b[i].swarm) continue; /* another swarm: repulsion only */
        if (d3_len(v) > 0 && (p->blind_repulsion != 0 || !repel)) {
            const double angle = acos(fmax(-1, fmin(1, d3_dot(u, off) / dist)));
            *near |= fabs(angle - half) < eps;
            if (angle > half) continue; /* in the blind volume */
        }
        if (repel)
            rep = d3_add(rep, d3_mul(off, -1 / dist)), ++n_r; /* eq. 1 */
        else if (k)
            far[n_far++] = (beyond){dist, j, off};
        else if (dist < ro)
            ori = d3_add(ori, d3_unit(velocity_of(&b[j]))), ++n_o; /* eq. 2 */
        else
            att = d3_add(att, d3_mul(off, 1 / dist)), ++n_a; /* eq. 3 */
    }
    for (uint32_t m = 0; k && m < k && m < n_far; ++m) { /* selection: the m-th nearest */
        uint32_t best = m;
        for (uint32_t q = m + 1; q < n_far; ++q)
            if (far[q].dist < far[best].dist ||
                (far[q].dist == far[best].dist && far[q].j < far[best].j))
                best = q;
        const beyond t = far[m];
        far[m] = far[best], far[best] = t;
        if (far[m].dist < ro)
            ori = d3_add(ori, d3_unit(velocity_of(&b[far[m].j]))), ++n_o;
        else
            att = d3_add(att, d3_mul(far[m].off, 1 / far[m].dist)), ++n_a;
    }
    if (k && n_far > k) { /* the K-th and the next within rounding: either may be chosen */
        double next = INFINITY;
        for (uint32_t q = k; q < n_far; ++q) next = fmin(next, far[q].dist);
        *near |= next - far[k - 1].dist < eps;
    }
    free(far);
    if (p->own_heading != 0 && n_o > 0) ori = d3_add(ori, u);
    d3 want = n_r > 0              ? rep
              : n_o > 0 && n_a > 0 ? d3_mul(d3_add(d3_unit(ori), d3_unit(att)), 0.5)
              : n_o > 0            ? ori
              : n_a > 0            ? att
                                   : u;
    if (d3_len(want) < 1e-5) *near = true; /* a sum that (nearly) cancels */
    if (!(d3_len(want) > 0)) want = d3_len(u) > 0 ? u : d3_of(1, 0, 0);
    const d3 w0 = d3_unit(want);
    /* the noise: the wrapped Gaussian from draws 0 and 1 */
    const double rho = p->noise * sqrt(-2 * log(1 - draw(d->seed, i, 0)));
    const double phi = (draw(d->seed, i, 1) * 360 - 180) * PI / 180;
    d3 dir;
    if (!three) {
        const double a = atan2(w0.y, w0.x) + rho * cos(phi);
        dir = d3_of(cos(a), sin(a), 0);
    } else { /* polar angle rho at azimuth phi, about the basis of Duff et al. around w0 */
        const double sign = w0.z < 0 ? -1 : 1, a = -1 / (sign + w0.z), bb = w0.x * w0.y * a;
        const d3 b1 = d3_of(1 + sign * w0.x * w0.x * a, sign * bb, -sign * w0.x);
        const d3 b2 = d3_of(bb, sign + w0.y * w0.y * a, -w0.y);
        const d3 t = d3_add(d3_mul(b1, cos(phi)), d3_mul(b2, sin(phi)));
        dir = d3_add(d3_mul(w0, cos(rho)), d3_mul(t, sin(rho)));
    }
    /* the turn: at most theta tau */
    const double turn = fmin(p->turning_rate * d->dt, 180) * PI / 180;
    d3 h = dir;
    if (d3_len(v) > 0) {
        const double angle = acos(fmax(-1, fmin(1, d3_dot(u, dir))));
        *near |= fabs(angle - turn) < eps || angle > PI - eps;
        if (angle > turn) {
            const d3 side = d3_unit(d3_add(dir, d3_mul(u, -d3_dot(u, dir))));
            h = d3_add(d3_mul(u, cos(turn)), d3_mul(side, sin(turn)));
        }
    }
    d3 nv = d3_mul(d3_unit(h), d->params.base.max_speed);
    /* the obstacles' push e (obstacle_factor times the unit vectors from the centres within
     * obstacle_radius): s Theta[v + e tau] */
    const boids_obstacles_params *ob = &d->params.obstacles;
    d3 e = d3_of(0, 0, 0);
    for (uint32_t o = 0; o < d->obstacle_count; ++o) {
        const d3 off = d3_of(wrapd((double)b[i].x - d->obstacles[o].x, d->width),
                             wrapd((double)b[i].y - d->obstacles[o].y, d->height),
                             three ? wrapd((double)b[i].z - d->obstacles[o].z, d->depth) : 0);
        const double len = d3_len(off);
        *near |= fabs(len - ob->obstacle_radius) < eps;
        if (len > 0 && len < ob->obstacle_radius)
            e = d3_add(e, d3_mul(off, ob->obstacle_factor / len));
    }
    if (d3_len(e) > 0) nv = d3_mul(d3_unit(d3_add(nv, d3_mul(e, d->dt))), d->params.base.max_speed);
    return nv;
}

/* Every individual of a step of d from b against the oracle: its velocity and its move (x +
 * tau v). Those near a branch's edge are counted and left out; they must be few. */
static void check_step(const boids_world_def *d, const boids_boid *b, const char *what)
{
    boids_boid *out = malloc(sizeof *out * d->count);
    step_once(d, b, out);
    const double s = d->params.base.max_speed, tau = d->dt;
    double worst_v = 0, worst_p = 0;
    uint32_t skipped = 0;
    for (uint32_t i = 0; i < d->count; ++i) {
        bool near;
        const d3 e = oracle(d, b, d->count, i, &near);
        if (near) {
            ++skipped;
            continue;
        }
        worst_v = fmax(worst_v, d3_len(d3_of(out[i].vx - e.x, out[i].vy - e.y, out[i].vz - e.z)));
        worst_p = fmax(
            worst_p,
            d3_len(d3_of(wrapd(out[i].x - (b[i].x + tau * e.x), d->width),
                         wrapd(out[i].y - (b[i].y + tau * e.y), d->height),
                         d->depth > 0 ? wrapd(out[i].z - (b[i].z + tau * e.z), d->depth) : 0)));
    }
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
                const d3 v = velocity_of(&out[0]);
                const double angle = atan2(three ? v.z : v.y, v.x);
                const double want = c == 0 ? turn : c == 4 ? -turn : 0;
                CHECK_MSG(fabs(angle - want) < 1e-6 && fabs(d3_len(v) - 3) < 1e-6 &&
                              fabs(three ? v.y : v.z) < 1e-7,
                          "%s %s case %d: turned %g degrees (speed %g), not %g", names[k],
                          three ? "3D" : "flat", c, angle * 180 / PI, d3_len(v), want * 180 / PI);
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
                const d3 u = d3_unit(velocity_of(&b[i])), w = d3_unit(velocity_of(&out[i]));
                const double dot = d3_dot(u, w);
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
