/* `boids check MODEL`: a model run on both backends, flat and in 3D, metric and with nearest:K
 * (where the model reads it), from one seed, and a verdict: whether the GPU's state equals the
 * CPU's bit for bit where the driver rounds as IEEE does (boids_gl_bitwise), or, elsewhere,
 * whether its polarization and mean speed lie within the spread of the CPU's over several seeds;
 * whether any value is not finite (the reads refuse one); whether any speed left the model's
 * bounds (min_speed, max_speed, where it has them). Exit 0 when every check holds, 1 naming each
 * that does not, 2 for bad usage. Without OpenGL 4.3 the CPU alone is checked, and said.
 * --bitwise demands bit for bit whatever the driver (a CI on a driver known to round as IEEE
 * does; under BOIDS_GPU_NUMERICS=perturbed it must fail). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "base/clock.h"
#include "base/error.h"
#include "base/parse.h"
#include "core/models.h"
#include "core/rng.h"
#include "models/oracle.h"

#define CHECK_SEEDS 8     /* the CPU's ensemble, where the GPU is not bitwise */
#define CHECK_NEAREST "7" /* the nearest:K a model that reads it is checked with */

typedef struct check_opts {
    const char *model;
    uint32_t boids, steps;
    uint64_t seed;
    bool bitwise; /* --bitwise: bit for bit demanded, whatever the driver's rounding */
} check_opts;

/* One configuration: flat or 3D, metric or nearest. */
typedef struct check_case {
    const char *dims, *neighbours;
} check_case;

/* A world of the case on a backend, stepped; its state (n boids) in *out (the caller frees it). */
static boids_status run_case(const check_opts *o, const check_case *c, const char *backend,
                             uint64_t seed, boids_world **w, boids_boid **out)
{
    char boids[16], sd[24];
    snprintf(boids, sizeof boids, "%u", o->boids);
    snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
    const char *keys[] = {"model", "boids", "dims", "neighbours", "backend", "seed"};
    const char *values[] = {o->model, boids, c->dims, c->neighbours, backend, sd};
    *w = NULL, *out = NULL;
    boids_status st = boids_world_open(NULL, keys, values, 6, w);
    if (st == BOIDS_OK) st = boids_world_step(*w, o->steps);
    boids_world_info info;
    if (st == BOIDS_OK) boids_world_get_info(*w, &info);
    if (st == BOIDS_OK && !(*out = malloc(sizeof **out * (info.count ? info.count : 1))))
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids", info.count);
    if (st == BOIDS_OK) st = boids_world_read(*w, *out, info.count); /* refuses a NaN */
    return st;
}

/* The speeds' range over the state, and whether it keeps within the model's bounds (a relative
 * 1e-5 for the rounding of a length set to the bound). */
static bool speeds_within(boids_world *w, const boids_boid *b, uint32_t n, char *say, size_t size)
{
    float lo = INFINITY, hi = 0.0f, vmin = 0.0f, vmax = INFINITY;
    for (uint32_t i = 0; i < n; ++i) {
        const float s = sqrtf(b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
        lo = s < lo ? s : lo, hi = s > hi ? s : hi;
    }
    const bool has_max = boids_world_get_param(w, "max_speed", &vmax) == BOIDS_OK;
    const bool has_min = boids_world_get_param(w, "min_speed", &vmin) == BOIDS_OK;
    const bool ok = (!has_max || hi <= vmax * (1.0f + 1e-5f)) &&
                    (!has_min || vmin <= 0.0f || lo >= vmin * (1.0f - 1e-5f));
    char t[4][32];
    snprintf(say, size, "speeds %s..%s", boids_float_text(lo, t[0]), boids_float_text(hi, t[1]));
    if (has_max)
        snprintf(say + strlen(say), size - strlen(say), " %s [%s, %s]", ok ? "within" : "OUTSIDE",
                 boids_float_text(has_min ? vmin : 0.0f, t[2]), boids_float_text(vmax, t[3]));
    return ok;
}

/* Whether the GPU's state is the CPU's, bit for bit (position and velocity of every boid). */
static bool same_bits(const boids_boid *a, const boids_boid *b, uint32_t n, char *say, size_t size)
{
    uint32_t differ = 0, first = n;
    for (uint32_t i = 0; i < n; ++i)
        if (memcmp(&a[i].x, &b[i].x, sizeof(float) * 4) != 0 || a[i].z != b[i].z ||
            a[i].vz != b[i].vz)
            differ += 1, first = first < n ? first : i;
    if (differ == 0)
        snprintf(say, size, "gpu == cpu bit for bit");
    else
        snprintf(say, size, "gpu != cpu: %u of %u boids differ (the first: id %u)", differ, n,
                 first);
    return differ == 0;
}

/* Elsewhere than bitwise: the GPU's polarization and mean speed against the CPU's over
 * CHECK_SEEDS seeds, each within the ensemble's range widened by its width (a GPU's run is one
 * more draw of the same flock, not the CPU's run again). */
static boids_status within_spread(const check_opts *o, const check_case *c, boids_world *gpu,
                                  bool *ok, char *say, size_t size)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    boids_status st = BOIDS_OK;
    for (int k = 0; k < CHECK_SEEDS && st == BOIDS_OK; ++k) {
        boids_world *w;
        boids_boid *b;
        boids_metrics m = {0};
        st = run_case(o, c, "cpu", o->seed + (uint64_t)k, &w, &b);
        if (st == BOIDS_OK) st = boids_world_metrics(w, &m, 1);
        const double v[2] = {m.polarization, m.mean_speed};
        for (int j = 0; st == BOIDS_OK && j < 2; ++j)
            lo[j] = v[j] < lo[j] ? v[j] : lo[j], hi[j] = v[j] > hi[j] ? v[j] : hi[j];
        free(b);
        boids_world_destroy(w);
    }
    boids_metrics g;
    if (st == BOIDS_OK) st = boids_world_metrics(gpu, &g, 1);
    if (st != BOIDS_OK) return st;
    const double v[2] = {g.polarization, g.mean_speed};
    *ok = true;
    for (int j = 0; j < 2; ++j) {
        const double wide = hi[j] - lo[j] + 1e-6 * (fabs(hi[j]) + 1.0);
        *ok = *ok && v[j] >= lo[j] - wide && v[j] <= hi[j] + wide;
    }
    snprintf(say, size,
             "gpu %s the cpu's spread over %d seeds (polarization %.3f in %.3f..%.3f, mean "
             "speed %.4g in %.4g..%.4g)",
             *ok ? "within" : "OUTSIDE", CHECK_SEEDS, v[0], lo[0], hi[0], v[1], lo[1], hi[1]);
    return BOIDS_OK;
}

/* One case on both backends (gpu: whether there is one; bitwise: whether it rounds as IEEE
 * does): its line, and whether every check holds. */
static bool check_case_run(const check_opts *o, const check_case *c, bool gpu, bool bitwise)
{
    bool okay = false, *ok = &okay;
    char label[32], speeds[200], agree[256] = "";
    snprintf(label, sizeof label, "%s %s", strcmp(c->dims, "3") == 0 ? "3D" : "flat",
             c->neighbours);
    boids_world *cw = NULL, *gw = NULL;
    boids_boid *cb = NULL, *gb = NULL;
    boids_status st = run_case(o, c, "cpu", o->seed, &cw, &cb);
    boids_world_info info = {0};
    if (st == BOIDS_OK) boids_world_get_info(cw, &info);
    *ok = st == BOIDS_OK && speeds_within(cw, cb, info.count, speeds, sizeof speeds);
    if (st == BOIDS_OK && gpu) {
        st = run_case(o, c, "gpu", o->seed, &gw, &gb);
        char gs[160];
        if (st == BOIDS_OK && !speeds_within(gw, gb, info.count, gs, sizeof gs))
            *ok = false, snprintf(speeds, sizeof speeds, "gpu's %s", gs);
        bool agrees = false;
        if (st == BOIDS_OK && bitwise)
            agrees = same_bits(cb, gb, info.count, agree, sizeof agree);
        else if (st == BOIDS_OK)
            st = within_spread(o, c, gw, &agrees, agree, sizeof agree);
        *ok = *ok && agrees;
    }
    if (st == BOIDS_OK)
        printf("  %-16s %s; finite; %s\n", label, gpu ? agree : "the cpu alone", speeds);
    else /* a value not finite, or a world the model refuses: the case fails, with why */
        printf("  %-16s FAILS: %s\n", label, boids_last_error());
    free(cb), free(gb);
    boids_world_destroy(cw), boids_world_destroy(gw);
    return st == BOIDS_OK && okay;
}

/* ---- the oracle ------------------------------------------------------------------------------ */

#define ORACLE_BOIDS 80u

/* A world for the oracle's case: a small dense flock (every rule active, across the wrap), 160 x
 * 120 px (x 100 in 3D), at the model's values scaled to it (px_scale), no obstacles. */
static boids_status oracle_world_open(const check_opts *o, const boids_oracle * or, bool deep,
                                      const char *backend, boids_world **w, boids_params *p)
{
    char sd[24];
    snprintf(sd, sizeof sd, "%llu", (unsigned long long)o->seed);
    const char *keys[] = {"model", "boids", "world", "backend", "seed"};
    const char *values[] = {o->model, "80", deep ? "160x120x100" : "160x120", backend, sd};
    boids_status st = boids_world_open(NULL, keys, values, 5, w);
    boids_world_info info;
    if (st == BOIDS_OK) boids_world_get_info(*w, &info), *p = info.params;
    if (st == BOIDS_OK && or->px_scale) or->px_scale(p);
    p->obstacles.obstacles = 0;
    if (st == BOIDS_OK) st = boids_world_set_params(*w, p);
    return st;
}

/* The case's start: the boids over the world, each at up to 0.8 v_max along each axis. */
static void oracle_start(boids_boid *b, const boids_params *p, bool deep, uint64_t seed)
{
    boids_rng rng = boids_rng_seeded(500 + seed);
    const float vmax = p->base.max_speed, depth = deep ? 100.0f : 0.0f;
    for (uint32_t i = 0; i < ORACLE_BOIDS; ++i) {
        memset(&b[i], 0, sizeof b[i]);
        b[i].x = boids_rng_float(&rng) * 160, b[i].y = boids_rng_float(&rng) * 120;
        b[i].z = boids_rng_float(&rng) * depth;
        b[i].vx = (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f;
        b[i].vy = (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f;
        b[i].vz = deep ? (2 * boids_rng_float(&rng) - 1) * vmax * 0.8f : 0;
        b[i].bias = p->adams.bias, b[i].alive = 1, b[i].age = boids_rng_float(&rng);
    }
}

/* One step of the case on a backend against the model's oracle (models/oracle.h), as the tests'
 * test_dims does: the worst velocity error within 1e-2 px/s per 180 px/s of v_max, boids the
 * oracle finds at a branch's edge left out (a tenth at most). Its line, and whether it holds. */
/* Why a model has no oracle (a built-in one always has one: test_dims holds it): its folder has no
 * oracle.c, or one that defines none under the row's id. */
static void print_no_oracle(boids_model m)
{
    const char *folder = boids_model_folder(m);
    char path[1100];
    snprintf(path, sizeof path, "%s/oracle.c", folder ? folder : ".");
    if (folder && access(path, F_OK) == 0)
        printf("  (no oracle: %s defines none for %s: boids_oracle_<ID>, ID its manifest row's "
               "first column)\n",
               path, boids_model_name(m));
    else
        printf("  (no oracle: the model's folder has no oracle.c)\n");
}

static bool oracle_case_run(const check_opts *o, const boids_oracle * or, bool deep,
                            const char *backend)
{
    boids_world *w = NULL;
    boids_params p;
    boids_boid in[ORACLE_BOIDS], out[ORACLE_BOIDS];
    boids_predator pin[64], pout[64];
    boids_world_info info = {0};
    boids_status st = oracle_world_open(o, or, deep, backend, &w, &p);
    if (st == BOIDS_OK) oracle_start(in, &p, deep, o->seed), boids_world_get_info(w, &info);
    const uint32_t np = info.predators < 64 ? info.predators : 64;
    if (st == BOIDS_OK) st = boids_world_write(w, in, ORACLE_BOIDS);
    if (st == BOIDS_OK && np) st = boids_world_read_predators(w, pin, np);
    if (st == BOIDS_OK) st = boids_world_step(w, 1);
    if (st == BOIDS_OK) st = boids_world_read(w, out, ORACLE_BOIDS);
    if (st == BOIDS_OK && np) st = boids_world_read_predators(w, pout, np);
    const boids_oracle_world ow = {
        .model = info.model,
        .params = &p,
        .width = info.width,
        .height = info.height,
        .depth = info.depth,
        .dt = boids_model_time_base(info.model) == BOIDS_TIME_PER_SECOND ? info.dt : 1.0,
        .seed = info.seed,
        .boids = in,
        .count = ORACLE_BOIDS,
        .predators = pin,
        .predator_count = np};
    boids_world_destroy(w);
    double worst = 0;
    uint32_t edge = 0, alive = 0;
    for (uint32_t i = 0; st == BOIDS_OK && i < ORACLE_BOIDS; ++i) {
        bool near = false;
        const boids_boid e = or->step(&ow, i, &near);
        alive += out[i].alive == e.alive, edge += near;
        if (!near && e.alive)
            worst = fmax(worst, fmax(fabs(out[i].vx - e.vx),
                                     fmax(fabs(out[i].vy - e.vy), fabs(out[i].vz - e.vz))));
    }
    for (uint32_t i = 0; st == BOIDS_OK && i < np && or->predator_step; ++i) {
        const boids_predator e = or->predator_step(&ow, i);
        worst = fmax(worst, fmax(fabs(pout[i].vx - e.vx),
                                 fmax(fabs(pout[i].vy - e.vy), fabs(pout[i].vz - e.vz))));
    }
    const double tolerance = 1e-2 * p.base.max_speed / 180.0;
    const char *folder = boids_model_folder(info.model); /* a loaded model's: NULL built in */
    const bool ok =
        st == BOIDS_OK && worst < tolerance && edge <= ORACLE_BOIDS / 10 && alive == ORACLE_BOIDS;
    if (st == BOIDS_OK)
        printf("  %-16s %s %s its oracle: worst velocity error %.2g (at most %.2g), %u of %u at "
               "a branch's edge%s%s%s\n",
               deep ? "3D oracle" : "flat oracle", backend, ok ? "agrees with" : "DIFFERS from",
               worst, tolerance, edge, ORACLE_BOIDS, ok || !folder ? "" : " (",
               ok || !folder ? "" : folder,
               ok || !folder ? "" : "/oracle.c and rules.h say different things)");
    else
        printf("  %-16s %s FAILS: %s\n", deep ? "3D oracle" : "flat oracle", backend,
               boids_last_error());
    return ok;
}

static int usage_error(const char *what)
{
    fprintf(stderr,
            "boids check: %s\nusage: boids check MODEL|DIR/ [--boids N] [--steps K] [--seed S] "
            "[--bitwise] (boids --help lists the models)\n",
            what);
    return BOIDS_EXIT_USAGE;
}

static int parse(int argc, char **argv, check_opts *o)
{
    *o = (check_opts){NULL, 2000, 100, 1, false};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint32_t n;
        if (!strcmp(a, "--boids") || !strcmp(a, "-n") || !strcmp(a, "--steps")) {
            if (!v || !boids_parse_u32(v, 10000000, &n) || n == 0) {
                char msg[160];
                snprintf(msg, sizeof msg, "%s: '%s' is not a whole number in [1, 10000000]", a,
                         v ? v : "");
                return usage_error(msg);
            }
            *(strcmp(a, "--steps") ? &o->boids : &o->steps) = n, ++i;
        } else if (!strcmp(a, "--bitwise")) {
            o->bitwise = true;
        } else if (!strcmp(a, "--seed")) {
            if (!v || !boids_parse_u64(v, &o->seed)) return usage_error("--seed: not a number");
            ++i;
        } else if (a[0] == '-' || o->model) {
            char msg[160];
            snprintf(msg, sizeof msg, "'%s' is not an option of boids check", a);
            return usage_error(msg);
        } else {
            o->model = a;
        }
    }
    boids_model m;
    if (!o->model) return usage_error("which model? (boids --help lists them)");
    struct stat sb; /* a model folder (a path, or a directory here): loaded, its first model */
    if (strchr(o->model, '/') || (stat(o->model, &sb) == 0 && S_ISDIR(sb.st_mode))) {
        boids_model_load_info info;
        if (boids_model_load(o->model, &info) != BOIDS_OK) {
            fprintf(stderr, "boids check: %s\n", boids_last_error());
            return BOIDS_EXIT_RUNTIME;
        }
        o->model = boids_model_name(info.first); /* (the load said what it did: its reporter) */
    }
    if (boids_model_from_name(o->model, &m) != BOIDS_OK) return usage_error(boids_last_error());
    return BOIDS_EXIT_OK;
}

int boids_check_main(int argc, char **argv)
{
    check_opts o;
    int code = parse(argc, argv, &o);
    if (code != BOIDS_EXIT_OK) return code;
    boids_model m;
    boids_model_from_name(o.model, &m);
    const unsigned f = boids_model_features(m);
    const bool nearest = !(f & BOIDS_FEATURE_OWN_WALK) || (f & BOIDS_FEATURE_NEAREST);
    boids_gl *gl = NULL;
    bool bitwise = false;
    const bool gpu = boids_gl_create_headless(&gl) == BOIDS_OK;
    char why[300] = "";
    if (gpu && boids_gl_bitwise(gl, &bitwise) != BOIDS_OK) bitwise = false;
    const char *how = o.bitwise ? "bit for bit, as --bitwise demands"
                      : bitwise ? "rounds as IEEE does: bit for bit"
                                : "not IEEE: within the spread";
    if (gpu)
        snprintf(why, sizeof why, "on cpu and gpu (%s: %s)", boids_gl_renderer(gl), how);
    else
        snprintf(why, sizeof why, "on the cpu alone (no OpenGL 4.3: %s)", boids_last_error());
    bitwise = bitwise || o.bitwise;
    boids_gl_destroy(gl);
    printf("boids check %s: %u boids, %u steps from seed %llu, %s\n", o.model, o.boids, o.steps,
           (unsigned long long)o.seed, why);
    const check_case cases[] = {{"2", "metric"},
                                {"2", "nearest:" CHECK_NEAREST},
                                {"3", "metric"},
                                {"3", "nearest:" CHECK_NEAREST}};
    const double t0 = boids_clock_seconds();
    int failed = 0, run = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        if (!nearest && strcmp(cases[k].neighbours, "metric") != 0) continue;
        failed += !check_case_run(&o, &cases[k], gpu, bitwise), ++run;
    }
    const boids_oracle *oracle = boids_oracle_of(m);
    for (int deep = 0; deep < 2 && oracle; ++deep)
        for (int be = 0; be < (gpu ? 2 : 1); ++be)
            failed += !oracle_case_run(&o, oracle, deep, be ? "gpu" : "cpu"), ++run;
    if (!oracle) print_no_oracle(m);
    printf("boids check: %s %s (%d configuration%s, %.1f s)%s\n", o.model,
           failed ? "FAILS" : "passes", run, run == 1 ? "" : "s", boids_clock_seconds() - t0,
           failed ? ""
           : gpu  ? ""
                  : ": the gpu was not checked");
    return failed ? BOIDS_EXIT_RUNTIME : BOIDS_EXIT_OK;
}
