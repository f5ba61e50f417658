/* 3D worlds: proofs that the third dimension is right, not just plausible, on the CPU reference
 * and on the GPU (test_agreement holds the two equal in 3D too).
 *
 * - The plane: a 3D world whose boids all lie in one plane z = c with vz = 0 steps exactly as the
 *   flat world does, bit for bit in x, y, vx, vy, for every model that runs in 3D, at its
 *   preset's parameters and edges (the extra terms are zeros, added where they cannot move a
 *   bit), and z and vz stay c and 0. (A GPU that rounds otherwise than IEEE may fuse its flat and
 *   its 3D programs differently: there, one step within a tolerance.)
 * - The oracles: each 3D model's step written here from its formulas in double precision, brute
 *   force over every pair, against both backends, within the 2D oracles' tolerance.
 * - The axes: in a cubic world, turning every boid's axes (x, y, z) -> (y, z, x) turns the
 *   results the same way, within rounding (the sums then come in another order).
 * - Flat worlds are unchanged by the third dimension's arrival: test_golden's hashes hold that.
 * Kit's 3D oracle (its own walk, its predators) is test_kit's. Also: a 3D world's obstacles
 * need a depth, the state's z columns, and the predators' z. */
#include <math.h>
#include <string.h>

#include "core/geometry.h"
#include "core/rng.h"
#include "gpu_exact.h"
#include "test.h"

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

/* A noisy model's world without its noise, and with a reach the cases' spacing fills: Vicsek's
 * and Couzin's random turns leave a plane in 3D and are drawn around a basis the turned axes do
 * not turn, so the plane and axes cases hold their rules without it (test_vicsek and test_couzin
 * hold the noise). */
static void without_noise(boids_world_def *d)
{
    if (d->model == BOIDS_MODEL_VICSEK) {
        d->params.vicsek.eta = 0;
        d->params.vicsek.radius = 30;
    } else if (d->model == BOIDS_MODEL_COUZIN) {
        d->params.couzin.noise = 0;
        d->params.couzin.repulsion_radius = 6;
        d->params.couzin.orientation_width = 10;
        d->params.couzin.attraction_width = 14;
    } else {
        return;
    }
    d->params.base.max_speed = d->params.base.min_speed = 3;
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
    without_noise(&flat), without_noise(&deep);
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
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) plane_case((boids_model)m, 1);
        plane_case(BOIDS_MODEL_SHIFFMAN_PER_SECOND, 3); /* the swarms' own paths */
        plane_case(BOIDS_MODEL_HYBRID, 2);
        plane_case(BOIDS_MODEL_MEAN, 2);
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
    without_noise(&d);
    d.params.adams.scout1_count = d.params.adams.scout2_count = 0; /* scouts pull along x */
    d.params.obstacles.obstacles = 0; /* (kit's random ones would stand where they stand) */
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
            /* ten steps; for kit and couzin only where the rounding is IEEE's: elsewhere a GPU's
             * own rounding parts its two runs (2e-3 of v_max in ten steps under the perturbed
             * numerics: kit's catches and its predators' attacks amplify an ulp, as Couzin's
             * turn limit, a branch on a cosine, does), as the plane case allows for */
            if (bitwise() || (!(boids_model_features((boids_model)m) & BOIDS_FEATURE_PREDATORS) &&
                              m != BOIDS_MODEL_COUZIN))
                axes_case((boids_model)m, 10, 1e-3);
        }
    }
    backend_now = BOIDS_BACKEND_CPU;
}

/* ---- the oracles: each 3D model's step from its formulas, in double precision, brute force ----
 */

typedef struct d3 {
    double x, y, z;
} d3;
static d3 d3_of(double x, double y, double z) { return (d3){x, y, z}; }
static d3 d3_add(d3 a, d3 b) { return d3_of(a.x + b.x, a.y + b.y, a.z + b.z); }
static d3 d3_sub(d3 a, d3 b) { return d3_of(a.x - b.x, a.y - b.y, a.z - b.z); }
static d3 d3_mul(d3 a, double s) { return d3_of(a.x * s, a.y * s, a.z * s); }
static double d3_len(d3 a) { return sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }
/* a at length m (zero stays zero: Processing's normalize) */
static d3 d3_at(d3 a, double m) { return d3_len(a) > 0 ? d3_mul(a, m / d3_len(a)) : a; }
static d3 d3_trunc(d3 a, double m) { return d3_len(a) > m ? d3_at(a, m) : a; }
static d3 d3_limits(d3 v, double vmin, double vmax) /* Reynolds' speed limits */
{
    const double s = d3_len(v);
    return s > vmax ? d3_at(v, vmax) : s < vmin && s > 0 ? d3_at(v, vmin) : v;
}
static double wrap_d(double d, double size, bool wrap)
{
    return !wrap ? d : d > size / 2 ? d - size : d < -size / 2 ? d + size : d;
}

/* The priority allocation (Reynolds 1987) of x, y, z in that order within m. */
static d3 allocate(d3 x, d3 y, d3 z, double m)
{
    if (d3_len(x) > m) return d3_at(x, m);
    d3 a = x;
    const d3 next[2] = {y, z};
    for (int k = 0; k < 2; ++k) {
        const d3 n = next[k];
        const double n2 = n.x * n.x + n.y * n.y + n.z * n.z;
        if (!(n2 > 0)) continue;
        if (d3_len(d3_add(a, n)) <= m) {
            a = d3_add(a, n);
            continue;
        }
        const double an = a.x * n.x + a.y * n.y + a.z * n.z, a2 = d3_len(a) * d3_len(a);
        const double alpha = (-an + sqrt(fmax(an * an + n2 * (m * m - a2), 0))) / n2;
        return d3_add(a, d3_mul(n, alpha));
    }
    return a;
}

/* One step of model m for boid i of b[0..n) in a W x H x D world, from the formulas of
 * docs/models.md, brute force over every other boid. */
static boids_boid oracle_3d(boids_model m, const boids_params *p, const boids_boid *b, uint32_t n,
                            uint32_t i, double W, double H, double D, double dt)
{
    const bool wrap = p->base.edges == BOIDS_EDGES_WRAP;
    const d3 pi = d3_of(b[i].x, b[i].y, b[i].z), v = d3_of(b[i].vx, b[i].vy, b[i].vz);
    const bool adams = m == BOIDS_MODEL_ADAMS, hybrid = m == BOIDS_MODEL_HYBRID,
               alloc = m == BOIDS_MODEL_PRIORITY || m == BOIDS_MODEL_MEAN;
    const double rs = adams    ? p->adams.protected_range
                      : hybrid ? p->hybrid.sep_radius
                      : alloc  ? p->allocation.sep_radius
                               : p->reynolds.sep_radius;
    const double ra = adams    ? p->adams.visual_range
                      : hybrid ? p->hybrid.align_radius
                      : alloc  ? p->allocation.neighbor_radius
                               : p->reynolds.align_radius;
    const double rc = adams    ? p->adams.visual_range
                      : hybrid ? p->hybrid.cohesion_radius
                      : alloc  ? p->allocation.neighbor_radius
                               : p->reynolds.cohesion_radius;
    d3 sep = d3_of(0, 0, 0), ali = sep, coh = sep;
    int ns = 0, na = 0, nc = 0;
    for (uint32_t j = 0; j < n; ++j) {
        if (j == i) continue;
        const d3 off = d3_of(wrap_d((double)b[j].x - b[i].x, W, wrap),
                             wrap_d((double)b[j].y - b[i].y, H, wrap),
                             wrap_d((double)b[j].z - b[i].z, D, wrap));
        const double d = d3_len(off);
        if (adams) { /* the box, every swarm, coincident boids too */
            const double box = p->adams.visual_range;
            if (!(fabs(off.x) < box && fabs(off.y) < box && fabs(off.z) < box)) continue;
        } else if (!(d > 0)) {
            continue;
        }
        const bool in_sep = d < rs;
        if (in_sep)
            sep = d3_add(sep, hybrid || adams ? d3_mul(off, -1) : d3_mul(off, -1 / (d * d)));
        ns += in_sep;
        if (!adams && b[j].swarm != b[i].swarm) continue;
        if (adams && in_sep && p->adams.include_protected == 0) continue;
        if (d < ra) ali = d3_add(ali, d3_of(b[j].vx, b[j].vy, b[j].vz)), na++;
        if (d < rc) coh = d3_add(coh, off), nc++;
    }
    const double vmax = p->base.max_speed, vmin = p->base.min_speed;
    d3 v1;
    if (adams) {
        d3 w = v;
        if (na)
            w = d3_add(d3_add(w, d3_mul(coh, p->adams.centering_factor / na)),
                       d3_mul(d3_sub(d3_mul(ali, 1.0 / na), w), p->adams.matching_factor));
        w = d3_add(w, d3_mul(sep, p->adams.avoid_factor));
        if (p->base.edges == BOIDS_EDGES_BOUNDED) { /* six faces */
            const double mg = p->adams.margin, t = p->adams.turn_factor;
            w.y += pi.y < mg ? t : 0, w.x -= pi.x > W - mg ? t : 0, w.x += pi.x < mg ? t : 0;
            w.y -= pi.y > H - mg ? t : 0, w.z += pi.z < mg ? t : 0, w.z -= pi.z > D - mg ? t : 0;
        }
        v1 = d3_limits(w, vmin, vmax);
    } else if (hybrid) {
        d3 f = d3_mul(sep, p->hybrid.sep_weight);
        if (na)
            f = d3_add(
                f, d3_mul(d3_sub(d3_at(d3_mul(ali, 1.0 / na), vmax), v), p->hybrid.align_weight));
        if (nc)
            f = d3_add(f, d3_mul(d3_sub(d3_at(d3_mul(coh, 1.0 / nc), vmax), v),
                                 p->hybrid.cohesion_weight));
        v1 = d3_limits(d3_add(v, d3_mul(d3_trunc(f, p->hybrid.max_force), dt)), vmin, vmax);
    } else if (alloc) {
        const d3 v3 = d3_mul(sep, p->allocation.sep_weight);
        const d3 v2 = na ? d3_mul(d3_sub(d3_mul(ali, 1.0 / na), v), p->allocation.align_weight)
                         : d3_of(0, 0, 0);
        const d3 vc = na ? d3_mul(coh, p->allocation.cohesion_weight / na) : d3_of(0, 0, 0);
        const double amax = p->allocation.max_accel;
        d3 a = d3_add(d3_add(v3, v2), vc);
        if (m == BOIDS_MODEL_PRIORITY)
            a = allocate(v3, v2, vc, amax);
        else
            a = p->allocation.mean_set_length != 0 ? d3_at(a, amax) : d3_trunc(a, amax);
        v1 = d3_limits(d3_add(v, d3_mul(a, dt)), vmin, vmax);
    } else { /* the Shiffman models */
        const double fmax = p->reynolds.max_force;
        d3 f = d3_of(0, 0, 0);
        const d3 mean_s = d3_mul(sep, ns ? 1.0 / ns : 0);
        if (ns && d3_len(mean_s) > 0)
            f = d3_add(
                f, d3_mul(d3_trunc(d3_sub(d3_at(mean_s, vmax), v), fmax), p->reynolds.sep_weight));
        if (na)
            f = d3_add(f, d3_mul(d3_trunc(d3_sub(d3_at(d3_mul(ali, 1.0 / na), vmax), v), fmax),
                                 p->reynolds.align_weight));
        if (nc)
            f = d3_add(f, d3_mul(d3_trunc(d3_sub(d3_at(d3_mul(coh, 1.0 / nc), vmax), v), fmax),
                                 p->reynolds.cohesion_weight));
        v1 = d3_limits(d3_add(v, d3_mul(f, dt)), vmin, vmax);
    }
    d3 q = d3_add(pi, d3_mul(v1, dt));
    const double size[3] = {W, H, D}, r = p->base.border_r;
    double *c[3] = {&q.x, &q.y, &q.z};
    for (int k = 0; k < 3; ++k) {
        if (wrap) *c[k] -= size[k] * floor(*c[k] / size[k]);
        if (p->base.edges == BOIDS_EDGES_PROCESSING)
            *c[k] = *c[k] < -r ? size[k] + r : *c[k] > size[k] + r ? -r : *c[k];
    }
    boids_boid o = b[i];
    o.x = (float)q.x, o.y = (float)q.y, o.z = (float)q.z;
    o.vx = (float)v1.x, o.vy = (float)v1.y, o.vz = (float)v1.z;
    return o;
}

/* A small dense 3D flock of model m (every rule active, across the wrap), one step on the
 * backend of the moment, against the oracle: within the 2D oracles' tolerance (test_rules), in
 * the model's units. */
static void oracle_case(boids_model m, uint32_t swarms)
{
    const uint32_t n = 80;
    const float W = 160, H = 120, D = 100;
    boids_world_def d = model_def(m, n, swarms, W, H, D);
    d.params.adams.scout1_count = d.params.adams.scout2_count = 0; /* (test_papers: the scouts) */
    boids_boid *in = malloc(sizeof *in * n), *out = malloc(sizeof *out * n);
    boids_rng rng = boids_rng_seeded(500 + m);
    const float vmax = d.params.base.max_speed;
    for (uint32_t i = 0; i < n; ++i) {
        memset(&in[i], 0, sizeof in[i]);
        in[i].x = boids_rng_float(&rng) * W, in[i].y = boids_rng_float(&rng) * H;
        in[i].z = boids_rng_float(&rng) * D;
        in[i].vx = (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f;
        in[i].vy = (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f;
        in[i].vz = (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f;
        in[i].swarm = i % swarms, in[i].bias = d.params.adams.bias;
    }
    memcpy(out, in, sizeof *in * n);
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    REQUIRE_OK(boids_world_write(w, out, n));
    REQUIRE_OK(boids_world_step(w, 1));
    REQUIRE_OK(boids_world_read(w, out, n));
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_world_destroy(w);
    const double dt = boids_model_time_base(m) == BOIDS_TIME_PER_SECOND ? info.dt : 1.0;
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const boids_boid e = oracle_3d(m, &d.params, in, n, i, W, H, D, dt);
        worst = fmax(worst, fmax(fabs(out[i].vx - e.vx),
                                 fmax(fabs(out[i].vy - e.vy), fabs(out[i].vz - e.vz))));
    }
    printf("  %s %-20s %u swarm%s: worst velocity error vs the 3D formulas %.2g (of v_max %g)\n",
           backend_name(), boids_model_name(m), swarms, swarms == 1 ? " " : "s", worst,
           (double)vmax);
    /* test_rules' 1e-2 px/s at v_max 180 px/s, scaled to the model's v_max */
    CHECK_MSG(worst < 1e-2 * vmax / 180.0, "%s: %g off the 3D formulas", boids_model_name(m),
              worst);
    free(in), free(out);
}

static void test_oracles_3d(void)
{
    for (int k = 0; k < 2; ++k) {
        backend_now = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        /* (kit's 3D oracle is test_kit's, with its own walk; Vicsek's, with its noise, is
         * test_vicsek's; Couzin's, test_couzin's) */
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
            if (!(boids_model_features((boids_model)m) & BOIDS_FEATURE_OWN_WALK) &&
                m != BOIDS_MODEL_VICSEK)
                oracle_case((boids_model)m, 1);
        oracle_case(BOIDS_MODEL_SHIFFMAN_PER_SECOND, 3);
        oracle_case(BOIDS_MODEL_MEAN, 2);
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
    for (int k = 0; k < 2; ++k) {
        backend_now = k ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
        boids_world_def d = model_def(BOIDS_MODEL_KIT, 400, 1, 1600, 1600, 800);
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

TEST_MAIN(TEST(test_plane_is_the_flat_world), TEST(test_oracles_3d),
          TEST(test_turned_axes_turn_the_results), TEST(test_z_counts),
          TEST(test_what_3d_lacks_is_refused), TEST(test_3d_state), TEST(test_3d_predators))
