/* Every model against its oracle, and 3D worlds: proofs that the rules are right, not just
 * plausible, on the CPU reference and on the GPU (test_agreement holds the two equal). The tests
 * loop over the registered models and hold each to what its oracle (src/models/<folder>/oracle.c)
 * declares; a model without one fails by name.
 *
 * - The oracles: each model's step from its formulas in double precision, brute force over every
 *   pair, flat and 3D, one and three swarms, against both backends, within the tolerance of a
 *   float's rounding in the model's units (kit's with its predators and their catches).
 * - The plane: a 3D world whose boids all lie in one plane z = c with vz = 0 steps exactly as the
 *   flat world does, bit for bit in x, y, vx, vy, for every model at its preset's parameters and
 *   edges without its noise (the extra terms are zeros, added where they cannot move a bit), and
 *   z and vz stay c and 0. (A GPU that rounds otherwise than IEEE may fuse its flat and its 3D
 *   programs differently: there, one step within a tolerance.)
 * - The axes: in a cubic world, turning every boid's axes (x, y, z) -> (y, z, x) turns the
 *   results the same way, within rounding (the sums then come in another order), at the values
 *   the model's oracle says make it the same in every direction.
 * - Flat worlds are unchanged by the third dimension's arrival: test_golden's hashes hold that.
 * Also: a 3D world's obstacles need a depth, the state's z columns, and the predators' z. */
#include <math.h>
#include <string.h>

#include "core/geometry.h"
#include "core/rng.h"
#include "gpu_exact.h"
#include "oracle.h"

/* The backend the cases run on (each test runs them on both). */
static boids_backend backend_now = BOIDS_BACKEND_CPU;
static const char *backend_name(void) { return backend_now == BOIDS_BACKEND_GPU ? "GPU" : "CPU"; }
/* Whether the backend's steps are IEEE's bit for bit (the CPU; llvmpipe, zink). */
static bool bitwise(void)
{
    return backend_now == BOIDS_BACKEND_CPU || test_gpu_exact_on(test_gpu_context());
}

/* The model's preset world (its scenario file where there is one), n boids of `swarms`, on the
 * backend of the moment, with the world W x H (x D where D > 0). */
static boids_world_def model_def(boids_model m, uint32_t n, uint32_t swarms, float W, float H,
                                 float D)
{
    boids_world_def d = test_def(BOIDS_BACKEND_CPU, n);
    char file[96];
    snprintf(file, sizeof file, "%s.ini", boids_model_name(m));
    if (!test_scenario_def(file, &d)) {
        d.model = m;
        d.params = boids_model_default_params(m);
    }
    d.backend = backend_now;
    d.gl = backend_now == BOIDS_BACKEND_GPU ? test_gpu_context() : NULL;
    d.count = n;
    d.swarms = swarms;
    d.threads = 2;
    d.width = W, d.height = H, d.depth = D;
    d.replicas = 1;
    d.obstacles = NULL, d.obstacle_count = 0;
    return d;
}

/* The model's oracle (src/models/<folder>/oracle.c); a model without one fails here, by name. */
static const boids_oracle *oracle_for(boids_model m)
{
    const boids_oracle *o = boids_oracle_of(m);
    CHECK_MSG(o != NULL, "no oracle for %s", boids_model_name(m));
    return o;
}

/* d at the values its model's oracle declares: without its random draws (a noisy model's random
 * turns leave a plane in 3D and are drawn around a basis the turned axes do not turn: test_noise
 * and the models' own tests hold the noise), at the scale of the cases' spacing, and where
 * `isotropic`, at the values that make it the same in every direction. False: no oracle. */
static bool declared(boids_world_def *d, bool isotropic)
{
    const boids_oracle *o = oracle_for(d->model);
    if (!o) return false;
    if (o->noiseless) o->noiseless(&d->params);
    if (o->px_scale) o->px_scale(&d->params);
    if (isotropic && o->isotropic) o->isotropic(&d->params);
    return true;
}

/* n boids spread over W x H (and their speeds within the limits), flat; alive, of every age. */
static void random_flat(const boids_world_def *d, boids_boid *b, uint64_t seed)
{
    boids_rng rng = boids_rng_seeded(seed);
    const float vmax = d->params.base.max_speed;
    for (uint32_t i = 0; i < d->count; ++i) {
        memset(&b[i], 0, sizeof b[i]);
        b[i].alive = 1, b[i].age = boids_rng_float(&rng);
        b[i].x = boids_rng_float(&rng) * d->width;
        b[i].y = boids_rng_float(&rng) * d->height;
        b[i].vx = (2 * boids_rng_float(&rng) - 1) * vmax * 0.7f;
        b[i].vy = (2 * boids_rng_float(&rng) - 1) * vmax * 0.7f;
        b[i].swarm = i % d->swarms;
        b[i].bias = d->params.adams.bias;
    }
}

/* The most predators a case here has (kit's presets: a handful). */
#define MAX_PREDATORS 64

/* A world of d started from boids b and, for a model with predators, predators p (NULL: the
 * world's own), `steps` steps on: the states back in b and p. */
static void run_from(const boids_world_def *d, boids_boid *b, boids_predator *p, uint32_t steps)
{
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(d, &w));
    boids_world_info info;
    boids_world_get_info(w, &info);
    REQUIRE_OK(boids_world_write(w, b, d->count));
    if (p) REQUIRE_OK(boids_world_write_predators(w, p, info.predators));
    REQUIRE_OK(boids_world_step(w, steps));
    REQUIRE_OK(boids_world_read(w, b, d->count));
    if (p) REQUIRE_OK(boids_world_read_predators(w, p, info.predators));
    boids_world_destroy(w);
}

/* Worlds of definitions da and db, started from states a and b (n boids each), `steps` steps on:
 * their states back in a and b. */
static void step_pair(const boids_world_def *da, boids_boid *a, const boids_world_def *db,
                      boids_boid *b, uint32_t steps)
{
    run_from(da, a, NULL, steps);
    run_from(db, b, NULL, steps);
}

/* The random start of a world of d (a 3D one's: in the box, headings all around), and its
 * predators and their number (p and np may be NULL for a model without). */
static void start_of(const boids_world_def *d, boids_boid *b, boids_predator *p, uint32_t *np)
{
    boids_world *w = NULL;
    if (np) *np = 0;
    REQUIRE_OK(boids_world_create(d, &w));
    boids_world_info info;
    boids_world_get_info(w, &info);
    REQUIRE_OK(boids_world_read(w, b, d->count));
    CHECK(info.predators <= MAX_PREDATORS);
    if (p && info.predators) REQUIRE_OK(boids_world_read_predators(w, p, info.predators));
    if (np) *np = info.predators;
    boids_world_destroy(w);
}

/* Whether two floats have the same bits. */
static bool same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The plane case: boids at z = c with vz = 0, among obstacles whose spheres are centred in the
 * plane (circles there), step as the flat world's boids among the circles. */
static void plane_case(boids_model m, uint32_t swarms)
{
    const uint32_t n = 700, steps = bitwise() ? 30 : 1;
    const float W = 400, H = 300, D = 400, c = 200; /* D <= max(W, H): the same cells */
    boids_world_def flat = model_def(m, n, swarms, W, H, 0),
                    deep = model_def(m, n, swarms, W, H, D);
    if (!declared(&flat, false) || !declared(&deep, false)) return;
    boids_obstacle circles[5], spheres[5];
    boids_rng rng = boids_rng_seeded(11 + m);
    for (int i = 0; i < 5; ++i) {
        circles[i] = (boids_obstacle){boids_rng_float(&rng) * W, boids_rng_float(&rng) * H,
                                      10 + 20 * boids_rng_float(&rng), 0, 0};
        spheres[i] = circles[i];
        spheres[i].z = c;
    }
    flat.obstacles = circles, deep.obstacles = spheres;
    flat.obstacle_count = deep.obstacle_count = 5;
    flat.params.obstacles.obstacle_radius = deep.params.obstacles.obstacle_radius = 60;
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    random_flat(&flat, a, 7 + m);
    memcpy(b, a, sizeof *a * n);
    for (uint32_t i = 0; i < n; ++i) b[i].z = c, b[i].vz = 0;
    /* predators (kit): the flat world's, in the plane too */
    boids_predator pa[MAX_PREDATORS], pb[MAX_PREDATORS];
    boids_boid *scratch = malloc(sizeof *scratch * n);
    uint32_t np;
    start_of(&flat, scratch, pa, &np);
    free(scratch);
    for (uint32_t i = 0; i < np; ++i) pb[i] = pa[i], pb[i].z = c, pb[i].vz = 0;
    run_from(&flat, a, np ? pa : NULL, steps);
    run_from(&deep, b, np ? pb : NULL, steps);
    uint32_t same = 0, plane = 0, dead = 0;
    double moved = 0, worst = 0;
    for (uint32_t i = 0; i < n; ++i) {
        same += same_bits(a[i].x, b[i].x) && same_bits(a[i].y, b[i].y) &&
                same_bits(a[i].vx, b[i].vx) && same_bits(a[i].vy, b[i].vy) &&
                a[i].alive == b[i].alive;
        plane += b[i].z == c && b[i].vz == 0.0f;
        dead += a[i].alive == 0;
        moved += hypot(a[i].vx, a[i].vy);
        worst = fmax(worst, hypot(a[i].vx - b[i].vx, a[i].vy - b[i].vy));
    }
    for (uint32_t i = 0; i < np; ++i) {
        same += same_bits(pa[i].x, pb[i].x) && same_bits(pa[i].y, pb[i].y) &&
                same_bits(pa[i].vx, pb[i].vx) && same_bits(pa[i].vy, pb[i].vy);
        plane += pb[i].z == c && pb[i].vz == 0.0f;
        worst = fmax(worst, hypot(pa[i].vx - pb[i].vx, pa[i].vy - pb[i].vy));
    }
    printf("  %s %-20s %u swarm%s: %u/%u agents bit for bit after %u step%s, %u in the plane",
           backend_name(), boids_model_name(m), swarms, swarms == 1 ? " " : "s", same, n + np,
           steps, steps == 1 ? "" : "s", plane);
    if (np) printf(" (%u predators, %u boids caught)", np, dead);
    printf("\n");
    if (bitwise())
        CHECK_MSG(same == n + np, "%s: the plane's boids differ from the flat world's",
                  boids_model_name(m));
    else /* within the agreement's tolerance of one step (test_agreement's TOL_DV) */
        CHECK_MSG(worst <= 1e-3, "%s: the plane's boids differ from the flat world's by %g",
                  boids_model_name(m), worst);
    CHECK_MSG(plane == n + np, "%s: boids left the plane", boids_model_name(m));
    CHECK_MSG(moved > 0, "%s: nothing moved", boids_model_name(m));
    free(a), free(b);
}

static void test_plane_is_the_flat_world(void)
{
    for (int k = 0; k < 2; ++k) {
        backend_now = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
            for (uint32_t swarms = 1; swarms <= 3; swarms += 2) /* (3: the swarms' own paths) */
                plane_case((boids_model)m, swarms);
    }
    backend_now = BOIDS_BACKEND_CPU;
}

/* A boid's position and velocity with its axes turned: (x, y, z) -> (y, z, x). */
static boids_boid turned(boids_boid b)
{
    boids_boid t = b;
    t.x = b.z, t.y = b.x, t.z = b.y;
    t.vx = b.vz, t.vy = b.vx, t.vz = b.vy;
    return t;
}

/* A predator's position and velocity as a boid's. */
static boids_boid as_boid(boids_predator p)
{
    boids_boid b = {p.x, p.y, p.vx, p.vy, 0};
    b.z = p.z, b.vz = p.vz;
    return b;
}

static void axes_case(boids_model m, uint32_t steps, double tol)
{
    const uint32_t n = 1200;
    const float L = 500;
    boids_world_def d = model_def(m, n, 1, L, L, L);
    if (!declared(&d, true)) return;
    d.params.obstacles.obstacles = 0; /* (random ones would stand where they stand) */
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    boids_predator pa[MAX_PREDATORS], pb[MAX_PREDATORS]; /* (kit's, turned too) */
    uint32_t np;
    start_of(&d, a, pa, &np);
    for (uint32_t i = 0; i < n; ++i) b[i] = turned(a[i]);
    for (uint32_t i = 0; i < np; ++i) {
        const boids_boid t = turned(as_boid(pa[i]));
        pb[i] = (boids_predator){t.x, t.y, t.vx, t.vy, t.z, t.vz};
    }
    run_from(&d, a, np ? pa : NULL, steps);
    run_from(&d, b, np ? pb : NULL, steps);
    const bool wrap = d.params.base.edges == BOIDS_EDGES_WRAP;
    double worst_p = 0, worst_v = 0, vscale = d.params.base.max_speed;
    for (uint32_t i = 0; i < n + np; ++i) { /* the boids, then the predators */
        const boids_boid e = i < n ? turned(a[i]) : turned(as_boid(pa[i - n]));
        const boids_boid g = i < n ? b[i] : as_boid(pb[i - n]);
        const float ep[3] = {e.x, e.y, e.z}, gp[3] = {g.x, g.y, g.z};
        for (int k = 0; k < 3; ++k) {
            const double dp = wrap ? boids_min_image(ep[k], gp[k], L, L / 2) : gp[k] - ep[k];
            worst_p = fmax(worst_p, fabs(dp));
        }
        worst_v =
            fmax(worst_v, fmax(fabs(e.vx - g.vx), fmax(fabs(e.vy - g.vy), fabs(e.vz - g.vz))));
    }
    printf("  %s %-20s %3u step%s: turned axes give the turned results within %.2g px, %.2g of "
           "v_max\n",
           backend_name(), boids_model_name(m), steps, steps == 1 ? " " : "s", worst_p,
           worst_v / vscale);
    CHECK_MSG(worst_p <= tol * L && worst_v <= tol * vscale, "%s: turned axes differ",
              boids_model_name(m));
    free(a), free(b);
}

static void test_turned_axes_turn_the_results(void)
{
    for (int k = 0; k < 2; ++k) {
        backend_now = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
            axes_case((boids_model)m, 1, 1e-5);
            /* ten steps; for a model that amplifies an ulp (its oracle says: kit's catches,
             * Couzin's turn limit) only where the rounding is IEEE's: elsewhere a GPU's own
             * rounding parts its two runs (2e-3 of v_max in ten steps under the perturbed
             * numerics), as the plane case allows for */
            const boids_oracle *o = boids_oracle_of((boids_model)m);
            if (bitwise() || (o && !o->amplifies)) axes_case((boids_model)m, 10, 1e-3);
        }
    }
    backend_now = BOIDS_BACKEND_CPU;
}

/* ---- the oracles: each model's step from its formulas, in double precision, brute force ------
 */

/* A small dense flock of model m, flat or 3D (every rule active, across the wrap), one step on the
 * backend of the moment, against its oracle: within the 2D oracles' tolerance (test_rules), in
 * the model's units; boids the oracle finds at a branch's edge (few) are left out. */
static void oracle_case(boids_model m, uint32_t swarms, bool deep)
{
    const boids_oracle *o = oracle_for(m);
    if (!o) return;
    const uint32_t n = 80;
    const float W = 160, H = 120, D = deep ? 100 : 0;
    boids_world_def d = model_def(m, n, swarms, W, H, D);
    if (o->px_scale) o->px_scale(&d.params);
    d.params.obstacles.obstacles = 0; /* (obstacles: test_vicsek, test_couzin, test_kit) */
    boids_boid *in = malloc(sizeof *in * n), *out = malloc(sizeof *out * n);
    boids_rng rng = boids_rng_seeded(500 + m);
    const float vmax = d.params.base.max_speed;
    for (uint32_t i = 0; i < n; ++i) {
        memset(&in[i], 0, sizeof in[i]);
        in[i].x = boids_rng_float(&rng) * W, in[i].y = boids_rng_float(&rng) * H;
        in[i].z = boids_rng_float(&rng) * D;
        in[i].vx = (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f;
        in[i].vy = (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f;
        in[i].vz = deep ? (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f : 0;
        in[i].swarm = i % swarms, in[i].bias = d.params.adams.bias;
        in[i].alive = 1, in[i].age = boids_rng_float(&rng);
    }
    boids_predator pin[MAX_PREDATORS], pout[MAX_PREDATORS];
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_world_info info;
    boids_world_get_info(w, &info);
    const uint32_t np = info.predators;
    CHECK(np <= MAX_PREDATORS);
    REQUIRE_OK(boids_world_write(w, in, n));
    if (np) REQUIRE_OK(boids_world_read_predators(w, pin, np));
    REQUIRE_OK(boids_world_step(w, 1));
    REQUIRE_OK(boids_world_read(w, out, n));
    if (np) REQUIRE_OK(boids_world_read_predators(w, pout, np));
    boids_world_destroy(w);
    boids_oracle_world ow = oracle_world(&d, in);
    ow.predators = pin, ow.predator_count = np;
    double worst = 0;
    uint32_t near_edge = 0, dead = 0;
    for (uint32_t i = 0; i < n; ++i) {
        bool near = false;
        const boids_boid e = o->step(&ow, i, &near);
        CHECK_MSG(out[i].alive == e.alive, "%s: boid %u alive %u, the oracle says %u",
                  boids_model_name(m), i, out[i].alive, e.alive);
        near_edge += near, dead += !e.alive;
        if (near || !e.alive) continue;
        worst = fmax(worst, fmax(fabs(out[i].vx - e.vx),
                                 fmax(fabs(out[i].vy - e.vy), fabs(out[i].vz - e.vz))));
    }
    for (uint32_t i = 0; i < np && o->predator_step; ++i) {
        const boids_predator e = o->predator_step(&ow, i);
        worst = fmax(worst, fmax(fabs(pout[i].vx - e.vx),
                                 fmax(fabs(pout[i].vy - e.vy), fabs(pout[i].vz - e.vz))));
    }
    printf("  %s %s %-20s %u swarm%s: worst velocity error vs its oracle %.2g (of v_max %g)",
           backend_name(), deep ? "3D  " : "flat", boids_model_name(m), swarms,
           swarms == 1 ? " " : "s", worst, (double)vmax);
    if (np || near_edge || dead)
        printf(" (%u predators, %u caught, %u at an edge)", np, dead, near_edge);
    printf("\n");
    /* test_rules' 1e-2 px/s at v_max 180 px/s, scaled to the model's v_max */
    CHECK_MSG(worst < 1e-2 * vmax / 180.0, "%s: %g off its oracle", boids_model_name(m), worst);
    CHECK_MSG(near_edge <= n / 10, "%s: %u boids at a branch's edge", boids_model_name(m),
              near_edge);
    free(in), free(out);
}

static void test_oracles(void)
{
    for (int k = 0; k < 2; ++k) {
        backend_now = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
            for (uint32_t swarms = 1; swarms <= 3; swarms += 2)
                for (int deep = 0; deep < 2; ++deep) oracle_case((boids_model)m, swarms, deep);
    }
    backend_now = BOIDS_BACKEND_CPU;
}

/* z counts: boids whose z alone is shuffled among them steer otherwise after one step (a walk or
 * a rule that left z out would not tell the two apart, and pass the checks above). */
static void test_z_counts(void)
{
    const uint32_t n = 3000;
    boids_world_def d = model_def(BOIDS_MODEL_SHIFFMAN_PER_SECOND, n, 1, 500, 500, 500);
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    start_of(&d, a, NULL, NULL);
    for (uint32_t i = 0; i < n; ++i) b[i] = a[i], b[i].z = a[(i + 1) % n].z;
    step_pair(&d, a, &d, b, 1);
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i) worst = fmax(worst, fabs(a[i].vx - b[i].vx));
    CHECK_MSG(worst > 1e-3 * d.params.base.max_speed, "z did not matter: %g", worst);
    free(a), free(b);
}

/* A 3D world's obstacles need a centre in its depth, and its depth must be a size. */
static void test_what_3d_lacks_is_refused(void)
{
    boids_world *w = NULL;
    /* a sphere's centre outside the depth, or none given (a circle's X,Y,R: z NaN) */
    boids_world_def d = model_def(BOIDS_MODEL_SHIFFMAN_PER_SECOND, 100, 1, 300, 300, 300);
    const boids_obstacle out_of_depth = {100, 100, 20, 0, 300}, circle = {100, 100, 20, 0, NAN};
    d.obstacles = &out_of_depth, d.obstacle_count = 1;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
    CHECK(boids_last_error_info()->id == BOIDS_E_DEF_OBSTACLE);
    d.obstacles = &circle;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
    CHECK(boids_last_error_info()->id == BOIDS_E_DEF_OBSTACLE);
    d.obstacle_count = 0;
    d.depth = -1;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
    d.depth = NAN;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
}

static void test_3d_state(void)
{
    /* the default 3D world: a cube with the flat default's spacing */
    boids_world_def d = model_def(BOIDS_MODEL_SHIFFMAN_PER_SECOND, 8000, 1, 0, 0, 1);
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_world_info info;
    boids_world_get_info(w, &info);
    CHECK(info.dims == 3 && info.width == info.depth && info.height == info.depth);
    CHECK(fabs(info.width * info.height * info.depth / 8000 - pow(1000, 1.5)) <
          0.01 * pow(1000, 1.5));
    CHECK(info.grid_d > 1);
    /* the start fills the volume, headings all around */
    boids_boid *b = malloc(sizeof *b * d.count);
    REQUIRE_OK(boids_world_read(w, b, d.count));
    double zs = 0, vz2 = 0, v2 = 0;
    for (uint32_t i = 0; i < d.count; ++i) {
        zs += b[i].z, vz2 += b[i].vz * b[i].vz;
        v2 += b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz;
    }
    CHECK(fabs(zs / d.count / info.depth - 0.5) < 0.02); /* mean z near the middle */
    CHECK(fabs(vz2 / v2 - 1.0 / 3) < 0.02);              /* a third of the speed along z */
    /* z outside the world is refused, naming it */
    b[5].z = info.depth + 1;
    CHECK(boids_world_write(w, b, d.count) == BOIDS_ERR_INVALID);
    CHECK(boids_last_error_info()->index == 5 && !strcmp(boids_last_error_info()->key, "z"));
    b[5].z = 1, b[5].vz = NAN;
    CHECK(boids_world_write(w, b, d.count) == BOIDS_ERR_INVALID);
    b[5].vz = 0;
    /* the columns z and vz, and none in a flat world */
    REQUIRE_OK(boids_world_write(w, b, d.count));
    float *z = malloc(sizeof *z * d.count);
    const char *names[] = {"z"};
    void *out[] = {z};
    REQUIRE_OK(boids_world_read_columns(w, names, out, 1));
    CHECK(memcmp(z, &b[0].z, sizeof *z) == 0 && z[5] == 1.0f && z[d.count - 1] == b[d.count - 1].z);
    boids_world_destroy(w);
    d.depth = 0;
    REQUIRE_OK(boids_world_create(&d, &w));
    CHECK(boids_world_read_columns(w, names, out, 1) == BOIDS_ERR_INVALID);
    boids_world_destroy(w);
    free(b), free(z);
}

/* A 3D world's predators (kit): they start in the box's corner cubes, heading all around; their
 * z is checked as the boids' is; and they are read back as written. */
static void test_3d_predators(void)
{
    boids_model hunted = BOIDS_MODEL_COUNT; /* a model with predators */
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
        if (boids_model_features((boids_model)m) & BOIDS_FEATURE_PREDATORS) hunted = (boids_model)m;
    if (hunted == BOIDS_MODEL_COUNT) return;
    for (int k = 0; k < 2; ++k) {
        backend_now = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        boids_world_def d = model_def(hunted, 400, 1, 1600, 1600, 800);
        d.params.predators.predators = 12;
        boids_world *w = NULL;
        REQUIRE_OK(boids_world_create(&d, &w));
        boids_predator p[12];
        REQUIRE_OK(boids_world_read_predators(w, p, 12));
        uint32_t corner = 0, deep = 0;
        for (int i = 0; i < 12; ++i) {
            const float z = p[i].z / d.depth; /* in [1/8, 2/8) or [6/8, 7/8) */
            corner += (z >= 0.125f && z < 0.25f) || (z >= 0.75f && z < 0.875f);
            deep += p[i].vz != 0;
        }
        CHECK_MSG(corner == 12 && deep == 12, "%s: %u predators in the corner cubes, %u with vz",
                  backend_name(), corner, deep);
        p[3].z = d.depth; /* outside, naming z */
        CHECK(boids_world_write_predators(w, p, 12) == BOIDS_ERR_INVALID);
        CHECK(boids_last_error_info()->index == 3 && !strcmp(boids_last_error_info()->key, "z"));
        p[3].z = 10, p[3].vz = -7;
        REQUIRE_OK(boids_world_write_predators(w, p, 12));
        boids_predator back[12];
        REQUIRE_OK(boids_world_read_predators(w, back, 12));
        CHECK(memcmp(back, p, sizeof p) == 0);
        boids_world_destroy(w);
    }
    backend_now = BOIDS_BACKEND_CPU;
}

TEST_MAIN(TEST(test_plane_is_the_flat_world), TEST(test_oracles),
          TEST(test_turned_axes_turn_the_results), TEST(test_z_counts),
          TEST(test_what_3d_lacks_is_refused), TEST(test_3d_state), TEST(test_3d_predators))
