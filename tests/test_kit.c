/* The kit model (docs/models.md (kit)) against its equations, on both backends.
 *
 * Its oracle (src/models/kit/oracle.c), a third implementation in double precision from the paper
 * with brute force over all pairs: eq. 1-3 (cohesion and alignment over the view field, separation
 * over every boid within R_S), eq. 4 (obstacles), eq. 6 (fleeing), eq. 7-9 (individuality by age),
 * eq. 10-12 (the update), and the predators' eq. 5 with their separation and obstacles; for small
 * flocks with hand-placed cases: a boid behind another (outside its view cone), a predator across
 * the torus seam, an obstacle within R_O, an old and a young boid's limits. Then the catches: the
 * same catches (step, boid, predator) on both backends over a few hundred steps of the preset; a
 * catch within reach of two predators counted once, for the lower id; a dead boid is nobody's
 * neighbour; and degenerate states (a boid on a predator, on an obstacle's centre, at rest) give
 * no NaN. */
#include "core/rng.h"
#include "ensemble.h"
#include "gpu_exact.h"
#include "models/oracle.h"
#include "test.h"

/* The world of the scenes: W x H, and D deep where D > 0 (a 3D world; 0: flat, every z 0). */
static double W = 1000, H = 800, D = 0;

typedef struct scene {
    int n, np, no;
    boids_boid b[64];
    boids_predator p[8];
    boids_obstacle o[8];
} scene;

/* The scene as kit's oracle sees it (src/models/kit/oracle.c: the equations in double precision,
 * brute force, the step's catches first). */
static boids_oracle_world scene_world(const scene *sc, const boids_params *prm, double dt)
{
    return (boids_oracle_world){.model = BOIDS_MODEL_KIT,
                                .params = prm,
                                .width = W,
                                .height = H,
                                .depth = D,
                                .dt = dt,
                                .boids = sc->b,
                                .count = (uint32_t)sc->n,
                                .predators = sc->p,
                                .predator_count = (uint32_t)sc->np,
                                .obstacles = sc->o,
                                .obstacle_count = (uint32_t)sc->no};
}

/* Boid i of the scene after one step, by the oracle. */
static boids_boid oracle_boid(const scene *sc, int i, const boids_params *prm, double dt)
{
    const boids_oracle_world w = scene_world(sc, prm, dt);
    return boids_oracle_of(BOIDS_MODEL_KIT)->step(&w, (uint32_t)i, NULL);
}

/* Predator i of the scene after one step, by the oracle. */
static boids_predator oracle_predator(const scene *sc, int i, const boids_params *prm, double dt)
{
    const boids_oracle_world w = scene_world(sc, prm, dt);
    return boids_oracle_of(BOIDS_MODEL_KIT)->predator_step(&w, (uint32_t)i);
}

/* The kit preset in a W x H (x D) world, with the scene's boids, predators and obstacles. */
static boids_world *make(boids_backend be, const scene *sc, const boids_params *prm, float dt)
{
    boids_world_def d = test_def(be, (uint32_t)sc->n);
    d.model = BOIDS_MODEL_KIT;
    d.params = *prm;
    d.params.predators.predators = (uint32_t)sc->np;
    d.width = (float)W;
    d.height = (float)H;
    d.depth = (float)D;
    d.dt = dt;
    d.obstacles = sc->o;
    d.obstacle_count = (uint32_t)sc->no;
    boids_world *w;
    if (boids_world_create(&d, &w) != BOIDS_OK ||
        boids_world_write(w, sc->b, (size_t)sc->n) != BOIDS_OK ||
        boids_world_write_predators(w, sc->p, (size_t)sc->np) != BOIDS_OK) {
        CHECK_MSG(0, "%s", boids_last_error());
        return NULL;
    }
    return w;
}

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};
static const char *const names[2] = {"cpu", "gpu"};

/* How far a state is from the oracle's, in px/s: its velocity, and its move over dt. */
static double off_by(float vx, float vy, float vz, float x, float y, float z, float ex, float ey,
                     float ez, float evx, float evy, float evz, double dt)
{
    const boids_d3 dv = boids_d3_of(vx - evx, vy - evy, vz - evz);
    const boids_d3 dp = boids_d3_of(boids_oracle_wrap(x - ex, W), boids_oracle_wrap(y - ey, H),
                                    boids_oracle_wrap(z - ez, D));
    return fmax(boids_d3_len(dv), boids_d3_len(dp) / dt);
}

/* Steps the scene once on both backends and holds every boid and predator against the oracle. */
static void check_scene(const scene *initial, const boids_params *prm, const char *what)
{
    const float dt = 0.08f;
    scene after = *initial; /* the boids' alive flags after the step's catches */
    for (int i = 0; i < after.n; ++i) after.b[i].alive = oracle_boid(initial, i, prm, dt).alive;
    const scene *sc = &after;
    int caught = 0;
    for (int i = 0; i < sc->n; ++i) caught += initial->b[i].alive && !sc->b[i].alive;
    if (caught) printf("  %s: %d caught at the start of the step\n", what, caught);
    for (int k = 0; k < 2; ++k) {
        boids_world *w = make(backends[k], initial, prm, dt);
        if (!w) return;
        boids_boid out[64];
        boids_predator pout[8];
        REQUIRE_OK(boids_world_step(w, 1));
        REQUIRE_OK(boids_world_read(w, out, (size_t)sc->n));
        REQUIRE_OK(boids_world_read_predators(w, pout, (size_t)sc->np));
        double worst = 0;
        for (int i = 0; i < sc->n; ++i) {
            if (!sc->b[i].alive) continue;
            boids_boid e = oracle_boid(initial, i, prm, dt);
            worst = fmax(worst, off_by(out[i].vx, out[i].vy, out[i].vz, out[i].x, out[i].y,
                                       out[i].z, e.x, e.y, e.z, e.vx, e.vy, e.vz, dt));
        }
        double worst_p = 0;
        for (int i = 0; i < sc->np; ++i) {
            boids_predator e = oracle_predator(initial, i, prm, dt);
            worst_p = fmax(worst_p, off_by(pout[i].vx, pout[i].vy, pout[i].vz, pout[i].x, pout[i].y,
                                           pout[i].z, e.x, e.y, e.z, e.vx, e.vy, e.vz, dt));
        }
        printf("  %-50s %s: worst off the equations: boids %.2g px/s, predators %.2g px/s\n", what,
               names[k], worst, worst_p);
        CHECK_MSG(worst < 1e-3 && worst_p < 1e-3, "%s (%s): %g / %g px/s off", what, names[k],
                  worst, worst_p);
        CHECK(test_state_finite(out, (uint32_t)sc->n));
        for (int i = 0; i < sc->n; ++i)
            CHECK_MSG(out[i].alive == sc->b[i].alive,
                      "%s (%s): boid %d alive %u, the oracle says %u", what, names[k], i,
                      out[i].alive, sc->b[i].alive);
        boids_world_destroy(w);
    }
}

static boids_params kit_params(void)
{
    boids_params p = boids_model_default_params(BOIDS_MODEL_KIT);
    p.obstacles.obstacles = 0;
    return p;
}

/* The radii of small random flocks where every rule is active (times `scale`), ages that matter. */
static boids_params every_rule_params(float scale)
{
    boids_params p = kit_params();
    p.kit.view_radius = 220 * scale, p.kit.sep_radius = 45 * scale;
    p.kit.predator_radius = 150 * scale, p.obstacles.obstacle_radius = 120 * scale;
    p.predators.pred_view_radius = 250 * scale, p.predators.pred_sep_radius = 90 * scale;
    p.predators.pred_obstacle_radius = 120 * scale;
    p.kit.c_maxspeed = 200; /* ages matter */
    p.kit.c_view_radius = 300, p.kit.c_view_angle = 200;
    return p;
}

static void test_random_flocks_match_the_equations(void)
{
    /* Small flocks where every rule is active: radii shrunk to the world, a few predators and
     * obstacles, random ages, headings and speeds. */
    for (int trial = 0; trial < 4; ++trial) {
        scene sc;
        memset(&sc, 0, sizeof sc);
        boids_rng rng = boids_rng_seeded(40 + (uint64_t)trial);
        boids_params p = every_rule_params(1.0f);
        sc.n = 48, sc.np = 3, sc.no = 3;
        for (int i = 0; i < sc.n; ++i) {
            float a = boids_rng_float(&rng) * 6.2831853f, s = 20 + 140 * boids_rng_float(&rng);
            sc.b[i] = (boids_boid){boids_rng_float(&rng) * (float)W,
                                   boids_rng_float(&rng) * (float)H, s * cosf(a), s * sinf(a), 0};
            sc.b[i].age = boids_rng_float(&rng);
            sc.b[i].alive = 1;
        }
        for (int i = 0; i < sc.np; ++i)
            sc.p[i] = (boids_predator){
                boids_rng_float(&rng) * (float)W, boids_rng_float(&rng) * (float)H,
                100 * boids_rng_float(&rng) - 50, 100 * boids_rng_float(&rng) - 50};
        for (int i = 0; i < sc.no; ++i)
            sc.o[i] = (boids_obstacle){boids_rng_float(&rng) * (float)W,
                                       boids_rng_float(&rng) * (float)H, 20, 0, 0};
        char what[64];
        snprintf(what, sizeof what, "random flock %d (48 boids, 3 predators, 3 obstacles)", trial);
        check_scene(&sc, &p, what);
    }
}

static void test_hand_placed_cases(void)
{
    boids_params p = kit_params();
    p.kit.view_radius = 300, p.predators.pred_view_radius = 300, p.kit.c_view_radius = 0,
    p.kit.c_view_angle = 0;
    scene sc;
    memset(&sc, 0, sizeof sc);
    /* Boid 0 heads +x; boid 1 ahead of it, boid 2 right behind it (180 degrees: outside its
     * 110-degree half-angle; boid 2 sees boid 0 ahead). Boid 3 far away, alone. */
    sc.n = 4;
    sc.b[0] = (boids_boid){400, 400, 100, 0, 0};
    sc.b[1] = (boids_boid){480, 420, 60, 30, 0};
    sc.b[2] = (boids_boid){330, 400, 90, 10, 0};
    sc.b[3] = (boids_boid){100, 100, 0, 80, 0};
    for (int i = 0; i < sc.n; ++i) sc.b[i].alive = 1, sc.b[i].age = 0.5f;
    check_scene(&sc, &p, "a boid behind another, outside its view");
    /* Old and young: the same boid at age 0.5, 0.05 and 0.95 with c_maxspeed 200: its top
     * speed 150, 109.5, 109.5 px/s (eq. 9); pushed hard by separation, it hits the limit. */
    p.kit.c_maxspeed = 200;
    for (int a = 0; a < 3; ++a) {
        memset(&sc, 0, sizeof sc);
        sc.n = 2;
        sc.b[0] = (boids_boid){400, 400, 140, 0, 0};
        sc.b[1] = (boids_boid){370, 400, 140, 0, 0}; /* close behind: separation pushes boid 0 on */
        sc.b[0].age = a == 0 ? 0.5f : a == 1 ? 0.05f : 0.95f;
        sc.b[1].age = 0.5f;
        sc.b[0].alive = sc.b[1].alive = 1;
        char what[64];
        snprintf(what, sizeof what, "top speed at age %.2f", (double)sc.b[0].age);
        check_scene(&sc, &p, what);
        boids_world *w = make(BOIDS_BACKEND_CPU, &sc, &p, 0.08f);
        boids_boid out[2];
        if (w && boids_world_step(w, 1) == BOIDS_OK && boids_world_read(w, out, 2) == BOIDS_OK) {
            double top = 150 - 200 * (sc.b[0].age - 0.5) * (sc.b[0].age - 0.5);
            CHECK_MSG(fabs(hypot(out[0].vx, out[0].vy) - top) < 1e-3,
                      "age %.2f: speed %g, eq. 9 says %g", (double)sc.b[0].age,
                      hypot(out[0].vx, out[0].vy), top);
        }
        boids_world_destroy(w);
    }
    p.kit.c_maxspeed = 50;
    /* A predator across the seam: boid at x = 5, predator at x = 995 (10 px away through the
     * edge) heading +x: the boid flees towards +x, the predator attacks across the seam. */
    memset(&sc, 0, sizeof sc);
    sc.n = 1, sc.np = 1;
    sc.b[0] = (boids_boid){5, 400, 0, 60, 0};
    sc.b[0].alive = 1, sc.b[0].age = 0.5f;
    sc.p[0] = (boids_predator){975, 405, 80, 0};
    check_scene(&sc, &p, "a predator across the torus seam");
    /* An obstacle within R_O (250) of a boid, another outside it. */
    memset(&sc, 0, sizeof sc);
    sc.n = 1, sc.no = 2;
    sc.b[0] = (boids_boid){500, 400, 50, 50, 0};
    sc.b[0].alive = 1, sc.b[0].age = 0.3f;
    sc.o[0] = (boids_obstacle){600, 450, 30, 0, 0};
    sc.o[1] = (boids_obstacle){900, 100, 30, 0, 0};
    check_scene(&sc, &p, "an obstacle within R_O and one beyond it");
}

/* The same in a 3D world (issue 30's kit in 3D): random flocks in a box, every rule active,
 * obstacles as spheres, predators hunting in 3D; a boid straight above another is in its view
 * cone only within the half-angle; a predator across the z seam. */
static void test_3d_flocks_match_the_equations(void)
{
    D = 600;
    for (int trial = 0; trial < 3; ++trial) {
        scene sc;
        memset(&sc, 0, sizeof sc);
        boids_rng rng = boids_rng_seeded(70 + (uint64_t)trial);
        boids_params p = every_rule_params(1.25f); /* (a box is sparser than a plane) */
        sc.n = 48, sc.np = 3, sc.no = 3;
        for (int i = 0; i < sc.n; ++i) {
            float u = 2 * boids_rng_float(&rng) - 1, a = boids_rng_float(&rng) * 6.2831853f;
            float s = 20 + 140 * boids_rng_float(&rng), r = sqrtf(1 - u * u);
            memset(&sc.b[i], 0, sizeof sc.b[i]);
            sc.b[i].x = boids_rng_float(&rng) * (float)W,
            sc.b[i].y = boids_rng_float(&rng) * (float)H;
            sc.b[i].z = boids_rng_float(&rng) * (float)D;
            sc.b[i].vx = s * r * cosf(a), sc.b[i].vy = s * r * sinf(a), sc.b[i].vz = s * u;
            sc.b[i].age = boids_rng_float(&rng);
            sc.b[i].alive = 1;
        }
        for (int i = 0; i < sc.np; ++i)
            sc.p[i] = (boids_predator){
                boids_rng_float(&rng) * (float)W, boids_rng_float(&rng) * (float)H,
                100 * boids_rng_float(&rng) - 50, 100 * boids_rng_float(&rng) - 50,
                boids_rng_float(&rng) * (float)D, 100 * boids_rng_float(&rng) - 50};
        for (int i = 0; i < sc.no; ++i)
            sc.o[i] =
                (boids_obstacle){boids_rng_float(&rng) * (float)W, boids_rng_float(&rng) * (float)H,
                                 20, 0, boids_rng_float(&rng) * (float)D};
        char what[80];
        snprintf(what, sizeof what, "3D random flock %d (48 boids, 3 predators, 3 spheres)", trial);
        check_scene(&sc, &p, what);
    }
    boids_params p = kit_params();
    p.kit.view_radius = 300, p.predators.pred_view_radius = 300, p.kit.c_view_radius = 0,
    p.kit.c_view_angle = 0, p.kit.view_angle = 60;
    scene sc;
    memset(&sc, 0, sizeof sc);
    /* Boid 0 heads +x; boid 1 straight above it (90 degrees off its heading: outside a 60-degree
     * cone), boid 2 ahead and above (45 degrees: inside), boid 3 behind and below. */
    sc.n = 4;
    const float at[4][6] = {{400, 400, 300, 100, 0, 0},
                            {400, 400, 380, 0, 0, 90},
                            {460, 400, 360, 80, 0, 20},
                            {330, 400, 250, 0, 90, 0}};
    for (int i = 0; i < sc.n; ++i) {
        sc.b[i].x = at[i][0], sc.b[i].y = at[i][1], sc.b[i].z = at[i][2];
        sc.b[i].vx = at[i][3], sc.b[i].vy = at[i][4], sc.b[i].vz = at[i][5];
        sc.b[i].alive = 1, sc.b[i].age = 0.5f;
    }
    check_scene(&sc, &p, "3D: a boid above another, outside its cone");
    /* A predator across the z seam: boid at z = 5, predator at z = 570, 35 px below it through
     * the world's floor and ceiling (beyond its reach), heading +z at it: the boid flees up (+z),
     * the predator attacks across the seam (+z). */
    memset(&sc, 0, sizeof sc);
    sc.n = 1, sc.np = 1;
    sc.b[0].x = 500, sc.b[0].y = 400, sc.b[0].z = 5, sc.b[0].vx = 60;
    sc.b[0].alive = 1, sc.b[0].age = 0.5f;
    sc.p[0] = (boids_predator){505, 400, 0, 0, 570, 80};
    check_scene(&sc, &p, "3D: a predator across the z seam");
    boids_world *w = make(BOIDS_BACKEND_CPU, &sc, &p, 0.08f);
    boids_boid b;
    boids_predator q;
    REQUIRE_OK(boids_world_step(w, 1));
    REQUIRE_OK(boids_world_read(w, &b, 1));
    REQUIRE_OK(boids_world_read_predators(w, &q, 1));
    CHECK_MSG(b.vz > 0 && q.vz > 80, "the boid's vz %g, the predator's %g", (double)b.vz,
              (double)q.vz);
    boids_world_destroy(w);
    D = 0;
}

/* The paper's world (35 boids, 4000 px square, dt 0.08) with ages that matter (c_maxspeed 200):
 * its first catches come within a few hundred steps from seed 7. */
static boids_world_def paper_world(int k, uint32_t stop_after_catches)
{
    boids_world_def d = test_def(backends[k], 35);
    d.model = BOIDS_MODEL_KIT;
    d.params = boids_model_default_params(d.model);
    d.width = d.height = 4000;
    d.dt = 0.08f;
    d.seed = 7;
    d.params.kit.c_maxspeed = 200;
    d.params.predators.stop_after_catches = stop_after_catches;
    return d;
}

/* The catches of 900 steps of the paper's world in each of 16 replicas, on backend k, with the
 * predators' attack scaled by `attack` (-1: a wrong rule, the sign flipped). */
static test_sample catches_per_replica(int k, float attack)
{
    boids_world_def d = paper_world(k, 0);
    d.count = 35 * 16;
    d.replicas = 16;
    d.params.predators.attack_factor *= attack;
    boids_world *w;
    test_sample none = {-1, 0, 0};
    if (boids_world_create(&d, &w) != BOIDS_OK) {
        CHECK_MSG(0, "%s", boids_last_error());
        return none;
    }
    boids_replica_status rs[16];
    if (boids_world_step(w, 900) != BOIDS_OK || boids_world_replicas(w, rs, 16, NULL) != BOIDS_OK) {
        CHECK_MSG(0, "%s", boids_last_error());
        boids_world_destroy(w);
        return none;
    }
    double c[16];
    for (int r = 0; r < 16; ++r) c[r] = rs[r].catches;
    boids_world_destroy(w);
    return test_sample_of(c, 16);
}

/* The catches of the kit preset over some hundred steps, as statistics: the catches per run of 16
 * replicas (seeds) on the GPU and on the CPU are samples of one distribution, their means within
 * Welch's bound (tests/ensemble.h; no slack: counts). The check fails on a wrong rule, the GPU's
 * predators fleeing the nearest boid (attack's sign flipped). */
static void test_catches_per_run_agree_as_samples(void)
{
    test_sample cpu = catches_per_replica(0, 1), gpu = catches_per_replica(1, 1),
                wrong = catches_per_replica(1, -1);
    printf("  catches per run in 900 steps (16 replicas):\n");
    CHECK_MSG(cpu.mean >= 1, "%g catches per run: the comparison says little", cpu.mean);
    CHECK_MSG(test_same_mean("gpu", gpu, cpu, 0), "cpu %g vs gpu %g catches per run", cpu.mean,
              gpu.mean);
    CHECK_MSG(!test_same_mean("gpu, attack flipped", wrong, cpu, 0),
              "a GPU whose predators flee passes the check (%g vs %g)", wrong.mean, cpu.mean);
}

/* ... and catch for catch where the GPU rounds as IEEE does. */
static void test_same_catches_on_both_backends(void)
{
    if (!test_gpu_exact_on(test_gpu_context())) {
        printf("  (not a bitwise driver: trajectories part; the catches per run are compared as "
               "statistics)\n");
        return;
    }
    boids_events ev[2];
    boids_event *copy[2] = {NULL, NULL};
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = paper_world(k, 0); /* every catch of 900 steps */
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 900));
        REQUIRE_OK(boids_world_take_events(w, &ev[k]));
        copy[k] = malloc(sizeof(boids_event) * (ev[k].count + 1));
        memcpy(copy[k], ev[k].events, sizeof(boids_event) * ev[k].count);
        boids_replica_status rs;
        REQUIRE_OK(boids_world_replicas(w, &rs, 1, NULL));
        CHECK(rs.catches == ev[k].count && !rs.stopped);
        boids_world_destroy(w);
    }
    printf("  %zu catches in 900 steps on the cpu, %zu on the gpu:", ev[0].count, ev[1].count);
    for (size_t i = 0; i < ev[0].count; ++i)
        printf(" (step %u, boid %u, predator %u)", copy[0][i].step, copy[0][i].subject,
               copy[0][i].other);
    printf("\n");
    CHECK(ev[0].count >= 3);
    CHECK(ev[0].count == ev[1].count);
    for (size_t i = 0; i < ev[0].count && i < ev[1].count; ++i)
        CHECK(copy[0][i].step == copy[1][i].step && copy[0][i].subject == copy[1][i].subject &&
              copy[0][i].other == copy[1][i].other && copy[0][i].kind == BOIDS_EVENT_CATCH);
    free(copy[0]), free(copy[1]);
}

static void test_catch_by_two_counts_once_and_the_dead_are_gone(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_params p = kit_params();
        p.predators.stop_after_catches = 0;
        scene sc;
        memset(&sc, 0, sizeof sc);
        /* Boid 0 within reach (20 px) of predators 1 and 2 (predator 0 far): caught once, by 1.
         * Boid 1 right next to boid 0: after the catch it must not see boid 0. */
        sc.n = 3, sc.np = 3;
        sc.b[0] = (boids_boid){500, 400, 30, 0, 0};
        sc.b[1] = (boids_boid){485, 400, 30, 0, 0};
        sc.b[2] = (boids_boid){100, 700, 0, 30, 0};
        for (int i = 0; i < 3; ++i) sc.b[i].alive = 1, sc.b[i].age = 0.5f;
        sc.p[0] = (boids_predator){100, 100, 60, 0};
        sc.p[1] = (boids_predator){510, 405, -60, 0};
        sc.p[2] = (boids_predator){505, 390, -60, 0};
        boids_world *w = make(backends[k], &sc, &p, 0.08f);
        if (!w) return;
        REQUIRE_OK(boids_world_step(w, 1));
        boids_events ev;
        REQUIRE_OK(boids_world_take_events(w, &ev));
        CHECK_MSG(ev.count == 1 && ev.events[0].subject == 0 && ev.events[0].other == 1 &&
                      ev.events[0].step == 0,
                  "%s: %zu catches, the first boid %u by predator %u", names[k], ev.count,
                  ev.count ? ev.events[0].subject : 0, ev.count ? ev.events[0].other : 0);
        CHECK(fabsf(ev.events[0].value[0] - 0.5f) < 1e-7f); /* the age */
        boids_boid out[3];
        REQUIRE_OK(boids_world_read(w, out, 3));
        CHECK(out[0].alive == 0 && out[1].alive == 1);
        CHECK(out[0].x == 500 && out[0].y == 400); /* the dead stop moving */
        /* Boid 1's next velocity is the oracle's with boid 0 gone from every sum. */
        scene after = sc;
        after.b[0].alive = 0;
        boids_boid e = oracle_boid(&after, 1, &p, 0.08);
        CHECK_MSG(hypot(out[1].vx - e.vx, out[1].vy - e.vy) < 1e-3,
                  "%s: boid 1 still felt the dead boid", names[k]);
        boids_replica_status rs;
        REQUIRE_OK(boids_world_replicas(w, &rs, 1, NULL));
        CHECK(rs.catches == 1);
        boids_world_destroy(w);
    }
}

static void test_stop_after_catches(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = paper_world(k, 2);
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 2000));
        boids_replica_status rs;
        bool all;
        REQUIRE_OK(boids_world_replicas(w, &rs, 1, &all));
        CHECK_MSG(all && rs.stopped && rs.catches >= 2, "%s: %u catches, stopped %d", names[k],
                  rs.catches, rs.stopped);
        boids_boid a[35], b[35];
        REQUIRE_OK(boids_world_read(w, a, 35));
        REQUIRE_OK(boids_world_step(w, 50)); /* a stopped world stands still */
        REQUIRE_OK(boids_world_read(w, b, 35));
        CHECK(memcmp(a, b, sizeof a) == 0);
        printf("  %s: stopped at step %llu after %u catches\n", names[k],
               (unsigned long long)rs.stop_step, rs.catches);
        boids_world_destroy(w);
    }
}

static void test_degenerate(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_params p = kit_params();
        scene sc;
        memset(&sc, 0, sizeof sc);
        sc.n = 4, sc.np = 1, sc.no = 1;
        sc.b[0] = (boids_boid){300, 300, 50, 0, 0}; /* exactly on the predator */
        sc.b[1] = (boids_boid){600, 600, 0, 0, 0};  /* on the obstacle's centre, at rest */
        sc.b[2] = (boids_boid){600, 600, 0, 0, 0};  /* the same point, at rest too */
        sc.b[3] = (boids_boid){700, 300, 0, 0, 0};  /* at rest, alone */
        for (int i = 0; i < sc.n; ++i) sc.b[i].alive = 1, sc.b[i].age = 0.5f;
        sc.p[0] = (boids_predator){300, 300, 0, 0}; /* at rest */
        sc.o[0] = (boids_obstacle){600, 600, 20, 0, 0};
        boids_world *w = make(backends[k], &sc, &p, 0.08f);
        if (!w) return;
        REQUIRE_OK(boids_world_step(w, 40));
        boids_boid out[4];
        boids_predator pout[1];
        REQUIRE_OK(boids_world_read(w, out, 4));
        REQUIRE_OK(boids_world_read_predators(w, pout, 1));
        CHECK_MSG(test_state_finite(out, 4), "%s: NaN in the boids", names[k]);
        CHECK_MSG(isfinite(pout[0].x) && isfinite(pout[0].vx) && isfinite(pout[0].vy),
                  "%s: NaN in the predator", names[k]);
        CHECK(out[0].alive == 0); /* caught where it stood */
        boids_world_destroy(w);
    }
}

/* stop_after_catches = K takes a step's catches in the order (predator, boid), as the authors'
 * code does, and stops at the K-th: with K = 2 and three catches in one step (predator 2 and
 * predator 0 catch a boid each, predator 0 another), predator 0's two are made (the lower boid id
 * first), predator 2's boid lives on, and the world stops with 2 catches and 2 events. */
static void test_stop_after_catches_takes_the_first_k(void)
{
    for (int k = 0; k < 2; ++k) {
        boids_params p = kit_params();
        p.predators.stop_after_catches = 2;
        scene sc;
        memset(&sc, 0, sizeof sc);
        sc.n = 4, sc.np = 3;
        sc.b[0] = (boids_boid){100, 100, 30, 0, 0}; /* by predator 2 */
        sc.b[1] = (boids_boid){900, 700, 30, 0, 0}; /* by predator 0 */
        sc.b[2] = (boids_boid){880, 700, 30, 0, 0}; /* by predator 0 too */
        sc.b[3] = (boids_boid){500, 300, 0, 30, 0}; /* far from all */
        for (int i = 0; i < 4; ++i) sc.b[i].alive = 1, sc.b[i].age = 0.5f;
        sc.p[0] = (boids_predator){890, 705, 60, 0};
        sc.p[1] = (boids_predator){300, 700, 60, 0};
        sc.p[2] = (boids_predator){105, 95, -60, 0};
        boids_world *w = make(backends[k], &sc, &p, 0.08f);
        if (!w) return;
        REQUIRE_OK(boids_world_step(w, 1));
        boids_events ev;
        REQUIRE_OK(boids_world_take_events(w, &ev));
        boids_boid out[4];
        REQUIRE_OK(boids_world_read(w, out, 4));
        boids_replica_status rs;
        REQUIRE_OK(boids_world_replicas(w, &rs, 1, NULL));
        CHECK_MSG(ev.count == 2 && ev.events[0].subject == 1 && ev.events[1].subject == 2 &&
                      ev.events[0].other == 0 && ev.events[1].other == 0,
                  "%s: %zu catches (%u by %u, %u by %u)", names[k], ev.count,
                  ev.count ? ev.events[0].subject : 0, ev.count ? ev.events[0].other : 0,
                  ev.count > 1 ? ev.events[1].subject : 0, ev.count > 1 ? ev.events[1].other : 0);
        CHECK_MSG(out[0].alive == 1 && out[1].alive == 0 && out[2].alive == 0 && out[3].alive == 1,
                  "%s: alive %u %u %u %u", names[k], out[0].alive, out[1].alive, out[2].alive,
                  out[3].alive);
        CHECK_MSG(rs.catches == 2 && rs.stopped && rs.stop_step == 0,
                  "%s: %u catches, stopped %d at %llu", names[k], rs.catches, rs.stopped,
                  (unsigned long long)rs.stop_step);
        boids_world_destroy(w);
    }
}

/* kit-flock.ini at 8000 boids with 40 predators and its obstacles: after one step and after 150
 * (with catches), both backends hold the same boids (ages and alive flags too) and predators:
 * bit for bit where the GPU rounds as IEEE does, within 1e-3 px/s after one step elsewhere. */
static void test_flock_bit_identical(void)
{
    boids_world_def d;
    if (!test_scenario_def("kit-flock.ini", &d)) {
        CHECK_MSG(0, "scenarios/kit-flock.ini is missing");
        return;
    }
    d.count = 8000;
    d.params.predators.predators = 40;
    d.seed = 3;
    d.threads = 2;
    const uint32_t np = 40, steps[2] = {1, 150};
    const bool exact = test_gpu_exact_on(test_gpu_context());
    for (int t = 0; t < 2; ++t) {
        boids_boid *b[2];
        boids_predator p[2][40];
        uint32_t catches[2];
        for (int k = 0; k < 2; ++k) {
            d.backend = backends[k];
            d.gl = k ? test_gpu_context() : NULL;
            boids_world *w;
            REQUIRE_OK(boids_world_create(&d, &w));
            REQUIRE_OK(boids_world_step(w, steps[t]));
            b[k] = malloc(sizeof(boids_boid) * d.count);
            REQUIRE_OK(boids_world_read(w, b[k], d.count));
            REQUIRE_OK(boids_world_read_predators(w, p[k], np));
            boids_replica_status rs;
            REQUIRE_OK(boids_world_replicas(w, &rs, 1, NULL));
            catches[k] = rs.catches;
            boids_world_destroy(w);
        }
        uint32_t same = 0, same_p = 0;
        double worst = 0;
        for (uint32_t i = 0; i < d.count; ++i) {
            same += memcmp(&b[0][i], &b[1][i], sizeof b[0][i]) == 0;
            worst = fmax(worst, hypot(b[0][i].vx - b[1][i].vx, b[0][i].vy - b[1][i].vy));
        }
        for (uint32_t i = 0; i < np; ++i) same_p += memcmp(&p[0][i], &p[1][i], sizeof p[0][i]) == 0;
        printf("  kit-flock, 8000 boids, %u step%s: %u catches (cpu) / %u (gpu); %u/%u boids and "
               "%u/%u "
               "predators bit-identical, max |dv| %.3g px/s\n",
               steps[t], steps[t] == 1 ? "" : "s", catches[0], catches[1], same, d.count, same_p,
               np, worst);
        if (exact)
            CHECK(same == d.count && same_p == np && catches[0] == catches[1]);
        else if (t == 0)
            CHECK(worst <= 1e-3);
        if (t == 1) CHECK_MSG(catches[0] > 0, "no catch in 150 steps: the comparison says little");
        free(b[0]), free(b[1]);
    }
}

/* The number of predators changed in a running world (boids_world_set_params), on both backends:
 * each replica keeps its first predators and gains those a world made with the new number would
 * start with (or drops its last ones); the step count goes on; and the two
 * backends then step on alike (bit for bit where the driver rounds as IEEE does). */
static void test_predator_count_changes_live(void)
{
    boids_world_def d;
    if (!test_scenario_def("kit-flock.ini", &d)) {
        CHECK_MSG(0, "scenarios/kit-flock.ini is missing");
        return;
    }
    enum { R = 2, BEFORE = 3, MORE = 5, FEWER = 1 };
    d.count = 4000;
    d.replicas = R;
    d.params.predators.predators = BEFORE;
    d.seed = 11;
    const bool exact = test_gpu_exact_on(test_gpu_context());
    boids_predator fresh[R * MORE], kept[R * BEFORE], now[R * MORE], end[2][R * FEWER];
    { /* the predators a world made with MORE starts with */
        boids_world_def m = d;
        m.backend = BOIDS_BACKEND_CPU;
        m.params.predators.predators = MORE;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&m, &w));
        REQUIRE_OK(boids_world_read_predators(w, fresh, R * MORE));
        boids_world_destroy(w);
    }
    boids_boid *b[2] = {malloc(sizeof(boids_boid) * d.count), malloc(sizeof(boids_boid) * d.count)};
    for (int k = 0; k < 2; ++k) {
        d.backend = backends[k];
        d.gl = k ? test_gpu_context() : NULL;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        REQUIRE_OK(boids_world_step(w, 20));
        REQUIRE_OK(boids_world_read_predators(w, kept, R * BEFORE));
        boids_params p = d.params;
        p.predators.predators = MORE;
        REQUIRE_OK(boids_world_set_params(w, &p));
        boids_world_info info;
        boids_world_get_info(w, &info);
        CHECK_MSG(info.predators == R * MORE && info.steps == 20, "%s: %u predators, step %llu",
                  names[k], info.predators, (unsigned long long)info.steps);
        REQUIRE_OK(boids_world_read_predators(w, now, R * MORE));
        int first = 0, added = 0;
        for (int r = 0; r < R; ++r)
            for (int i = 0; i < MORE; ++i) {
                const boids_predator *want =
                    i < BEFORE ? &kept[r * BEFORE + i] : &fresh[r * MORE + i];
                const int same = memcmp(&now[r * MORE + i], want, sizeof *want) == 0;
                first += i < BEFORE && same, added += i >= BEFORE && same;
            }
        printf("  %s: 3 predators a replica, then 5 after 20 steps: %d/%d kept, %d/%d new as a new "
               "world's\n",
               names[k], first, R * BEFORE, added, R * (MORE - BEFORE));
        CHECK(first == R * BEFORE && added == R * (MORE - BEFORE));
        REQUIRE_OK(boids_world_step(w, 30));
        p.predators.predators = FEWER; /* and fewer: the first of each replica stays */
        REQUIRE_OK(boids_world_read_predators(w, now, R * MORE));
        REQUIRE_OK(boids_world_set_params(w, &p));
        REQUIRE_OK(boids_world_read_predators(w, end[k], R * FEWER));
        for (int r = 0; r < R; ++r)
            CHECK(memcmp(&end[k][r], &now[r * MORE], sizeof end[k][r]) == 0);
        REQUIRE_OK(boids_world_step(w, 10));
        REQUIRE_OK(boids_world_read(w, b[k], d.count));
        REQUIRE_OK(boids_world_read_predators(w, end[k], R * FEWER));
        boids_world_destroy(w);
    }
    uint32_t same = 0;
    double worst = 0;
    for (uint32_t i = 0; i < d.count; ++i) {
        same += memcmp(&b[0][i], &b[1][i], sizeof b[0][i]) == 0;
        worst = fmax(worst, hypot(b[0][i].x - b[1][i].x, b[0][i].y - b[1][i].y));
    }
    printf("  after the changes and 40 more steps: %u/%u boids bit-identical, max |dp| %.3g px\n",
           same, d.count, worst);
    if (exact)
        CHECK(same == d.count && memcmp(end[0], end[1], sizeof end[0]) == 0);
    else
        CHECK(worst < 1.0);
    free(b[0]), free(b[1]);
}

/* More predators than boids, made live (boids_world_set_params), flat and in 3D: they read back
 * as written, and both backends step them alike. (The GPU's host-side staging arrays were sized
 * when the world was made, for the larger of its boids and its predators; more predators
 * overran them.) */
static void test_more_predators_than_boids(void)
{
    enum { NP = 120 };
    const bool exact = test_gpu_exact_on(test_gpu_context());
    for (int three = 0; three < 2; ++three) {
        boids_predator got[2][NP];
        for (int k = 0; k < 2; ++k) {
            boids_world_def d = test_def(backends[k], 40);
            d.model = BOIDS_MODEL_KIT;
            d.params = kit_params();
            d.params.predators.predators = 3;
            d.width = d.height = 800, d.depth = three ? 800.0f : 0.0f;
            boids_world *w;
            REQUIRE_OK(boids_world_create(&d, &w));
            boids_params p = d.params;
            p.predators.predators = NP;
            REQUIRE_OK(boids_world_set_params(w, &p));
            boids_predator *q = got[k], back[NP];
            REQUIRE_OK(boids_world_read_predators(w, q, NP));
            q[NP - 1].x = 17, q[NP - 1].z = three ? 23.0f : 0.0f;
            REQUIRE_OK(boids_world_write_predators(w, q, NP));
            REQUIRE_OK(boids_world_read_predators(w, back, NP));
            CHECK_MSG(memcmp(back, q, sizeof back) == 0, "%s%s: the predators read back otherwise",
                      three ? "3D, " : "", names[k]);
            REQUIRE_OK(boids_world_step(w, 5));
            REQUIRE_OK(boids_world_read_predators(w, q, NP));
            boids_world_destroy(w);
        }
        double worst = 0;
        for (int i = 0; i < NP; ++i)
            worst =
                fmax(worst,
                     fmax(fabs(got[0][i].x - got[1][i].x),
                          fmax(fabs(got[0][i].y - got[1][i].y), fabs(got[0][i].z - got[1][i].z))));
        printf("  %s40 boids, then %d predators: after 5 steps the backends' predators %.3g px "
               "apart\n",
               three ? "3D, " : "", NP, worst);
        CHECK(exact ? memcmp(got[0], got[1], sizeof got[0]) == 0 : worst < 1.0);
    }
}

/* The number of boids changed in a running world (boids_world_set_count), on both backends: each
 * replica keeps its first boids and gains those a world of the new count would start with (or
 * drops its last ones); the predators, the step count and the events gathered so far stay; a
 * count that does not divide among the replicas is refused and changes nothing; and the two
 * backends then step on alike (bit for bit where the driver rounds as IEEE does). */
static void test_boid_count_changes_live(void)
{
    boids_world_def d;
    if (!test_scenario_def("kit-flock.ini", &d)) {
        CHECK_MSG(0, "scenarios/kit-flock.ini is missing");
        return;
    }
    enum { R = 2, BEFORE = 1000, MORE = 1600, FEWER = 600, NP = R * 3 };
    d.count = BEFORE;
    d.replicas = R;
    d.params.predators.predators = 3;
    d.seed = 5;
    d.width = d.height = 0.0f;              /* the default size of BEFORE boids, which then stays */
    d.event_mask |= 1u << BOIDS_EVENT_TOOL; /* a tool's events every step: some to carry over */
    const bool exact = test_gpu_exact_on(test_gpu_context());
    boids_boid *fresh = malloc(sizeof *fresh * MORE), *kept = malloc(sizeof *kept * BEFORE),
               *now = malloc(sizeof *now * MORE),
               *end[2] = {malloc(sizeof(boids_boid) * FEWER), malloc(sizeof(boids_boid) * FEWER)};
    boids_predator pred_before[NP], pred_after[NP];
    for (int k = 0; k < 2; ++k) {
        d.backend = backends[k];
        d.gl = k ? test_gpu_context() : NULL;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        boids_world_info info;
        boids_world_get_info(w, &info);
        if (k == 0) { /* the boids a world of MORE boids, the same size, starts with */
            boids_world_def m = d;
            m.count = MORE, m.width = info.width, m.height = info.height;
            boids_world *wm;
            REQUIRE_OK(boids_world_create(&m, &wm));
            REQUIRE_OK(boids_world_read(wm, fresh, MORE));
            boids_world_destroy(wm);
        }
        const boids_tool tool = {.x = info.width / 2,
                                 .y = info.height / 2,
                                 .radius = 300.0f,
                                 .strength = 0.5f,
                                 .kind = BOIDS_TOOL_ATTRACT};
        REQUIRE_OK(boids_world_set_tool(w, &tool));
        REQUIRE_OK(boids_world_step(w, 20));
        boids_events ev;
        REQUIRE_OK(boids_world_take_events(w, &ev)); /* none left before the change */
        REQUIRE_OK(boids_world_step(w, 5));          /* these steps' events are taken after it */
        REQUIRE_OK(boids_world_read(w, kept, BEFORE));
        REQUIRE_OK(boids_world_read_predators(w, pred_before, NP));
        boids_world_info after;
        CHECK(boids_world_set_count(w, MORE + 1) != BOIDS_OK && /* 2 replicas */
              boids_last_error_info()->id == BOIDS_E_DEF_COUNT &&
              strstr(boids_last_error(), "count") != NULL);
        boids_world_get_info(w, &after);
        CHECK(after.count == BEFORE && after.steps == 25);
        REQUIRE_OK(boids_world_set_count(w, MORE));
        boids_world_get_info(w, &after);
        CHECK_MSG(after.count == MORE && after.steps == 25 && after.width == info.width &&
                      after.height == info.height && after.predators == NP,
                  "%s: %u boids, step %llu, %gx%g", names[k], after.count,
                  (unsigned long long)after.steps, after.width, after.height);
        REQUIRE_OK(boids_world_read(w, now, MORE));
        REQUIRE_OK(boids_world_read_predators(w, pred_after, NP));
        uint32_t first = 0, added = 0;
        for (uint32_t r = 0; r < R; ++r)
            for (uint32_t i = 0; i < MORE / R; ++i) {
                const boids_boid *want =
                    i < BEFORE / R ? &kept[r * (BEFORE / R) + i] : &fresh[r * (MORE / R) + i];
                const int same = memcmp(&now[r * (MORE / R) + i], want, sizeof *want) == 0;
                if (i < BEFORE / R)
                    first += same;
                else
                    added += same;
            }
        REQUIRE_OK(boids_world_take_events(w, &ev));
        uint64_t late = 0;
        for (size_t e = 0; e < ev.count; ++e) late += ev.events[e].step >= 20;
        printf("  %s: %d boids, then %d after 25 steps: %u/%d kept, %u/%d new as a new world's; "
               "%llu events of steps 20-24 taken after the change\n",
               names[k], BEFORE, MORE, first, BEFORE, added, MORE - BEFORE,
               (unsigned long long)late);
        CHECK(first == BEFORE && added == MORE - BEFORE);
        CHECK(memcmp(pred_before, pred_after, sizeof pred_before) == 0);
        CHECK_MSG(late > 0 && late == ev.count, "%s: %zu events, %llu of steps 20-24", names[k],
                  ev.count, (unsigned long long)late);
        REQUIRE_OK(boids_world_step(w, 10));
        REQUIRE_OK(boids_world_read(w, now, MORE));
        REQUIRE_OK(boids_world_set_count(w, FEWER)); /* and fewer: the first of each replica */
        REQUIRE_OK(boids_world_read(w, end[k], FEWER));
        uint32_t stay = 0;
        for (uint32_t r = 0; r < R; ++r)
            for (uint32_t i = 0; i < FEWER / R; ++i)
                stay += memcmp(&end[k][r * (FEWER / R) + i], &now[r * (MORE / R) + i],
                               sizeof *now) == 0;
        CHECK_MSG(stay == FEWER, "%s: %u/%d boids kept when fewer", names[k], stay, FEWER);
        REQUIRE_OK(boids_world_step(w, 10));
        REQUIRE_OK(boids_world_read(w, end[k], FEWER));
        boids_world_destroy(w);
    }
    uint32_t same = 0;
    double worst = 0;
    for (uint32_t i = 0; i < FEWER; ++i) {
        same += memcmp(&end[0][i], &end[1][i], sizeof end[0][i]) == 0;
        worst = fmax(worst, hypot(end[0][i].x - end[1][i].x, end[0][i].y - end[1][i].y));
    }
    printf("  after the changes and 20 more steps: %u/%d boids bit-identical, max |dp| %.3g px\n",
           same, FEWER, worst);
    if (exact)
        CHECK(same == FEWER);
    else
        CHECK(worst < 1.0);
    free(fresh), free(kept), free(now), free(end[0]), free(end[1]);
}

/* More dead boids than one shader invocation may loop over (llvmpipe's 65 535): the graveyard is
 * not ordered, so a world that lost most of its flock (or a stopped one) still steps and reads. */
static void test_a_crowded_graveyard(void)
{
    const uint32_t n = 70000;
    for (int k = 0; k < 2; ++k) {
        boids_world_def d = test_def(backends[k], n);
        d.model = BOIDS_MODEL_KIT;
        d.params = boids_model_default_params(d.model);
        d.params.kit.view_radius = 40, d.params.kit.predator_radius = 40,
        d.params.obstacles.obstacle_radius = 40;
        d.params.predators.pred_view_radius = 40, d.params.predators.pred_obstacle_radius = 40;
        boids_world *w;
        REQUIRE_OK(boids_world_create(&d, &w));
        boids_boid *b = malloc(sizeof *b * n);
        REQUIRE_OK(boids_world_read(w, b, n));
        for (uint32_t i = 0; i < n; ++i) b[i].alive = i % 1000 == 0; /* 70 living */
        REQUIRE_OK(boids_world_write(w, b, n));
        REQUIRE_OK(boids_world_step(w, 3));
        boids_status st = boids_world_read(w, b, n);
        CHECK_MSG(st == BOIDS_OK, "%s: %s", names[k], boids_last_error());
        uint32_t living = 0;
        for (uint32_t i = 0; i < n; ++i) living += b[i].alive;
        CHECK(living <= 70 && test_state_finite(b, n));
        free(b);
        boids_world_destroy(w);
    }
}

TEST_MAIN(TEST(test_flock_bit_identical), TEST(test_predator_count_changes_live),
          TEST(test_more_predators_than_boids), TEST(test_boid_count_changes_live),
          TEST(test_a_crowded_graveyard), TEST(test_random_flocks_match_the_equations),
          TEST(test_hand_placed_cases), TEST(test_3d_flocks_match_the_equations),
          TEST(test_catches_per_run_agree_as_samples), TEST(test_same_catches_on_both_backends),
          TEST(test_catch_by_two_counts_once_and_the_dead_are_gone), TEST(test_stop_after_catches),
          TEST(test_stop_after_catches_takes_the_first_k), TEST(test_degenerate))
