#include "app/cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/metrics_log.h"
#include "core/error.h"
#include "core/parse.h"

/* Text wrapped to `width` columns, each line after the first indented by `indent`; the first
 * continues a line already `col` columns long. */
static void wrapped(FILE *out, const char *text, int col, int indent, int width)
{
    const char *p = text;
    while (*p) {
        const char *end = p;
        int room = width - col;
        if ((int)strlen(p) <= room) end = p + strlen(p);
        else {
            for (const char *q = p; q - p <= room && *q; ++q)
                if (*q == ' ') end = q;
            if (end == p) end = strchr(p, ' ') ? strchr(p, ' ') : p + strlen(p); /* one long word */
        }
        fprintf(out, "%.*s\n", (int)(end - p), p);
        p = *end == ' ' ? end + 1 : end;
        if (*p) fprintf(out, "%*s", indent, ""), col = indent;
    }
}

void boids_cli_usage(FILE *out)
{
    fprintf(out,
            "usage: boids [SCENARIO.ini] [options]       a window where there is a display, else headless\n"
            "       boids experiment SCENARIO.ini --runs R --out DIR [options]   (boids experiment --help)\n"
            "       boids experiment-merge OUT DIR1 DIR2 ...\n"
            "Simulates a flock with OpenGL 4.3 compute shaders or the CPU reference. A scenario file\n"
            "sets the model, its parameters and the world; options override it.\n"
            "\n"
            "  --backend auto|gpu|cpu auto (default): the GPU on a hardware GPU, else the CPU\n"
            "  --model NAME           boid model (default shiffman-per-second; the list below)\n"
            "  -n, --boids N          number of boids (default 100000)\n"
            "  --swarms K             number of swarms; boid i starts in swarm i mod K (default 1)\n"
            "  --world WxH            world size in px (default: 16:9, one boid per 1000 px^2)\n"
            "  --steps K              steps to run (headless default 600; a window runs until\n"
            "                         closed unless --steps is given)\n"
            "  --dt SECONDS           fixed step of per-second models (default 1/60)\n"
            "  --seed S               seed of the initial state (default 1)\n"
            "  --layout NAME          initial layout: uniform, centre (default: the model's)\n"
            "  --set KEY=VALUE        set a model parameter (repeatable; the lists below)\n"
            "  --init FILE.csv        start from this state (id,x,y,vx,vy,swarm,...)\n"
            "  --dump FILE.csv        write the final state\n"
            "  --predators FILE.csv   start the predators (id,x,y,vx,vy) from this file (kit)\n"
            "  --dump-predators FILE  write the predators' final state (kit)\n"
            "  --obstacle X,Y,R       an obstacle (repeatable): replaces the random ones\n"
            "  --events FILE.csv      write the catches: step,time,boid,age,predator (kit)\n"
            "  --metrics FILE.csv     write the observables (step,time,alive,polarization,mean_nn,\n"
            "                         mean_speed,min_speed,max_speed,groups,catches)\n"
            "  --metrics-every K      steps between rows of --metrics (default 10)\n"
            "  --threads N            CPU backend worker threads (default: one per core)\n"
            "  --neighbors grid|brute CPU backend neighbour search (default grid)\n"
            "  --headless             no window even if a display exists\n"
            "  --frames DIR           write a PNG sequence into DIR (made if missing)\n"
            "  --video FILE.mp4       write a video through ffmpeg (a headless run; apt install ffmpeg)\n"
            "  --fps F                frame rate of --video and of the ffmpeg command (default 30)\n"
            "  --size WxH             frame size for --frames, --video, --screenshot (1920x1080)\n"
            "  --frame-steps K        simulation steps per exported frame (default 1)\n"
            "  --warmup K             steps run before the first frame (not exported)\n"
            "  --view X,Y,W,H         export this region of the world (default: all of it)\n"
            "  --boid-size PX         a boid's drawn length in world px (default 8; at least 3 px)\n"
            "  --screenshot FILE      write a PNG of the last frame (with the HUD in a window)\n"
            "  -h, --help             this text\n"
            "  --version              version\n"
            "\n"
            "Examples:\n"
            "  boids scenarios/kit.ini                               the kit paper's world, in a window\n"
            "  boids -n 20000 --swarms 3 --steps 1200 --headless --dump flock.csv\n"
            "  boids --init flock.csv --backend cpu --steps 60 --set align_weight=2\n"
            "  boids -n 50000 --headless --warmup 300 --steps 600 --frames out --video flock.mp4\n"
            "  boids experiment scenarios/kit.ini --runs 100 --set c_maxspeed=200 --out ages\n"
            "\n");
    fprintf(out, "Viewer keys: ");
    wrapped(out,
            "Space pause, N one step, R / Shift+R reset / reseed, M / Shift+M next / previous model, "
            "Backspace the model's preset, = / - double / halve the boids, [ / ] slower / faster, "
            "C colour mode, T mouse tool, Tab panel, Up/Down/Left/Right a parameter, wheel zoom, drag pan, "
            "Home fit, V vsync, I passes, G live plot, S save the parameters as a scenario, D dump the state, "
            "P screenshot (Shift+P: without the HUD), O record, H or F1 help (Esc closes it), Esc or Q quit.",
            13, 2, 100);
    fprintf(out, "\nExit status: 0 success, 2 bad usage or input, 1 runtime failure, 128+N after signal N.\n");
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        size_t n;
        const boids_param_info *info = boids_model_params((boids_model)m, &n);
        boids_params def = boids_model_default_params((boids_model)m);
        char head[512];
        int col = snprintf(head, sizeof head, "model %s (%s): ", boids_model_name((boids_model)m),
                           boids_model_time_base((boids_model)m) == BOIDS_TIME_PER_SECOND ? "per second" : "per frame");
        fprintf(out, "\n%s", head);
        wrapped(out, boids_model_summary((boids_model)m), col, 2, 100);
        int width = 0; /* the model's longest name sets its column */
        for (size_t i = 0; i < n; ++i) width = (int)strlen(info[i].name) > width ? (int)strlen(info[i].name) : width;
        for (size_t i = 0; i < n; ++i) {
            char v[32];
            const float value = boids_param_get(&def, &info[i]);
            const bool edges = (info[i].flags & BOIDS_PARAM_EDGES) == BOIDS_PARAM_EDGES;
            int c = fprintf(out, "  %-*s %-8s %-9s ", width, info[i].name,
                            edges ? boids_edges_name(value) : boids_float_text(value, v), info[i].unit);
            wrapped(out, info[i].description, c, c > 60 ? 8 : c, 100);
        }
    }
}

void boids_cli_resolve_backend(boids_cli *cli)
{
    if (!cli->backend_auto) return;
    boids_gl *gl = NULL;
    if (boids_gl_create_headless(&gl) != BOIDS_OK) {
        cli->def.backend = BOIDS_BACKEND_CPU;
        snprintf(cli->backend_note, sizeof cli->backend_note, "auto: no OpenGL 4.3 context here");
        return;
    }
    const bool soft = boids_gl_is_software(gl);
    cli->def.backend = soft ? BOIDS_BACKEND_CPU : BOIDS_BACKEND_GPU;
    snprintf(cli->backend_note, sizeof cli->backend_note, "auto: %s%s", boids_gl_renderer(gl),
             soft ? " runs on the CPU (a software rasterizer), slower than the CPU backend; --backend gpu forces it"
                  : "");
    boids_gl_destroy(gl);
}

static boids_status bad(const char *flag, const char *value, const char *what)
{
    return boids_fail(BOIDS_E_USAGE, "%s: '%s' is not %s", flag, value, what);
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

/* The definition fields a flag can set, in the order of boids_cli.flag_of. */
static const char *const fields[] = {"model", "count", "swarms", "world", "dt", "seed", "threads",
                                     "neighbors", "backend", "layout"};
#define FIELD_COUNT (sizeof fields / sizeof fields[0])
_Static_assert(FIELD_COUNT <= sizeof(((boids_cli *)0)->flag_of) / sizeof(const char *), "flag_of too small");

static int field_index(const char *key)
{
    for (size_t i = 0; i < FIELD_COUNT; ++i)
        if (strcmp(fields[i], key) == 0) return (int)i;
    return -1;
}

static void given_by(boids_cli *cli, const char *field, const char *flag)
{
    int i = field_index(field);
    if (i >= 0) cli->flag_of[i] = flag;
}

const char *boids_cli_origin(const boids_cli *cli, const char *key, char *buf, size_t size)
{
    int i = field_index(key);
    if (i >= 0 && cli->flag_of[i]) return cli->flag_of[i];
    if (strcmp(key, "obstacle") == 0 && cli->obstacle_count) return "--obstacle";
    /* --set KEY=...: the last one given wins */
    size_t klen = strlen(key);
    for (int k = cli->nsets - 1; k >= 0; --k)
        if (strncmp(cli->sets[k], key, klen) == 0 && cli->sets[k][klen] == '=') {
            snprintf(buf, size, "--set %s", key);
            return buf;
        }
    /* a line of the scenario file (its key for the boid count is "boids") */
    if (cli->scenario_path) {
        const char *file_key = strcmp(key, "count") == 0 ? "boids" : key;
        long line = boids_scenario_line(&cli->scenario, file_key);
        if (line > 0) {
            snprintf(buf, size, "%s:%ld: %s", cli->scenario_path, line, file_key);
            return buf;
        }
    }
    return NULL;
}

const char *boids_cli_obstacle_origin(const boids_cli *cli, size_t i, char *buf, size_t size)
{
    if (cli->obstacle_count) { /* the command line's replace the file's */
        if (i >= cli->obstacle_count) return NULL;
        snprintf(buf, size, "--obstacle %s", cli->obstacle_text[i]);
        return buf;
    }
    if (!cli->scenario_path || i >= cli->scenario.obstacle_count) return NULL;
    snprintf(buf, size, "%s:%ld: obstacle", cli->scenario_path, cli->scenario.obstacle_lines[i]);
    return buf;
}

/* Flags followed by a value (unless written --flag=value). */
static bool takes_value(const char *flag)
{
    static const char *const with_value[] = {"--backend", "--neighbors", "--model", "-n", "--boids", "--swarms",
                                             "--world", "--steps", "--dt", "--seed", "--threads", "--init",
                                             "--dump", "--set", "--frames", "--screenshot", "--frame-steps",
                                             "--size", "--layout", "--predators", "--dump-predators",
                                             "--obstacle", "--events", "--metrics", "--metrics-every", "--video",
                                             "--fps", "--warmup", "--view", "--boid-size"};
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
    cli->metrics_every = 10;
    cli->backend_auto = true;
    cli->fps = 30;
    const char *model = NULL;

    /* The scenario file first (the one argument that is no option): options override it. */
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') {
            /* --set KEY VALUE would take VALUE for the scenario file: say what --set wants */
            if (!strcmp(argv[i], "--set") && i + 1 < argc && !strchr(argv[i + 1], '='))
                return i + 2 < argc && argv[i + 2][0] != '-'
                           ? boids_fail(BOIDS_E_USAGE, "--set %s %s: --set takes KEY=VALUE as one argument: --set %s=%s",
                                        argv[i + 1], argv[i + 2], argv[i + 1], argv[i + 2])
                           : boids_fail(BOIDS_E_USAGE, "--set %s: --set takes KEY=VALUE", argv[i + 1]);
            if (!strchr(argv[i], '=') && takes_value(argv[i])) ++i;
            continue;
        }
        if (cli->scenario_path)
            return boids_fail(BOIDS_E_USAGE, "unexpected argument '%s' (one scenario file: %s)", argv[i],
                              cli->scenario_path);
        cli->scenario_path = argv[i];
    }
    if (cli->scenario_path) {
        /* The file's values are defaults: an --init state still brings its own boids and swarms,
         * and a window still runs until closed (the file's steps are for headless runs). */
        boids_status st = boids_scenario_load(cli->scenario_path, cli->steps, &cli->scenario);
        if (st != BOIDS_OK) return st;
        cli->def = cli->scenario.def;
        cli->steps = cli->scenario.steps;
        cli->world_given = cli->scenario.has_world;
    }

    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        /* --flag=value is accepted as well as --flag value. */
        char flag_buf[64];
        const char *flag = a, *val = NULL;
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof flag_buf) {
            memcpy(flag_buf, a, (size_t)(eq - a));
            flag_buf[eq - a] = '\0';
            val = eq + 1;
            flag = flag_buf;
        }
#define NEED_VALUE()                                                                                \
    do {                                                                                            \
        if (!val) {                                                                                 \
            if (i + 1 >= argc) return boids_fail(BOIDS_E_USAGE, "%s needs a value", flag);          \
            val = argv[++i];                                                                        \
        }                                                                                           \
    } while (0)
        boids_status st = BOIDS_OK;
        int takes_no_value = !strcmp(flag, "-h") || !strcmp(flag, "--help") ||
                             !strcmp(flag, "--version") || !strcmp(flag, "--headless");
        if (takes_no_value && val) return boids_fail(BOIDS_E_USAGE, "%s takes no value", flag);
        if (!strcmp(flag, "-h") || !strcmp(flag, "--help")) {
            cli->help = true;
        } else if (!strcmp(flag, "--version")) {
            cli->version = true;
        } else if (!strcmp(flag, "--headless")) {
            cli->headless = true;
        } else if (!strcmp(flag, "--backend")) {
            NEED_VALUE();
            given_by(cli, "backend", "--backend");
            cli->backend_auto = !strcmp(val, "auto");
            if (!strcmp(val, "gpu")) cli->def.backend = BOIDS_BACKEND_GPU;
            else if (!strcmp(val, "cpu")) cli->def.backend = BOIDS_BACKEND_CPU;
            else if (!cli->backend_auto) st = bad("--backend", val, "auto, gpu or cpu");
        } else if (!strcmp(flag, "--neighbors")) {
            NEED_VALUE();
            given_by(cli, "neighbors", "--neighbors");
            if (!strcmp(val, "grid")) cli->def.neighbors = BOIDS_NEIGHBORS_GRID;
            else if (!strcmp(val, "brute")) cli->def.neighbors = BOIDS_NEIGHBORS_BRUTE;
            else st = bad("--neighbors", val, "grid or brute");
        } else if (!strcmp(flag, "--model")) {
            NEED_VALUE();
            model = val;
            given_by(cli, "model", "--model");
        } else if (!strcmp(flag, "-n") || !strcmp(flag, "--boids")) {
            NEED_VALUE();
            st = parse_u32(flag, val, &cli->def.count);
            cli->count_given = true;
            given_by(cli, "count", !strcmp(flag, "-n") ? "-n" : "--boids");
        } else if (!strcmp(flag, "--swarms")) {
            NEED_VALUE();
            st = parse_u32("--swarms", val, &cli->def.swarms);
            if (st == BOIDS_OK && cli->def.swarms == 0) st = bad("--swarms", val, "at least 1");
            cli->swarms_given = true;
            given_by(cli, "swarms", "--swarms");
        } else if (!strcmp(flag, "--world")) {
            NEED_VALUE();
            st = parse_size("--world", val, &cli->def.width, &cli->def.height);
            cli->world_given = true;
            given_by(cli, "world", "--world");
        } else if (!strcmp(flag, "--steps")) {
            NEED_VALUE();
            st = parse_u32("--steps", val, &cli->steps);
            cli->steps_given = true;
        } else if (!strcmp(flag, "--frames")) {
            NEED_VALUE();
            cli->frames_dir = val;
        } else if (!strcmp(flag, "--screenshot")) {
            NEED_VALUE();
            cli->screenshot = val;
        } else if (!strcmp(flag, "--frame-steps")) {
            NEED_VALUE();
            st = parse_u32("--frame-steps", val, &cli->frame_steps);
            if (st == BOIDS_OK && (cli->frame_steps < 1 || cli->frame_steps > 100000))
                st = bad("--frame-steps", val, "a whole number in [1, 100000]");
        } else if (!strcmp(flag, "--size")) {
            NEED_VALUE();
            float w, h;
            st = parse_size("--size", val, &w, &h);
            if (st == BOIDS_OK && (w != floorf(w) || h != floorf(h) || w > 16384 || h > 16384))
                st = bad("--size", val, "a size in whole pixels, at most 16384x16384");
            if (st == BOIDS_OK) {
                cli->size_w = (int)w;
                cli->size_h = (int)h;
            }
        } else if (!strcmp(flag, "--dt")) {
            NEED_VALUE();
            st = parse_pos_float("--dt", val, &cli->def.dt);
            given_by(cli, "dt", "--dt");
        } else if (!strcmp(flag, "--layout")) {
            NEED_VALUE();
            given_by(cli, "layout", "--layout");
            if (boids_layout_from_name(val, &cli->def.layout) != BOIDS_OK) st = bad("--layout", val, "uniform, centre or model");
        } else if (!strcmp(flag, "--seed")) {
            NEED_VALUE();
            st = parse_u64("--seed", val, &cli->def.seed);
            given_by(cli, "seed", "--seed");
        } else if (!strcmp(flag, "--threads")) {
            NEED_VALUE();
            uint32_t t;
            st = parse_u32("--threads", val, &t);
            if (st == BOIDS_OK && t > 256) st = bad("--threads", val, "at most 256");
            cli->def.threads = (int)t;
            given_by(cli, "threads", "--threads");
        } else if (!strcmp(flag, "--init")) {
            NEED_VALUE();
            cli->init_path = val;
        } else if (!strcmp(flag, "--dump")) {
            NEED_VALUE();
            cli->dump_path = val;
        } else if (!strcmp(flag, "--predators")) {
            NEED_VALUE();
            cli->predators_path = val;
        } else if (!strcmp(flag, "--dump-predators")) {
            NEED_VALUE();
            cli->dump_predators_path = val;
        } else if (!strcmp(flag, "--events")) {
            NEED_VALUE();
            cli->events_path = val;
        } else if (!strcmp(flag, "--video")) {
            NEED_VALUE();
            cli->video_path = val;
        } else if (!strcmp(flag, "--fps")) {
            NEED_VALUE();
            st = parse_pos_float("--fps", val, &cli->fps);
            if (st == BOIDS_OK && cli->fps > 1000) st = bad("--fps", val, "a frame rate in (0, 1000]");
        } else if (!strcmp(flag, "--warmup")) {
            NEED_VALUE();
            st = parse_u32("--warmup", val, &cli->warmup);
        } else if (!strcmp(flag, "--boid-size")) {
            NEED_VALUE();
            st = parse_pos_float("--boid-size", val, &cli->boid_size);
            if (st == BOIDS_OK && cli->boid_size > 1e5f) st = bad("--boid-size", val, "a length in (0, 100000] px");
        } else if (!strcmp(flag, "--view")) {
            NEED_VALUE();
            char part[4][64];
            bool fine = true;
            const char *p = val;
            for (int k = 0; k < 4 && fine; ++k) { /* X,Y,W,H */
                const char *end = k < 3 ? strchr(p, ',') : p + strlen(p);
                fine = end && (size_t)(end - p) < sizeof part[k];
                if (fine) snprintf(part[k], sizeof part[k], "%.*s", (int)(end - p), p), p = end + (k < 3);
                fine = fine && boids_parse_float(part[k], &cli->view[k]);
            }
            if (!fine || !(cli->view[2] > 0) || !(cli->view[3] > 0))
                st = bad("--view", val, "X,Y,W,H: a world rectangle with W, H > 0");
            cli->has_view = st == BOIDS_OK;
        } else if (!strcmp(flag, "--metrics")) {
            NEED_VALUE();
            cli->metrics_path = val;
        } else if (!strcmp(flag, "--metrics-every")) {
            NEED_VALUE();
            st = parse_u32("--metrics-every", val, &cli->metrics_every);
            if (st == BOIDS_OK && cli->metrics_every < 1) st = bad("--metrics-every", val, "a whole number >= 1");
        } else if (!strcmp(flag, "--obstacle")) {
            NEED_VALUE();
            if (cli->obstacle_count == BOIDS_SCENARIO_MAX_OBSTACLES)
                return boids_fail(BOIDS_E_USAGE, "--obstacle: more than %d", BOIDS_SCENARIO_MAX_OBSTACLES);
            if (!boids_obstacle_from_text(val, &cli->obstacles[cli->obstacle_count]))
                st = bad("--obstacle", val, "X,Y,R (three numbers, R >= 0)");
            else
                cli->obstacle_text[cli->obstacle_count++] = val;
        } else if (!strcmp(flag, "--set")) {
            NEED_VALUE();
            if (cli->nsets == BOIDS_CLI_MAX_SETS)
                return boids_fail(BOIDS_E_USAGE, "--set: more than %d", BOIDS_CLI_MAX_SETS);
            cli->sets[cli->nsets++] = val;
        } else if (a[0] == '-') {
            return boids_fail(BOIDS_E_USAGE, "unknown option '%s' (see --help)", a);
        } /* else: the scenario file, read above */
#undef NEED_VALUE
        if (st != BOIDS_OK) return st;
    }

    if (model) { /* another model: its preset replaces the scenario's parameters */
        boids_status st = boids_model_from_name(model, &cli->def.model);
        if (st != BOIDS_OK) return boids_fail(BOIDS_E_USAGE, "--model: %s", boids_last_error_info()->detail);
        cli->def.params = boids_model_default_params(cli->def.model);
    }
    /* --set after the model is known, in the order given. */
    for (int k = 0; k < cli->nsets; ++k) {
        const char *kv = cli->sets[k];
        const char *eq = strchr(kv, '=');
        if (!eq || eq == kv) return bad("--set", kv, "KEY=VALUE");
        char key[64];
        size_t n = (size_t)(eq - kv);
        if (n >= sizeof key) return bad("--set", kv, "KEY=VALUE with a known key");
        memcpy(key, kv, n);
        key[n] = '\0';
        boids_status st = boids_params_set(cli->def.model, &cli->def.params, key, eq + 1);
        if (st != BOIDS_OK) return st; /* a parameter error: the program names its origin */
    }
    /* Explicit obstacles replace the random ones: the command line's, else the file's. */
    if (cli->obstacle_count) {
        cli->def.obstacles = cli->obstacles;
        cli->def.obstacle_count = cli->obstacle_count;
    } else if (cli->scenario_path && cli->scenario.obstacle_count) {
        cli->def.obstacles = cli->scenario.obstacles;
        cli->def.obstacle_count = cli->scenario.obstacle_count;
    }
    bool predators = (boids_model_features(cli->def.model) & BOIDS_FEATURE_PREDATORS) != 0;
    if (!predators && (cli->predators_path || cli->dump_predators_path))
        return boids_fail(BOIDS_E_USAGE, "%s: model %s has no predators",
                          cli->predators_path ? "--predators" : "--dump-predators", boids_model_name(cli->def.model));
    /* Checks between parameters (min_speed <= max_speed) once all are set. */
    boids_status st = boids_params_validate(cli->def.model, &cli->def.params);
    if (st != BOIDS_OK) return st;
    const bool cpu_flags = cli->flag_of[field_index("neighbors")] || cli->flag_of[field_index("threads")];
    if (cli->backend_auto && cpu_flags) { /* the CPU backend's options choose it */
        cli->backend_auto = false;
        cli->def.backend = BOIDS_BACKEND_CPU;
    }
    if (!cli->backend_auto && cli->def.backend == BOIDS_BACKEND_GPU && cpu_flags)
        return boids_fail(BOIDS_E_USAGE, "%s applies to --backend cpu only",
                          cli->flag_of[field_index("neighbors")] ? "--neighbors" : "--threads");
    return BOIDS_OK;
}
