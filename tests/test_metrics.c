/* boids_world_metrics on both backends against a brute-force reference written here (every pair:
 * nearest neighbours, and groups by a flood fill over the pairs within the group radius), per
 * replica, with caught boids left out: small flocks in a torus and in a box (some boids outside
 * it), flat and in 3D, several replicas, one boid alone, none; then GPU against CPU on a flock of
 * 20 000 that has flocked for a while, flat and in 3D, and a stopped replica still measured. */
#include "core/geometry.h"
#include "core/rng.h"
#include "test.h"

typedef struct ref {
    uint32_t alive, groups;
    double polarization, mean_nn, mean_speed, min_speed, max_speed;
} ref;

static double delta(double d, double size, bool wrap)
{
    if (!wrap) return d;
    return d > size / 2 ? d - size : d < -size / 2 ? d + size : d;
}

/* The reference for boids b[0..n) (one replica). */
/* The distance from p to q, minimum image where wrap; z counted where D > 0 (a 3D world). */
static double distance(const boids_boid *p, const boids_boid *q, double W, double H, double D,
                       bool wrap)
{
    const double dx = delta((double)q->x - p->x, W, wrap), dy = delta((double)q->y - p->y, H, wrap);
    const double dz = D > 0 ? delta((double)q->z - p->z, D, wrap) : 0.0;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The reference for boids b[0..n) (one replica) of a W x H world, x D where D > 0. */
static ref reference(const boids_boid *b, uint32_t n, double W, double H, double D, bool wrap,
                     double radius)
{
    ref r = {0};
    uint32_t *idx = malloc(sizeof *idx * (n + 1)), *label = malloc(sizeof *label * (n + 1));
    uint32_t *stack = malloc(sizeof *stack * (n + 1));
    for (uint32_t i = 0; i < n; ++i)
        if (b[i].alive) idx[r.alive++] = i;
    double hx = 0, hy = 0, hz = 0, nn = 0, sp = 0;
    r.min_speed = r.alive ? INFINITY : 0;
    for (uint32_t a = 0; a < r.alive; ++a) {
        const boids_boid *p = &b[idx[a]];
        const double vz = D > 0 ? p->vz : 0.0;
        double s = sqrt((double)p->vx * p->vx + (double)p->vy * p->vy + vz * vz), best = INFINITY;
        sp += s;
        r.min_speed = fmin(r.min_speed, s);
        r.max_speed = fmax(r.max_speed, s);
        if (s > 0) hx += p->vx / s, hy += p->vy / s, hz += vz / s;
        for (uint32_t c = 0; c < r.alive; ++c)
            if (c != a) best = fmin(best, distance(p, &b[idx[c]], W, H, D, wrap));
        nn += r.alive > 1 ? best : 0;
        label[a] = UINT32_MAX;
    }
    for (uint32_t a = 0; a < r.alive; ++a) { /* flood fill */
        if (label[a] != UINT32_MAX) continue;
        uint32_t top = 0;
        stack[top++] = a;
        label[a] = r.groups;
        while (top) {
            uint32_t u = stack[--top];
            for (uint32_t c = 0; c < r.alive; ++c) {
                if (label[c] != UINT32_MAX) continue;
                if (distance(&b[idx[u]], &b[idx[c]], W, H, D, wrap) <= radius)
                    label[c] = r.groups, stack[top++] = c;
            }
        }
        r.groups++;
    }
    if (r.alive) {
        r.polarization = sqrt(hx * hx + hy * hy + hz * hz) / r.alive;
        r.mean_nn = nn / r.alive;
        r.mean_speed = sp / r.alive;
    }
    free(idx), free(label), free(stack);
    return r;
}

static double rel(double a, double b) { return fabs(a - b) / fmax(1e-9, fmax(fabs(a), fabs(b))); }

/* Holds a world's metrics against the reference, replica by replica. */
static void check_world(boids_world *w, const char *what, double tol)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_boid *b = malloc(sizeof *b * (info.count + 1));
    boids_metrics *m = malloc(sizeof *m * info.replicas);
    REQUIRE_OK(boids_world_read(w, b, info.count));
    REQUIRE_OK(boids_world_metrics(w, m, info.replicas));
    const uint32_t per = info.count / info.replicas;
    const double radius = boids_model_group_radius(info.model, &info.params);
    const bool wrap = info.params.base.edges == BOIDS_EDGES_WRAP;
    double worst = 0;
    for (uint32_t r = 0; r < info.replicas; ++r) {
        ref e =
            reference(b + (size_t)r * per, per, info.width, info.height, info.depth, wrap, radius);
        CHECK_MSG(m[r].alive == e.alive && m[r].groups == e.groups,
                  "%s replica %u: %u alive, %u groups; reference %u, %u", what, r, m[r].alive,
                  m[r].groups, e.alive, e.groups);
        double d =
            fmax(fmax(rel(m[r].polarization, e.polarization), rel(m[r].mean_nn, e.mean_nn)),
                 fmax(rel(m[r].mean_speed, e.mean_speed),
                      fmax(rel(m[r].min_speed, e.min_speed), rel(m[r].max_speed, e.max_speed))));
        worst = fmax(worst, d);
        CHECK_MSG(d <= tol,
                  "%s replica %u: %.3g off the reference (nn %.9g vs %.9g, pol %.9g vs %.9g)", what,
                  r, d, m[r].mean_nn, e.mean_nn, m[r].polarization, e.polarization);
        CHECK(m[r].step == info.steps);
    }
    printf("  %-40s %s: %u replica%s, worst relative difference %.2g; replica 0: %u alive, %u "
           "groups, NN %.3f px\n",
           what, info.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", info.replicas,
           info.replicas == 1 ? "" : "s", worst, m[0].alive, m[0].groups, m[0].mean_nn);
    free(b), free(m);
}

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};

static void test_small_flocks_against_brute_force(void)
{
    for (int k = 0; k < 2; ++k) {
        /* a torus: 4 replicas of 300, kit (caught boids, a group radius of its view) after 40 steps
         */
        boids_world_def d = test_def(backends[k], 1200);
        d.model = BOIDS_MODEL_KIT;
        d.params = boids_model_default_params(d.model);
        d.params.kit.view_radius = 60, d.params.predators.pred_view_radius = 60;
        d.params.kit.predator_radius = 60, d.params.obstacles.obstacle_radius = 60;
        d.params.predators.predators = 20, d.params.predators.boid_size = 15,
        d.params.predators.stop_after_catches = 6;
        d.replicas = 4;
        d.layout = BOIDS_LAYOUT_UNIFORM;
        boids_world *w;
        for (int three = 0; three < 2; ++three) { /* (3D: the predators hunt in a box) */
            d.width = three ? 400 : 1000, d.height = three ? 300 : 700, d.depth = three ? 200 : 0;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_step(w, 40));
            boids_replica_status rs[4];
            REQUIRE_OK(boids_world_replicas(w, rs, 4, NULL));
            CHECK_MSG(rs[0].stopped || rs[1].stopped || rs[2].stopped || rs[3].stopped,
                      "no replica stopped");
            check_world(w,
                        three ? "3D kit, 4 replicas, catches, some stopped"
                              : "kit, 4 replicas, catches, some stopped",
                        1e-5);
            boids_world_destroy(w);
        }
        /* a box that boids leave (adams, margins off), flocked, flat and in 3D */
        for (int three = 0; three < 2; ++three) {
            d = test_def(backends[k], three ? 600 : 800);
            d.model = BOIDS_MODEL_ADAMS;
            d.params = boids_model_default_params(d.model);
            d.params.adams.turn_factor = 0;
            d.width = three ? 400 : 600, d.height = three ? 300 : 400, d.depth = three ? 200 : 0;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_step(w, three ? 200 : 300));
            check_world(w, three ? "3D adams, a box boids leave" : "adams, a box boids leave",
                        1e-5);
            boids_world_destroy(w);
        }
        /* 3D: a torus of 3 replicas of 400, flocked; then one replica of one boid */
        d = test_def(backends[k], 1200);
        d.width = 500, d.height = 400, d.depth = 300;
        d.replicas = 3;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 60));
        check_world(w, "3D, 3 replicas", 1e-5);
        boids_world_destroy(w);
        d = test_def(backends[k], 1);
        REQUIRE_OK(boids_world_create(&d, &w));
        check_world(w, "one boid", 1e-6);
        boids_world_destroy(w);
        d = test_def(backends[k], 0);
        REQUIRE_OK(boids_world_create(&d, &w));
        boids_metrics m;
        REQUIRE_OK(boids_world_metrics(w, &m, 1));
        CHECK(m.alive == 0 && m.groups == 0 && m.mean_nn == 0 && m.polarization == 0);
        boids_world_destroy(w);
    }
}

/* Hand-placed: three groups in a torus, one across the seam; a boid at rest. */
static void test_hand_placed_groups(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 7);
        d.width = 1000, d.height = 800; /* shiffman-per-second: group radius align_radius = 50 */
        boids_boid b[7] = {
            {5, 100, 60, 0, 0},    {985, 100, 60, 0, 0}, /* 20 px apart across the seam */
            {500, 400, 0, 70, 0},  {540, 400, 0, 70, 0}, {590, 400, 0, 0, 0}, /* a chain: 40, 50 */
            {200, 700, -80, 0, 0}, {200, 751, -80, 0, 0}}; /* 51 px: two groups */
        for (int i = 0; i < 7; ++i) b[i].alive = 1;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, b, 7));
        boids_metrics m;
        REQUIRE_OK(boids_world_metrics(w, &m, 1));
        CHECK_MSG(m.groups == 4, "%u groups, expected 4", m.groups);
        CHECK(fabs(m.mean_nn - (20 + 20 + 40 + 40 + 50 + 51 + 51) / 7.0) < 1e-4);
        CHECK(m.min_speed == 0 && m.max_speed == 80);
        boids_world_destroy(w);
    }
}

/* A flock flying as one: polarization 1, never past it (the GPU's float sums of rounded unit
 * headings could reach 1.00000006). */
static void test_polarization_at_most_one(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], 3000);
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        boids_boid *b = malloc(sizeof *b * d.count);
        REQUIRE_OK(boids_world_read(w, b, d.count));
        for (uint32_t i = 0; i < d.count; ++i)
            b[i].vx = 77.7f, b[i].vy = 33.3f; /* one heading, not a round one */
        REQUIRE_OK(boids_world_write(w, b, d.count));
        boids_metrics m;
        REQUIRE_OK(boids_world_metrics(w, &m, 1));
        CHECK_MSG(m.polarization <= 1.0 && m.polarization > 0.999999, "%s: polarization %.9g",
                  backends[k] == BOIDS_BACKEND_GPU ? "gpu" : "cpu", m.polarization);
        free(b);
        boids_world_destroy(w);
    }
}

/* GPU against CPU on a flocked state of 20 000 (both from the same state), flat and in a 3D cube
 * of the same spacing between boids. */
static void test_gpu_equals_cpu_on_a_flock(void)
{
    for (int three = 0; three < 2; ++three) {
        boids_world_def d = test_def(BOIDS_BACKEND_CPU, 20000);
        if (three) d.width = d.height = d.depth = 860;
        boids_world *c, *g;
        REQUIRE_OK(boids_world_create(&d, &c));
        REQUIRE_OK(boids_world_step(c, three ? 150 : 300));
        boids_boid *b = malloc(sizeof *b * d.count);
        REQUIRE_OK(boids_world_read(c, b, d.count));
        d.backend = BOIDS_BACKEND_GPU;
        d.gl = test_gpu_context();
        REQUIRE_OK(boids_world_create(&d, &g));
        REQUIRE_OK(boids_world_write(g, b, d.count));
        boids_metrics mc, mg;
        REQUIRE_OK(boids_world_metrics(c, &mc, 1));
        REQUIRE_OK(boids_world_metrics(g, &mg, 1));
        printf("  20000 boids%s after %u steps: NN %.6f vs %.6f px, polarization %.6f vs %.6f, "
               "%u vs %u groups\n",
               three ? " in 3D" : "", three ? 150 : 300, mc.mean_nn, mg.mean_nn, mc.polarization,
               mg.polarization, mc.groups, mg.groups);
        CHECK(mc.alive == mg.alive && mc.groups == mg.groups);
        CHECK(rel(mc.mean_nn, mg.mean_nn) < 1e-5 && rel(mc.polarization, mg.polarization) < 1e-4);
        CHECK(rel(mc.mean_speed, mg.mean_speed) < 1e-5 && rel(mc.min_speed, mg.min_speed) < 1e-6 &&
              rel(mc.max_speed, mg.max_speed) < 1e-6);
        /* the GPU's milling sums in floats: cos and sin of 20 000 angles, then offsets about it */
        printf("  milling %.6f vs %.6f\n", mc.milling, mg.milling);
        CHECK(fabs(mc.milling - mg.milling) < 1e-3);
        free(b);
        boids_world_destroy(c);
        boids_world_destroy(g);
    }
}

/* A replica's metrics do not depend on how many replicas share its world: each replica of a kit
 * world of 4, after catches, measures the same bits as a world of its own holding the same boids
 * and predators, on both backends. (The experiments' tables rest on this: any batch size and
 * shard layout gives the same rows.) */
static void test_replica_count_does_not_change_metrics(void)
{
    enum { R = 4, PER = 300, NP = 5 };
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], R * PER);
        d.model = BOIDS_MODEL_KIT;
        d.params = boids_model_default_params(d.model);
        d.params.kit.view_radius = 60, d.params.predators.pred_view_radius = 60;
        d.params.kit.predator_radius = 60, d.params.obstacles.obstacle_radius = 60;
        d.params.predators.predators = NP, d.params.predators.boid_size = 15;
        d.width = 1000, d.height = 700;
        d.replicas = R;
        d.layout = BOIDS_LAYOUT_UNIFORM;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 40));
        static boids_boid b[R * PER];
        boids_predator p[R * NP];
        boids_metrics all[R];
        REQUIRE_OK(boids_world_read(w, b, R * PER));
        REQUIRE_OK(boids_world_read_predators(w, p, R * NP));
        REQUIRE_OK(boids_world_metrics(w, all, R));
        boids_world_destroy(w);
        d.count = PER;
        d.replicas = 1;
        int same = 0;
        for (int r = 0; r < R; ++r) {
            boids_metrics one;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_write(w, b + r * PER, PER));
            REQUIRE_OK(boids_world_write_predators(w, p + r * NP, NP));
            REQUIRE_OK(boids_world_metrics(w, &one, 1));
            boids_world_destroy(w);
            const boids_metrics *a = &all[r];
            const bool eq = a->alive == one.alive && a->groups == one.groups &&
                            memcmp(&a->polarization, &one.polarization, 5 * sizeof(double)) == 0;
            CHECK_MSG(eq,
                      "%s replica %d: alone %u alive, %u groups, NN %.9g; among %d: %u, %u, %.9g",
                      backends[k] == BOIDS_BACKEND_GPU ? "gpu" : "cpu", r, one.alive, one.groups,
                      one.mean_nn, R, a->alive, a->groups, a->mean_nn);
            same += eq;
        }
        printf("  %s: %d of %d replicas measure the same bits alone (%u alive in replica 0)\n",
               backends[k] == BOIDS_BACKEND_GPU ? "gpu" : "cpu", same, R, all[0].alive);
        CHECK(all[0].alive < PER); /* catches happened: the dead are left out alike */
    }
}

/* Metrics that make a GPU invocation loop long: right, or refused with BOIDS_E_GPU_LOOP_LIMIT
 * where the driver caps loops (llvmpipe), never a wrong number. Two clumps of 15 000 boids each,
 * 60 px apart, joined only through one boid (align_radius 50) whose slot comes first: its
 * invocation meets all 30 000 (the groups once came out 2 without a word); and 100 boids strewn
 * along a 100 x 10^7 px world, whose nearest neighbours lie thousands of cells away (the mean
 * was once 1.9e-3 off). */
static void test_long_loops_are_right_or_refused(void)
{
    enum { CLUMP = 15000, N = 2 * CLUMP + 1 };
    boids_boid *b = calloc(N, sizeof *b);
    boids_rng rng = boids_rng_seeded(7);
    b[0] = (boids_boid){500, 290, 10, 0, 0}; /* the bridge: a row of cells before the clumps */
    for (int i = 1; i < N; ++i) {
        const double a = boids_rng_float(&rng) * 6.283185307, r = 3 * boids_rng_float(&rng);
        b[i] = (boids_boid){(float)((i <= CLUMP ? 470 : 530) + r * cos(a)),
                            (float)(320 + r * sin(a)), 10, 0, 0};
    }
    for (int i = 0; i < N; ++i) b[i].alive = 1;
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], N);
        d.width = d.height = 1000;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, b, N));
        boids_metrics m;
        boids_status st = boids_world_metrics(w, &m, 1);
        CHECK_MSG(st == BOIDS_OK ? m.groups == 1
                                 : boids_last_error_info()->id == BOIDS_E_GPU_LOOP_LIMIT,
                  "%s: two clumps and their bridge: %s %u groups (expected 1)", k ? "gpu" : "cpu",
                  st == BOIDS_OK ? "" : boids_last_error(), m.groups);
        printf("  two clumps and a bridge, %s: %u groups%s\n", k ? "gpu" : "cpu", m.groups,
               st == BOIDS_OK ? "" : " (refused: the driver's loop limit)");
        boids_world_destroy(w);
    }
    free(b);
    enum { SPARSE = 100 };
    boids_boid s[SPARSE];
    for (int i = 0; i < SPARSE; ++i)
        s[i] = (boids_boid){(float)(100 * boids_rng_float(&rng)),
                            (float)(1e7 * boids_rng_float(&rng)),
                            5,
                            5,
                            0,
                            .alive = 1};
    const ref e = reference(s, SPARSE, 100, 1e7, 0, true, 50);
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], SPARSE);
        d.width = 100, d.height = 1e7f;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_write(w, s, SPARSE));
        boids_metrics m;
        boids_status st = boids_world_metrics(w, &m, 1);
        CHECK_MSG(st == BOIDS_OK ? rel(m.mean_nn, e.mean_nn) <= 1e-5 && m.groups == e.groups
                                 : boids_last_error_info()->id == BOIDS_E_GPU_LOOP_LIMIT,
                  "%s: 100 x 1e7 world: %s nn %.9g (reference %.9g), %u groups (%u)",
                  k ? "gpu" : "cpu", st == BOIDS_OK ? "" : boids_last_error(), m.mean_nn, e.mean_nn,
                  m.groups, e.groups);
        printf("  100 boids in 100 x 1e7 px, %s: mean nn %.6g px (reference %.6g)%s\n",
               k ? "gpu" : "cpu", m.mean_nn, e.mean_nn,
               st == BOIDS_OK ? "" : " (refused: the driver's loop limit)");
        boids_world_destroy(w);
    }
}

/* Worlds a few px thin and 10^7 long, in each direction: measured, on both backends, as the
 * reference measures them. Their grids' cells are as thin as the world, and both searches once
 * stepped along the long axis by the thin side: the CPU's groups took seconds, the GPU's nearest
 * neighbours ran past llvmpipe's loop limit (refused: exit 1 after a run that had worked). */
static void test_thin_worlds_are_measured(void)
{
    enum { N = 300 };
    static const float sizes[4][3] = {{3, 3, 1e7f}, {1e7f, 3, 3}, {3, 1e7f, 0}, {1e7f, 1e7f, 3}};
    boids_rng rng = boids_rng_seeded(11);
    for (int t = 0; t < 4; ++t) {
        const float *S = sizes[t];
        boids_boid b[N];
        for (int i = 0; i < N; ++i)
            b[i] = (boids_boid){(float)(S[0] * boids_rng_float(&rng)),
                                (float)(S[1] * boids_rng_float(&rng)),
                                5,
                                5,
                                0,
                                .alive = 1,
                                .z = (float)(S[2] * boids_rng_float(&rng))};
        const ref e = reference(b, N, S[0], S[1], S[2], true, 50);
        for (int k = 0; k < 2; ++k) {
            boids_world_def d = test_def(backends[k], N);
            d.width = S[0], d.height = S[1], d.depth = S[2];
            d.params.base.min_speed = 0, d.params.base.max_speed = 1; /* under 3 px a step */
            boids_world *w = NULL;
            boids_metrics m = {0};
            boids_status st = boids_world_create(&d, &w);
            if (st == BOIDS_OK) st = boids_world_write(w, b, N);
            if (st == BOIDS_OK) st = boids_world_metrics(w, &m, 1);
            CHECK_MSG(st == BOIDS_OK && rel(m.mean_nn, e.mean_nn) <= 1e-5 && m.groups == e.groups,
                      "%s, %gx%gx%g: %s nn %.9g (reference %.9g), %u groups (%u)",
                      k ? "gpu" : "cpu", S[0], S[1], S[2], st == BOIDS_OK ? "" : boids_last_error(),
                      m.mean_nn, e.mean_nn, m.groups, e.groups);
            boids_world_destroy(w);
        }
        printf("  %g x %g x %g px: mean nn %.6g px, %u groups on both backends\n", S[0], S[1], S[2],
               e.mean_nn, e.groups);
    }
}

/* Milling: boids on a ring circling its centre one way mill (1), half each way or flying straight
 * do not (0), a ring across a torus's seam is measured about its circular mean, on both backends,
 * flat and in 3D (a ring in the tilted plane x = z). */
static double milling_of(boids_backend be, const boids_boid *b, uint32_t n, float W, float H,
                         float D)
{
    boids_world_def d = test_def(be, n);
    d.width = W, d.height = H, d.depth = D;
    boids_world *w = NULL;
    boids_metrics m = {0};
    m.milling = -1;
    CHECK(boids_world_create(&d, &w) == BOIDS_OK && boids_world_write(w, b, n) == BOIDS_OK &&
          boids_world_metrics(w, &m, 1) == BOIDS_OK);
    boids_world_destroy(w);
    return m.milling;
}

static void test_milling(void)
{
    enum { N = 400 };
    boids_boid b[N];
    const float W = 1000, H = 800, D = 600;
    for (int shape = 0; shape < 4; ++shape) {
        /* 0: a mill about (500, 400); 1: half each way; 2: straight; 3: a mill about (0, 0),
         * across the torus's corner */
        const float cx = shape == 3 ? 0 : 500, cy = shape == 3 ? 0 : 400;
        for (uint32_t i = 0; i < N; ++i) {
            const float a = 6.2831853f * (float)i / N, r = 150 + (float)(i % 7) * 10;
            const float turn = shape == 1 && i % 2 ? -1.0f : 1.0f;
            memset(&b[i], 0, sizeof b[i]);
            b[i].x = boids_wrap(cx + r * cosf(a), W), b[i].y = boids_wrap(cy + r * sinf(a), H);
            b[i].vx = shape == 2 ? 100 : -100 * sinf(a) * turn;
            b[i].vy = shape == 2 ? 0 : 100 * cosf(a) * turn;
            b[i].alive = 1;
        }
        const double want = shape == 0 || shape == 3 ? 1.0 : 0.0;
        for (int k = 0; k < 2; ++k) {
            const boids_backend be = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
            const double flat = milling_of(be, b, N, W, H, 0);
            printf("  shape %d on the %s: milling %.4f flat", shape, k ? "GPU" : "CPU", flat);
            CHECK_MSG(fabs(flat - want) < 1e-3, "shape %d: milling %g, not %g", shape, flat, want);
            if (shape != 3) { /* in 3D the ring in the plane through (500, 400, 300) tilted 45
                                 degrees about y: x and z share the circle's first axis */
                boids_boid t[N];
                for (uint32_t i = 0; i < N; ++i) {
                    const float dx = b[i].x - 500, s = 0.70710678f;
                    t[i] = b[i];
                    t[i].x = 500 + dx * s, t[i].z = 300 + dx * s;
                    t[i].vx = b[i].vx * s, t[i].vz = b[i].vx * s;
                }
                const double deep = milling_of(be, t, N, W, H, D);
                printf(", %.4f in 3D", deep);
                CHECK_MSG(fabs(deep - want) < 1e-3, "3D shape %d: milling %g, not %g", shape, deep,
                          want);
            }
            printf("\n");
        }
    }
}

TEST_MAIN(TEST(test_small_flocks_against_brute_force), TEST(test_hand_placed_groups),
          TEST(test_milling), TEST(test_long_loops_are_right_or_refused),
          TEST(test_thin_worlds_are_measured), TEST(test_gpu_equals_cpu_on_a_flock),
          TEST(test_replica_count_does_not_change_metrics), TEST(test_polarization_at_most_one))
