#include "app/cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parse.h"
#include "core/scenario.h"

void boids_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: boids [SCENARIO.ini] [options]\n"
            "Simulates a flock on the GPU (OpenGL 4.3 compute shaders) or the CPU reference.\n"
            "A scenario file sets the model, its parameters and the world; options override it.\n"
            "\n"
            "  --backend gpu|cpu      backend (default gpu)\n"
            "  --model NAME           boid model (default shiffman-per-second)\n"
            "  -n, --boids N          number of boids (default 100000)\n"
            "  --swarms K             number of swarms; boid i starts in swarm i mod K (default 1)\n"
            "  --world WxH            world size in px (default: 16:9, one boid per 1000 px^2)\n"
            "  --steps K              steps to run (headless default 600; a window runs until\n"
            "                         closed unless --steps is given)\n"
            "  --dt SECONDS           fixed step of per-second models (default 1/60)\n"
            "  --seed S               seed of the initial state (default 1)\n"
            "  --init FILE.csv        start from this state (id,x,y,vx,vy,swarm) instead of random\n"
            "  --dump FILE.csv        write the final state\n"
            "  --set KEY=VALUE        set a model parameter (repeatable; see below)\n"
            "  --threads N            CPU backend worker threads (default: one per core)\n"
            "  --neighbors grid|brute CPU backend neighbour search (default grid)\n"
            "  --headless             no window even if a display exists\n"
            "  --frames DIR           write a PNG sequence to DIR (frame_000000.png, ...)\n"
            "  --size WxH             frame size for --frames and --screenshot (default 1920x1080)\n"
            "  --frame-steps K        simulation steps per exported frame (default 1)\n"
            "  --screenshot FILE      write a PNG of the last frame (with the HUD in a window)\n"
            "  -h, --help             this text\n"
            "  --version              version\n"
            "\n"
            "Exit status: 0 success, 2 bad usage or input, 1 runtime failure.\n");
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        size_t n;
        const boids_param_info *info = boids_model_params((boids_model)m, &n);
        boids_params def = boids_model_default_params((boids_model)m);
        fprintf(out, "\nmodel %s (%s) parameters:\n", boids_model_name((boids_model)m),
                boids_model_time_base((boids_model)m) == BOIDS_TIME_PER_SECOND ? "per second"
                                                                              : "per frame");
        for (size_t i = 0; i < n; ++i) {
            float v = *(const float *)((const char *)&def + info[i].offset);
            fprintf(out, "  %-16s %-8g %-7s %s\n", info[i].name, (double)v, info[i].unit,
                    info[i].description);
        }
    }
}

static boids_status bad(const char *flag, const char *value, const char *what)
{
    return boids_fail(BOIDS_ERR_INVALID, "%s: '%s' is not %s", flag, value, what);
}

static boids_status parse_u32(const char *flag, const char *s, uint32_t *out)
{
    if (!boids_parse_u32(s, UINT32_MAX, out)) return bad(flag, s, "a whole number below 2^32");
    return BOIDS_OK;
}

static boids_status parse_u64(const char *flag, const char *s, uint64_t *out)
{
    if (!boids_parse_u64(s, out)) return bad(flag, s, "a whole number below 2^64");
    return BOIDS_OK;
}

static boids_status parse_pos_float(const char *flag, const char *s, float *out)
{
    if (!boids_parse_float(s, out) || *out <= 0.0f) return bad(flag, s, "a positive decimal number");
    return BOIDS_OK;
}

static boids_status parse_size(const char *flag, const char *s, float *w, float *h)
{
    const char *x = strchr(s, 'x');
    if (!x) return bad(flag, s, "a size WxH (e.g. 1920x1080)");
    char buf[64];
    size_t n = (size_t)(x - s);
    if (n == 0 || n >= sizeof buf) return bad(flag, s, "a size WxH (e.g. 1920x1080)");
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (parse_pos_float(flag, buf, w) != BOIDS_OK || parse_pos_float(flag, x + 1, h) != BOIDS_OK)
        return bad(flag, s, "a size WxH with positive W and H (e.g. 1920x1080)");
    return BOIDS_OK;
}

/* Puts the flag in front of the library's message (which is copied first: it lives in the buffer
 * boids_fail writes to). */
static boids_status prefix_error(boids_status st, const char *flag)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", boids_last_error());
    return boids_fail(st, "%s: %s", flag, msg);
}

/* Flags followed by a value (unless written --flag=value). */
static bool takes_value(const char *flag)
{
    static const char *const with_value[] = {"--backend", "--neighbors", "--model", "-n", "--boids", "--swarms",
                                             "--world", "--steps", "--dt", "--seed", "--threads", "--init",
                                             "--dump", "--set", "--frames", "--screenshot", "--frame-steps",
                                             "--size"};
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; ++i)
        if (strcmp(flag, with_value[i]) == 0) return true;
    return false;
}

boids_status boids_cli_parse(int argc, char **argv, boids_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    cli->def = boids_default_world_def();
    cli->steps = 600;
    cli->size_w = 1920;
    cli->size_h = 1080;
    cli->frame_steps = 1;
    const char *sets[BOIDS_CLI_MAX_SETS];
    int nsets = 0;
    const char *model = NULL;
    bool neighbors_given = false, threads_given = false;

    /* The scenario file first (the one argument that is no option): options override it. */
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') {
            if (!strchr(argv[i], '=') && takes_value(argv[i])) ++i;
            continue;
        }
        if (cli->scenario_path)
            return boids_fail(BOIDS_ERR_INVALID, "unexpected argument '%s' (one scenario file: %s)", argv[i],
                              cli->scenario_path);
        cli->scenario_path = argv[i];
    }
    if (cli->scenario_path) {
        /* The file's values are defaults: an --init state still brings its own boids and swarms,
         * and a window still runs until closed (the file's steps are for headless runs). */
        unsigned given;
        boids_status st = boids_scenario_load(cli->scenario_path, &cli->def, &cli->steps, &given);
        if (st != BOIDS_OK) return st;
        cli->world_given = (given & BOIDS_SCENARIO_WORLD) != 0;
    }

    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        /* --flag=value is accepted as well as --flag value. */
        char flag[64];
        const char *val = NULL;
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof flag) {
            memcpy(flag, a, (size_t)(eq - a));
            flag[eq - a] = '\0';
            val = eq + 1;
        } else {
            snprintf(flag, sizeof flag, "%s", a);
        }
#define NEED_VALUE()                                                                                \
    do {                                                                                            \
        if (!val) {                                                                                 \
            if (i + 1 >= argc) return boids_fail(BOIDS_ERR_INVALID, "%s needs a value", flag);      \
            val = argv[++i];                                                                        \
        }                                                                                           \
    } while (0)
        boids_status st = BOIDS_OK;
        int takes_no_value = !strcmp(flag, "-h") || !strcmp(flag, "--help") ||
                             !strcmp(flag, "--version") || !strcmp(flag, "--headless");
        if (takes_no_value && val) return boids_fail(BOIDS_ERR_INVALID, "%s takes no value", flag);
        if (!strcmp(flag, "-h") || !strcmp(flag, "--help")) {
            cli->help = true;
        } else if (!strcmp(flag, "--version")) {
            cli->version = true;
        } else if (!strcmp(flag, "--headless")) {
            cli->headless = true;
        } else if (!strcmp(flag, "--backend")) {
            NEED_VALUE();
            if (!strcmp(val, "gpu")) cli->def.backend = BOIDS_BACKEND_GPU;
            else if (!strcmp(val, "cpu")) cli->def.backend = BOIDS_BACKEND_CPU;
            else st = bad(flag, val, "gpu or cpu");
        } else if (!strcmp(flag, "--neighbors")) {
            NEED_VALUE();
            neighbors_given = true;
            if (!strcmp(val, "grid")) cli->def.neighbors = BOIDS_NEIGHBORS_GRID;
            else if (!strcmp(val, "brute")) cli->def.neighbors = BOIDS_NEIGHBORS_BRUTE;
            else st = bad(flag, val, "grid or brute");
        } else if (!strcmp(flag, "--model")) {
            NEED_VALUE();
            model = val;
        } else if (!strcmp(flag, "-n") || !strcmp(flag, "--boids")) {
            NEED_VALUE();
            st = parse_u32(flag, val, &cli->def.count);
            cli->count_given = true;
        } else if (!strcmp(flag, "--swarms")) {
            NEED_VALUE();
            st = parse_u32(flag, val, &cli->def.swarms);
            if (st == BOIDS_OK && cli->def.swarms == 0) st = bad(flag, val, "at least 1");
            cli->swarms_given = true;
        } else if (!strcmp(flag, "--world")) {
            NEED_VALUE();
            st = parse_size(flag, val, &cli->def.width, &cli->def.height);
            cli->world_given = true;
        } else if (!strcmp(flag, "--steps")) {
            NEED_VALUE();
            st = parse_u32(flag, val, &cli->steps);
            cli->steps_given = true;
        } else if (!strcmp(flag, "--frames")) {
            NEED_VALUE();
            cli->frames_dir = val;
        } else if (!strcmp(flag, "--screenshot")) {
            NEED_VALUE();
            cli->screenshot = val;
        } else if (!strcmp(flag, "--frame-steps")) {
            NEED_VALUE();
            st = parse_u32(flag, val, &cli->frame_steps);
            if (st == BOIDS_OK && (cli->frame_steps < 1 || cli->frame_steps > 100000))
                st = bad(flag, val, "a whole number in [1, 100000]");
        } else if (!strcmp(flag, "--size")) {
            NEED_VALUE();
            float w, h;
            st = parse_size(flag, val, &w, &h);
            if (st == BOIDS_OK && (w != floorf(w) || h != floorf(h) || w > 16384 || h > 16384))
                st = bad(flag, val, "a size in whole pixels, at most 16384x16384");
            cli->size_w = (int)w;
            cli->size_h = (int)h;
        } else if (!strcmp(flag, "--dt")) {
            NEED_VALUE();
            st = parse_pos_float(flag, val, &cli->def.dt);
        } else if (!strcmp(flag, "--seed")) {
            NEED_VALUE();
            st = parse_u64(flag, val, &cli->def.seed);
        } else if (!strcmp(flag, "--threads")) {
            NEED_VALUE();
            threads_given = true;
            uint32_t t;
            st = parse_u32(flag, val, &t);
            if (st == BOIDS_OK && t > 256) st = bad(flag, val, "at most 256");
            cli->def.threads = (int)t;
        } else if (!strcmp(flag, "--init")) {
            NEED_VALUE();
            cli->init_path = val;
        } else if (!strcmp(flag, "--dump")) {
            NEED_VALUE();
            cli->dump_path = val;
        } else if (!strcmp(flag, "--set")) {
            NEED_VALUE();
            if (nsets == BOIDS_CLI_MAX_SETS)
                return boids_fail(BOIDS_ERR_INVALID, "--set: more than %d", BOIDS_CLI_MAX_SETS);
            sets[nsets++] = val;
        } else if (a[0] == '-') {
            return boids_fail(BOIDS_ERR_INVALID, "unknown option '%s' (see --help)", a);
        } /* else: the scenario file, read above */
#undef NEED_VALUE
        if (st != BOIDS_OK) return st;
    }

    if (model) { /* another model: its preset replaces the scenario's parameters */
        boids_status st = boids_model_from_name(model, &cli->def.model);
        if (st != BOIDS_OK) return prefix_error(st, "--model");
        cli->def.params = boids_model_default_params(cli->def.model);
    }
    /* --set after the model is known, in the order given. */
    for (int k = 0; k < nsets; ++k) {
        const char *kv = sets[k];
        const char *eq = strchr(kv, '=');
        if (!eq || eq == kv) return bad("--set", kv, "KEY=VALUE");
        char key[64];
        size_t n = (size_t)(eq - kv);
        if (n >= sizeof key) return bad("--set", kv, "KEY=VALUE with a known key");
        memcpy(key, kv, n);
        key[n] = '\0';
        boids_status st = boids_params_set(cli->def.model, &cli->def.params, key, eq + 1);
        if (st != BOIDS_OK) return prefix_error(st, "--set");
    }
    /* Checks between parameters (min_speed <= max_speed) once all are set. */
    boids_status st = boids_params_validate(cli->def.model, &cli->def.params);
    if (st != BOIDS_OK) return prefix_error(st, nsets ? "--set" : "--model");
    if (cli->def.backend == BOIDS_BACKEND_GPU && (neighbors_given || threads_given))
        return boids_fail(BOIDS_ERR_INVALID, "%s applies to --backend cpu only",
                          neighbors_given ? "--neighbors" : "--threads");
    return BOIDS_OK;
}
