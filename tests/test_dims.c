/* 3D worlds: proofs that the third dimension is right, not just plausible (the CPU reference).
 *
 * - The plane: a 3D world whose boids all lie in one plane z = c with vz = 0 steps exactly as the
 *   flat world does, bit for bit in x, y, vx, vy, for every model that runs in 3D, at its
 *   preset's parameters and edges (the extra terms are zeros, added where they cannot move a
 *   bit), and z and vz stay c and 0.
 * - The axes: in a cubic world, turning every boid's axes (x, y, z) -> (y, z, x) turns the
 *   results the same way, within rounding (the sums then come in another order).
 * - Flat worlds are unchanged by the third dimension's arrival: test_golden's hashes hold that.
 * Also: what a 3D world cannot have yet is refused by name, and the state's z columns. */
#include <math.h>
#include <string.h>

#include "core/geometry.h"
#include "core/rng.h"
#include "test.h"

/* The models that run in 3D: every one with the Reynolds walk (kit, with its own walk and its
 * predators, is refused for now). */
static bool runs_in_3d(boids_model m)
{
    return !(boids_model_features(m) & (BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_PREDATORS));
}

/* The model's preset world (its scenario file where there is one), n boids of `swarms`, on the
 * CPU, with the world W x H (x D where D > 0). */
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
    d.backend = BOIDS_BACKEND_CPU;
    d.count = n;
    d.swarms = swarms;
    d.threads = 2;
    d.width = W, d.height = H, d.depth = D;
    d.replicas = 1;
    d.obstacles = NULL, d.obstacle_count = 0;
    return d;
}

/* n boids spread over W x H (and their speeds within the limits), flat. */
static void random_flat(const boids_world_def *d, boids_boid *b, uint64_t seed)
{
    boids_rng rng = boids_rng_seeded(seed);
    const float vmax = d->params.base.max_speed;
    for (uint32_t i = 0; i < d->count; ++i) {
        memset(&b[i], 0, sizeof b[i]);
        b[i].x = boids_rng_float(&rng) * d->width;
        b[i].y = boids_rng_float(&rng) * d->height;
        b[i].vx = (2 * boids_rng_float(&rng) - 1) * vmax * 0.7f;
        b[i].vy = (2 * boids_rng_float(&rng) - 1) * vmax * 0.7f;
        b[i].swarm = i % d->swarms;
        b[i].bias = d->params.adams.bias;
    }
}

/* Worlds of definitions da and db, started from states a and b (n boids each), `steps` steps on:
 * their states back in a and b. */
static void step_pair(const boids_world_def *da, boids_boid *a, const boids_world_def *db,
                      boids_boid *b, uint32_t n, uint32_t steps)
{
    const boids_world_def *def[2] = {da, db};
    boids_boid *state[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        boids_world *w = NULL;
        REQUIRE_OK(boids_world_create(def[k], &w));
        REQUIRE_OK(boids_world_write(w, state[k], n));
        REQUIRE_OK(boids_world_step(w, steps));
        REQUIRE_OK(boids_world_read(w, state[k], n));
        boids_world_destroy(w);
    }
}

/* The random start of a world of d (a 3D one's: in the box, headings all around). */
static void start_of(const boids_world_def *d, boids_boid *b)
{
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(d, &w));
    REQUIRE_OK(boids_world_read(w, b, d->count));
    boids_world_destroy(w);
}

static void plane_case(boids_model m, uint32_t swarms)
{
    const uint32_t n = 1500, steps = 60;
    const float W = 400, H = 300, D = 400, c = 200; /* D <= max(W, H): the same cells */
    boids_world_def flat = model_def(m, n, swarms, W, H, 0),
                    deep = model_def(m, n, swarms, W, H, D);
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    random_flat(&flat, a, 7 + m);
    memcpy(b, a, sizeof *a * n);
    for (uint32_t i = 0; i < n; ++i) b[i].z = c, b[i].vz = 0;
    step_pair(&flat, a, &deep, b, n, steps);
    uint32_t same = 0, plane = 0;
    double moved = 0;
    for (uint32_t i = 0; i < n; ++i) {
        same += memcmp(&a[i].x, &b[i].x, sizeof(float)) == 0 &&
                memcmp(&a[i].y, &b[i].y, sizeof(float)) == 0 &&
                memcmp(&a[i].vx, &b[i].vx, sizeof(float)) == 0 &&
                memcmp(&a[i].vy, &b[i].vy, sizeof(float)) == 0;
        plane += b[i].z == c && b[i].vz == 0.0f;
        moved += hypot(a[i].vx, a[i].vy);
    }
    printf("  %-20s %u swarm%s: %u/%u boids bit for bit after %u steps, %u in the plane\n",
           boids_model_name(m), swarms, swarms == 1 ? " " : "s", same, n, steps, plane);
    CHECK_MSG(same == n, "%s: the plane's boids differ from the flat world's", boids_model_name(m));
    CHECK_MSG(plane == n, "%s: boids left the plane", boids_model_name(m));
    CHECK_MSG(moved > 0, "%s: nothing moved", boids_model_name(m));
    free(a), free(b);
}

static void test_plane_is_the_flat_world(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
        if (runs_in_3d((boids_model)m)) plane_case((boids_model)m, 1);
    plane_case(BOIDS_MODEL_SHIFFMAN_PER_SECOND, 3); /* the swarms' own paths */
    plane_case(BOIDS_MODEL_HYBRID, 2);
    plane_case(BOIDS_MODEL_MEAN, 2);
}

/* A boid's position and velocity with its axes turned: (x, y, z) -> (y, z, x). */
static boids_boid turned(boids_boid b)
{
    boids_boid t = b;
    t.x = b.z, t.y = b.x, t.z = b.y;
    t.vx = b.vz, t.vy = b.vx, t.vz = b.vy;
    return t;
}

static void axes_case(boids_model m, uint32_t steps, double tol)
{
    const uint32_t n = 3000;
    const float L = 500;
    boids_world_def d = model_def(m, n, 1, L, L, L);
    d.params.adams.scout1_count = d.params.adams.scout2_count = 0; /* scouts pull along x */
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    start_of(&d, a);
    for (uint32_t i = 0; i < n; ++i) b[i] = turned(a[i]);
    step_pair(&d, a, &d, b, n, steps);
    const bool wrap = d.params.base.edges == BOIDS_EDGES_WRAP;
    double worst_p = 0, worst_v = 0, vscale = d.params.base.max_speed;
    for (uint32_t i = 0; i < n; ++i) {
        const boids_boid e = turned(a[i]);
        const float ep[3] = {e.x, e.y, e.z}, bp[3] = {b[i].x, b[i].y, b[i].z};
        for (int k = 0; k < 3; ++k) {
            const double dp = wrap ? boids_min_image(ep[k], bp[k], L, L / 2) : bp[k] - ep[k];
            worst_p = fmax(worst_p, fabs(dp));
        }
        worst_v = fmax(
            worst_v, fmax(fabs(e.vx - b[i].vx), fmax(fabs(e.vy - b[i].vy), fabs(e.vz - b[i].vz))));
    }
    printf("  %-20s %3u step%s: turned axes give the turned results within %.2g px, %.2g of "
           "v_max\n",
           boids_model_name(m), steps, steps == 1 ? " " : "s", worst_p, worst_v / vscale);
    CHECK_MSG(worst_p <= tol * L && worst_v <= tol * vscale, "%s: turned axes differ",
              boids_model_name(m));
    free(a), free(b);
}

static void test_turned_axes_turn_the_results(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
        if (runs_in_3d((boids_model)m)) {
            axes_case((boids_model)m, 1, 1e-5);
            axes_case((boids_model)m, 10, 1e-3);
        }
}

/* z counts: boids whose z alone is shuffled among them steer otherwise after one step (a walk or
 * a rule that left z out would not tell the two apart, and pass the checks above). */
static void test_z_counts(void)
{
    const uint32_t n = 3000;
    boids_world_def d = model_def(BOIDS_MODEL_SHIFFMAN_PER_SECOND, n, 1, 500, 500, 500);
    boids_boid *a = malloc(sizeof *a * n), *b = malloc(sizeof *b * n);
    start_of(&d, a);
    for (uint32_t i = 0; i < n; ++i) b[i] = a[i], b[i].z = a[(i + 1) % n].z;
    step_pair(&d, a, &d, b, n, 1);
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i) worst = fmax(worst, fabs(a[i].vx - b[i].vx));
    CHECK_MSG(worst > 1e-3 * d.params.base.max_speed, "z did not matter: %g", worst);
    free(a), free(b);
}

static void test_what_3d_lacks_is_refused(void)
{
    boids_world *w = NULL;
    boids_world_def d = model_def(BOIDS_MODEL_KIT, 100, 1, 300, 300, 300);
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
    CHECK(boids_last_error_info()->id == BOIDS_E_DEF_DEPTH);
    CHECK(!strcmp(boids_last_error_info()->related, "model"));
    d = model_def(BOIDS_MODEL_SHIFFMAN_PER_SECOND, 100, 1, 300, 300, 300);
    d.params.obstacles.obstacles = 3;
    CHECK(boids_world_create(&d, &w) == BOIDS_ERR_INVALID && !w);
    CHECK(boids_last_error_info()->id == BOIDS_E_DEF_DEPTH);
    d.params.obstacles.obstacles = 0;
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

TEST_MAIN(TEST(test_plane_is_the_flat_world), TEST(test_turned_axes_turn_the_results),
          TEST(test_z_counts), TEST(test_what_3d_lacks_is_refused), TEST(test_3d_state))
