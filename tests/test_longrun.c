/* 500 steps of 20000 boids on the GPU, for every model (or the one named on the command line),
 * 1 and 3 swarms: the flock's observables (polarization, mean nearest-neighbour distance, mean
 * speed) against the spread of the CPU's own ensemble of the same world (tests/ensemble.h: 10
 * runs from seeds 2026 to 2035, all but the first read from tests/longrun-ensemble.txt; the bound
 * is stated at each check). A chaotic flock's
 * trajectories part on a real GPU; its statistics must not leave the CPU's spread. Where the GPU
 * rounds as IEEE does, its run equals the ensemble's first member (the same seed): the
 * observables then agree to the metrics' own rounding (1e-5), which implies the spread, so there
 * only that member runs, and only for 1 swarm: 3 swarms would be member 0 again, bit for bit,
 * which test_agreement holds for every model (CI: llvmpipe runs every model so; its emulated GPU
 * numerics run the flagship models against the whole ensemble, 1 and 3 swarms).
 * Speeds stay within the model's limits. For shiffman-per-second the flock must also have
 * flocked (polarization grew), or the comparison would say little, and the check must fail on a
 * wrong rule: the GPU with cohesion's sign flipped, or the separation radius a fifth short.
 * `test_longrun --list` names the models of the manifest: ctest registers one test per model
 * from it (tests/discover.cmake).
 *
 * A model whose preset is its paper's small world (kit: 35 boids in 4000^2 px, view radius 950 px)
 * would see every boid of a 20000-boid flock; such a model ships a scenario for flocks at scale,
 * scenarios/<model>-flock.ini, and where one exists its parameters, dt and layout are the ones
 * compared here, and its world, scaled to 20000 boids at its density (vicsek-flock's box at the
 * Vicsek paper's density; kit-flock's is the default density's). */
#include "ensemble.h"
#include "gpu_exact.h"
#include "test.h"

#define MEMBERS 10
#define STEPS 500

static boids_model model_under_test;
static boids_world_def def_under_test; /* the model's preset, or its -flock.ini scenario's */

/* The observables compared, as an array. */
enum { POLARIZATION, MEAN_NN, MEAN_SPEED, OBSERVABLES };
static const char *const observable_names[OBSERVABLES] = {"polarization", "mean NN", "mean speed"};

typedef struct run_result {
    boids_metrics start, end;
    bool ok;
} run_result;

static boids_world_def longrun_def(boids_backend backend, uint32_t swarms)
{
    boids_world_def d = test_def(backend, 20000);
    d.model = model_under_test;
    d.params = def_under_test.params;
    d.dt = def_under_test.dt;
    d.layout = def_under_test.layout;
    d.swarms = swarms;
    d.seed = 2026;
    /* a scenario's own world (vicsek-flock's box at the paper's density), scaled to this flock at
     * that density; else the default world for the count */
    if (def_under_test.width > 0 && def_under_test.count > 0) {
        boids_world_def own = def_under_test;
        boids_world_def_scale(&own, d.count);
        d.width = own.width, d.height = own.height, d.depth = own.depth;
    }
    return d;
}

/* STEPS of the world d, from the seed of ensemble member `member` (its seed + member). */
static run_result run(boids_world_def d, uint32_t member, const char *label)
{
    run_result r = {.ok = false};
    d.seed += member;
    boids_world *w;
    if (boids_world_create(&d, &w) != BOIDS_OK) {
        CHECK_MSG(0, "%s: %s", label, boids_last_error());
        return r;
    }
    boids_boid *b = malloc(sizeof *b * d.count);
    bool ok = boids_world_metrics(w, &r.start, 1) == BOIDS_OK;
    ok = ok && boids_world_step(w, STEPS) == BOIDS_OK;
    ok = ok && boids_world_read(w, b, d.count) == BOIDS_OK;
    CHECK_MSG(ok, "%s: %s", label, boids_last_error());
    CHECK_MSG(!ok || test_state_finite(b, d.count), "%s: a state not finite", label);
    ok = ok && boids_world_metrics(w, &r.end, 1) == BOIDS_OK;
    r.ok = ok;
    free(b);
    boids_world_destroy(w);
    return r;
}

static void observables(const boids_metrics *m, double out[OBSERVABLES])
{
    out[POLARIZATION] = m->polarization;
    out[MEAN_NN] = m->mean_nn;
    out[MEAN_SPEED] = m->mean_speed;
}

/* The CPU's ensemble of the world of `swarms` swarms: `members` runs (at most MEMBERS), each
 * observable a sample. */
typedef struct ensemble {
    test_sample of[OBSERVABLES];
    run_result first; /* member 0: the GPU run's seed */
    double max_speed, min_speed;
    bool ok;
} ensemble;

/* What the ensemble keeps of a member's run: the observables and the speeds at the end. */
enum { STORED = OBSERVABLES + 2 };
static void stored_of(const boids_metrics *end, double out[STORED])
{
    observables(end, out);
    out[OBSERVABLES] = end->min_speed, out[OBSERVABLES + 1] = end->max_speed;
}

/* The stored ensembles, tests/longrun-ensemble.txt (beside this program in the build, else the
 * source tree's): "MODEL SWARMS MEMBER" and the member's STORED values, %.17g. The CPU is the
 * same on every machine, so a GPU that cannot match it bit for bit is held to members 1 to 9
 * read here, not run again (18 runs of 20 000 boids a model); member 0 always runs, and must be
 * the stored one to the bit, so a stale file fails by name. A model or swarm count without its
 * 10 lines runs whole. `test_longrun --write-ensemble MODEL...` prints a model's lines. */
static bool stored_ensemble(uint32_t swarms, double out[MEMBERS][STORED])
{
    char path[4200];
    FILE *f = test_data_path("longrun-ensemble.txt", BOIDS_TEST_LONGRUN_ENSEMBLE, path, sizeof path)
                  ? fopen(path, "r")
                  : NULL;
    if (!f) return false;
    char line[512], model[64];
    uint32_t found = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned s, m;
        double v[STORED];
        if (sscanf(line, "%63s %u %u %lg %lg %lg %lg %lg", model, &s, &m, &v[0], &v[1], &v[2],
                   &v[3], &v[4]) != 3 + STORED)
            continue; /* a comment */
        if (strcmp(model, boids_model_name(model_under_test)) || s != swarms || m >= MEMBERS)
            continue;
        memcpy(out[m], v, sizeof v);
        ++found;
    }
    fclose(f);
    return found == MEMBERS;
}

static ensemble cpu_ensemble(uint32_t swarms, uint32_t members)
{
    ensemble e = {.ok = true, .max_speed = 0, .min_speed = INFINITY};
    double v[OBSERVABLES][MEMBERS], st[MEMBERS][STORED];
    bool stored = members > 1 && stored_ensemble(swarms, st);
    for (uint32_t m = 0; m < members; ++m) {
        double o[STORED];
        if (m > 0 && stored) {
            memcpy(o, st[m], sizeof o);
        } else {
            run_result r = run(longrun_def(BOIDS_BACKEND_CPU, swarms), m, "cpu");
            if (!r.ok) return e.ok = false, e;
            stored_of(&r.end, o);
            if (m == 0) e.first = r;
            if (m == 0 && stored && memcmp(o, st[0], sizeof o) != 0) {
                CHECK_MSG(0,
                          "member 0's run is not tests/longrun-ensemble.txt's (stale: "
                          "test_longrun --write-ensemble %s writes it anew)",
                          boids_model_name(model_under_test));
                stored = false;
            }
        }
        for (int k = 0; k < OBSERVABLES; ++k) v[k][m] = o[k];
        e.min_speed = fmin(e.min_speed, o[OBSERVABLES]);
        e.max_speed = fmax(e.max_speed, o[OBSERVABLES + 1]);
    }
    if (stored)
        printf("  members 1 to %u of %u swarm%s: tests/longrun-ensemble.txt\n", members - 1, swarms,
               swarms == 1 ? "" : "s");
    for (int k = 0; k < OBSERVABLES; ++k) e.of[k] = test_sample_of(v[k], members);
    return e;
}

/* --write-ensemble: the lines of tests/longrun-ensemble.txt of the model under test. */
static int write_ensemble(void)
{
    const uint32_t swarms[2] = {1, 3};
    for (int s = 0; s < 2; ++s)
        for (uint32_t m = 0; m < MEMBERS; ++m) {
            run_result r = run(longrun_def(BOIDS_BACKEND_CPU, swarms[s]), m, "cpu");
            if (!r.ok) return 1;
            double o[STORED];
            stored_of(&r.end, o);
            printf("%s %u %u", boids_model_name(model_under_test), swarms[s], m);
            for (int k = 0; k < STORED; ++k) printf(" %.17g", o[k]);
            printf("\n");
            fflush(stdout);
        }
    return 0;
}

/* Whether every observable of a GPU run lies within the ensemble's spread, with the slack of the
 * metrics' own rounding on one state (test_metric_slack). */
static bool within_spread(const run_result *g, const ensemble *e)
{
    double o[OBSERVABLES];
    observables(&g->end, o);
    bool all = true;
    for (int k = 0; k < OBSERVABLES; ++k) {
        const double slack =
            test_metric_slack(k == POLARIZATION ? "polarization" : "measure", e->of[k].mean);
        all &= test_in_spread(observable_names[k], o[k], e->of[k], slack);
    }
    return all;
}

static void print_run(const char *label, uint32_t swarms, const run_result *r)
{
    printf("  %-19s %s, %u swarm%s: polarization %.4f -> %.4f, mean NN %.3f -> %.3f px, mean speed "
           "%.3f\n",
           boids_model_name(model_under_test), label, swarms, swarms == 1 ? " " : "s",
           r->start.polarization, r->end.polarization, r->start.mean_nn, r->end.mean_nn,
           r->end.mean_speed);
}

static void compare(uint32_t swarms)
{
    /* Where the GPU rounds as IEEE does, its run is member 0's, bit for bit (the observables
     * checked below to the metrics' rounding), and so within any spread that holds member 0: the
     * other members' runs (18 of a model's 22) would check nothing, and only member 0 runs. The
     * spread is checked wherever the GPU's numerics differ (a real GPU; CI's emulated numerics
     * run the flagship models so). */
    const bool exact = test_gpu_exact_on(test_gpu_context());
    run_result g = run(longrun_def(BOIDS_BACKEND_GPU, swarms), 0, "gpu");
    ensemble e = cpu_ensemble(swarms, exact ? 1 : MEMBERS);
    if (!g.ok || !e.ok) return;
    print_run("gpu", swarms, &g);
    print_run("cpu (same seed)", swarms, &e.first);
    if (exact) { /* the same state as member 0: to the metrics' rounding */
        double o[OBSERVABLES], c[OBSERVABLES];
        observables(&g.end, o);
        observables(&e.first.end, c);
        for (int k = 0; k < OBSERVABLES; ++k)
            CHECK_MSG(fabs(o[k] - c[k]) <= 1e-5 * fmax(fabs(c[k]), 1), "%s: %g vs %g (bitwise)",
                      observable_names[k], o[k], c[k]);
    } else {
        CHECK_MSG(within_spread(&g, &e), "the GPU's observables left the CPU ensemble's spread");
    }
    const boids_params p = def_under_test.params;
    /* Speeds stay within the model's limits (priority and mean: only the maximum); the GPU's
     * numerics may leave an ulp. */
    CHECK(e.max_speed <= p.base.max_speed * (1 + 1e-5) &&
          g.end.max_speed <= p.base.max_speed * (1 + 1e-5));
    CHECK(e.min_speed >= p.base.min_speed * (1 - 1e-5) - 1e-6);
    if (model_under_test == BOIDS_MODEL_SHIFFMAN_PER_SECOND) /* random headings became groups */
        CHECK_MSG(e.first.end.polarization > 5 * e.first.start.polarization,
                  "no flocking: polarization %g -> %g", e.first.start.polarization,
                  e.first.end.polarization);
}

static void test_one_swarm(void) { compare(1); }
static void test_three_swarms(void) { compare(3); }

/* The check can fail: the GPU with a wrong rule (cohesion's sign flipped; the separation radius a
 * fifth short, as if the walk missed part of a cell) leaves the spread (shiffman-per-second). */
static void test_wrong_rules_leave_the_spread(void)
{
    ensemble e = cpu_ensemble(1, MEMBERS);
    if (!e.ok) return;
    for (int wrong = 0; wrong < 2; ++wrong) {
        boids_world_def d = longrun_def(BOIDS_BACKEND_GPU, 1);
        if (wrong == 0)
            d.params.reynolds.cohesion_weight = -d.params.reynolds.cohesion_weight;
        else
            d.params.reynolds.sep_radius *= 0.8f;
        const char *what = wrong == 0 ? "gpu, cohesion flipped" : "gpu, separation short";
        run_result g = run(d, 0, what);
        if (!g.ok) return;
        print_run(what, 1, &g);
        CHECK_MSG(!within_spread(&g, &e), "%s: within the CPU's spread", what);
    }
}

int main(int argc, char **argv)
{
    static const test_case tests[] = {TEST(test_one_swarm), TEST(test_wrong_rules_leave_the_spread),
                                      TEST(test_three_swarms)};
    int first = 0, last = BOIDS_MODEL_COUNT - 1;
    if (argc > 1 && strcmp(argv[1], "--list") == 0) { /* ctest's test list: one test per model */
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
            printf("%s\n", boids_model_name((boids_model)m));
        return 0;
    }
    const bool writing = argc > 2 && strcmp(argv[1], "--write-ensemble") == 0;
    if (writing) --argc, ++argv;
    if (argc > 1) {
        boids_model m;
        if (boids_model_from_name(argv[1], &m) != BOIDS_OK) {
            fprintf(stderr, "%s\n", boids_last_error());
            return 2;
        }
        first = last = (int)m;
    }
    int status = 0;
    for (int m = first; m <= last; ++m) {
        model_under_test = (boids_model)m;
        def_under_test = boids_default_world_def();
        def_under_test.model = model_under_test;
        def_under_test.params = boids_model_default_params(model_under_test);
        char flock[256];
        snprintf(flock, sizeof flock, "%s-flock.ini", boids_model_name(model_under_test));
        const bool own = test_scenario_def(flock, &def_under_test);
        if (writing) {
            status |= write_ensemble();
            continue;
        }
        if (own)
            printf("model %s, with the parameters of scenarios/%s\n",
                   boids_model_name(model_under_test), flock);
        else
            printf("model %s\n", boids_model_name(model_under_test));
        /* the wrong rules are shiffman-per-second's. On a bitwise driver the 3 swarms would be
         * member 0 again, which test_agreement holds already (every model, 2 swarms, 100 steps
         * bit for bit): they run where the GPU's numerics differ. */
        const bool sps = model_under_test == BOIDS_MODEL_SHIFFMAN_PER_SECOND;
        const bool exact = test_gpu_exact_on(test_gpu_context());
        test_case list[3] = {tests[0]};
        int n = 1;
        if (sps) list[n++] = tests[1];
        if (!exact)
            list[n++] = tests[2];
        else
            printf("  3 swarms: not run on a bitwise driver (test_agreement's 2 swarms are)\n");
        status |= test_run(list, n);
    }
    return status;
}
