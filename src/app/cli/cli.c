#include "app/cli/cli.h"

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/cli/keys.h"
#include "base/error.h"
#include "base/parse.h"
#include "core/models.h"

/* ---- --help --------------------------------------------------------------------------------- */

/* Parameters every model has: the blocks of BOIDS_BLOCKS_EVERY_MODEL, described once. */
static bool shared_param(const boids_param_info *p)
{
    return (BOIDS_BLOCKS_EVERY_MODEL & (1u << p->block)) != 0;
}

/* One parameter's line: name, unit, description (default printed by the caller where wanted). */
static void param_line(FILE *out, const boids_param_info *p, const char *value)
{
    int c = fprintf(out, "  %-20s %-7s %-10s ", p->name, value, p->unit);
    boids_print_wrapped(out, p->description, c, 42, 100);
}

/* A model's heading: "model NAME (per second): its summary", wrapped. */
static void model_heading(FILE *out, boids_model model)
{
    char head[256];
    int col = snprintf(head, sizeof head, "model %s (%s): ", boids_model_name(model),
                       boids_model_time_base(model) == BOIDS_TIME_PER_SECOND ? "per second"
                                                                             : "per frame");
    fputs(head, out);
    boids_print_wrapped(out, boids_model_summary(model), col - 1, 2, 100);
}

/* One model's parameters, every one with this model's default (--help MODEL). */
static void print_model(FILE *out, boids_model model)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    const boids_params def = boids_model_default_params(model);
    model_heading(out, model);
    fprintf(out, "Its parameters (--set KEY=VALUE, a scenario's KEY = VALUE, the viewer's panel), "
                 "with its defaults:\n");
    for (size_t i = 0; i < n; ++i) {
        char v[32];
        const float value = boids_param_get(&def, &info[i]);
        param_line(out, &info[i],
                   (info[i].flags & BOIDS_PARAM_NAMED_EDGES) ? boids_edges_name(value)
                                                             : boids_float_text(value, v));
    }
}

/* The models and their parameters: those every model has once, then each model with the rows of
 * a block the first time one of its models is listed, and every default that differs from the
 * rows above as one line (--help all). */
static void print_models(FILE *out)
{
    size_t n;
    const boids_param_info *info = boids_model_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND, &n);
    fprintf(
        out,
        "\nParameters (--set KEY=VALUE, a scenario's KEY = VALUE, the viewer's panel); in units,\n"
        "T is s for per-second models and frame for frame-based ones. Every model has these\n"
        "(defaults: shiffman-per-second's; each model's own follow it below):\n");
    const boids_params first = boids_model_default_params(BOIDS_MODEL_SHIFFMAN_PER_SECOND);
    for (size_t i = 0; i < n; ++i) {
        char v[32];
        if (!shared_param(&info[i])) continue;
        const float value = boids_param_get(&first, &info[i]);
        param_line(out, &info[i],
                   (info[i].flags & BOIDS_PARAM_NAMED_EDGES) ? boids_edges_name(value)
                                                             : boids_float_text(value, v));
    }
    unsigned listed = BOIDS_BLOCKS_EVERY_MODEL; /* blocks whose rows are printed already */
    boids_params shown = first;                 /* and the defaults those rows say */
    for (int m = 0; m < boids_model_count(); ++m) {
        const boids_model model = (boids_model)m;
        const boids_params def = boids_model_default_params(model);
        const boids_param_info *mi = boids_model_params(model, &n);
        fputc('\n', out);
        model_heading(out, model);
        for (size_t i = 0; i < n; ++i) { /* a block seen for the first time: its rows */
            char v[32];
            if (listed & (1u << mi[i].block)) continue;
            const float value = boids_param_get(&def, &mi[i]);
            param_line(out, &mi[i], boids_float_text(value, v));
            memcpy((char *)&shown + mi[i].offset, &value, sizeof value);
        }
        char diff[2048] = "";
        size_t len = 0;
        for (size_t i = 0; i < n; ++i) { /* defaults that differ from a row printed before */
            char v[32];
            const float value = boids_param_get(&def, &mi[i]);
            if (boids_param_get(&shown, &mi[i]) == value) continue;
            const bool edges = mi[i].flags & BOIDS_PARAM_NAMED_EDGES;
            len += (size_t)snprintf(diff + len, len < sizeof diff ? sizeof diff - len : 0,
                                    "%s%s %s", len ? ", " : "", mi[i].name,
                                    edges ? boids_edges_name(value) : boids_float_text(value, v));
        }
        if (len) {
            fputs("  defaults: ", out);
            boids_print_wrapped(out, diff, 12, 4, 100);
        }
        for (size_t i = 0; i < n; ++i) listed |= 1u << mi[i].block;
    }
}

/* The viewer's keys and mouse (app/cli/keys.h), as its help overlay shows them. */
static void print_keys(FILE *out)
{
    static const boids_viewer_key_text keys[] = {BOIDS_VIEWER_KEYS(BOIDS_VIEWER_KEY_TEXT)};
    char text[4096];
    size_t len = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        len += (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, "%s%s: %s",
                                i ? "; " : "", keys[i].label, keys[i].help);
    fprintf(out, "Viewer keys and mouse: ");
    boids_print_wrapped(out, text, 23, 2, 100);
}

void boids_cli_usage(FILE *out)
{
    fprintf(
        out,
        "usage: boids [SCENARIO.ini] [options]       a window where there is a display, else "
        "headless\n"
        "       boids experiment SCENARIO.ini --runs R --out DIR [options]   (boids experiment "
        "--help)\n"
        "       boids experiment-merge OUT DIR1 DIR2 ...\n"
        "       boids check MODEL [--boids N] [--steps K] [--seed S] [--bitwise]\n"
        "Simulates a flock with OpenGL 4.3 compute shaders or the CPU reference. A scenario file\n"
        "(a path, or a preset's name: kit.ini) sets the model, its parameters and the world; "
        "options\n"
        "override it. --flag=value works as well as --flag value.\n\n");
    boids_options_print(out, BOIDS_IN_RUN);
    fprintf(out, "\nExamples:\n"
                 "  boids kit.ini                                         the kit paper's world, "
                 "in a window\n"
                 "  boids -n 20000 --swarms 3 --steps 1200 --headless --dump flock.csv\n"
                 "  boids --init flock.csv --backend cpu --steps 60 --set align_weight=2\n"
                 "  boids -n 50000 --headless --warmup 300 --steps 600 --video flock.mp4\n"
                 "  boids experiment kit.ini --runs 100 --set c_maxspeed=200 --out ages\n\n");
    fprintf(out, "Exit status: 0 success, 2 bad usage or input, 1 runtime failure, 128+N after "
                 "signal N.\n\nThe models (--model NAME, a scenario's model = NAME; --help NAME "
                 "says what one does):\n");
    /* their names, wrapped: a line each made --help grow with every model (a 12th, added as
     * docs/writing-a-model.md says, passed the 100 lines test_cli allows) */
    char names[2048] = "";
    for (int m = 0; m < boids_model_count(); ++m) {
        const size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", m ? ", " : "",
                 boids_model_name((boids_model)m));
    }
    fputs("  ", out);
    boids_print_wrapped(out, names, 2, 2, 100);
}

boids_status boids_cli_help_topic(FILE *out, const char *topic)
{
    if (strcmp(topic, "all") == 0) {
        boids_cli_usage(out);
        fputc('\n', out);
        print_keys(out);
        print_models(out);
        return BOIDS_OK;
    }
    if (strcmp(topic, "keys") == 0) {
        print_keys(out);
        return BOIDS_OK;
    }
    boids_model model;
    if (boids_model_from_name(topic, &model) == BOIDS_OK) {
        print_model(out, model);
        return BOIDS_OK;
    }
    char names[512] = "", hint[96] = "";
    boids_guess g = BOIDS_GUESS(topic);
    for (int m = 0; m < boids_model_count(); ++m) {
        boids_list_append(names, sizeof names, boids_model_name((boids_model)m));
        boids_guess_offer(&g, boids_model_name((boids_model)m));
    }
    boids_guess_offer(&g, "keys");
    if (g.best) snprintf(hint, sizeof hint, ": did you mean %s?", g.best);
    return boids_fail_key(BOIDS_E_USAGE, "--help",
                          "%.60s: no such topic%s (the models: %s; all, keys; a model of your own: "
                          "--model-dir DIR --help NAME)",
                          topic, hint, names);
}

void boids_cli_resolve_backend(boids_cli *cli)
{
    if (!cli->backend_auto) return;
    boids_gl *gl = NULL;
    if (boids_gl_create_headless(&gl) != BOIDS_OK) {
        /* a bad BOIDS_* setting is refused, not taken for a machine without GL: the GPU
         * backend's open says what is wrong with it */
        if (boids_last_error_info()->id == BOIDS_E_ENVIRONMENT) {
            cli->def.backend = BOIDS_BACKEND_GPU;
            return;
        }
        cli->def.backend = BOIDS_BACKEND_CPU;
        snprintf(cli->backend_note, sizeof cli->backend_note,
                 "auto: no OpenGL 4.3 context here: %.150s%s", boids_last_error(),
                 strlen(boids_last_error()) > 150 ? "... (--backend gpu says all)" : "");
        return;
    }
    const bool soft = boids_gl_is_software(gl);
    cli->def.backend = soft ? BOIDS_BACKEND_CPU : BOIDS_BACKEND_GPU;
    snprintf(cli->backend_note, sizeof cli->backend_note, "auto: %s%s", boids_gl_renderer(gl),
             soft ? " runs on the CPU (a software rasterizer), slower than the CPU backend; "
                    "--backend gpu forces it"
                  : "");
    boids_gl_destroy(gl);
}

/* ---- values --------------------------------------------------------------------------------- */

static boids_status bad(const char *flag, const char *value, const char *what)
{
    return boids_fail(BOIDS_E_USAGE, "%s: '%s' is not %s", flag, value, what);
}

/* The CUSTOM readers of app/cli/options.h's rows. */
typedef boids_status (*reader)(boids_cli *cli, const char *flag, const char *val);

static boids_status read_backend(boids_cli *cli, const char *flag, const char *val)
{
    cli->backend_auto = !strcmp(val, "auto");
    if (!strcmp(val, "gpu"))
        cli->scenario.def.backend = BOIDS_BACKEND_GPU;
    else if (!strcmp(val, "cpu"))
        cli->scenario.def.backend = BOIDS_BACKEND_CPU;
    else if (!cli->backend_auto)
        return bad(flag, val, "auto, gpu or cpu");
    return BOIDS_OK;
}

static boids_status read_search(boids_cli *cli, const char *flag, const char *val)
{
    if (!strcmp(val, "grid"))
        cli->scenario.def.neighbors = BOIDS_NEIGHBORS_GRID;
    else if (!strcmp(val, "brute"))
        cli->scenario.def.neighbors = BOIDS_NEIGHBORS_BRUTE;
    else
        return bad(flag, val, "grid or brute");
    return BOIDS_OK;
}

/* A whole number within a CUSTOM row's [lo, hi]. */
static boids_status row_u32(boids_option_id id, const char *flag, const char *val, uint32_t *out)
{
    boids_option as_u32 = *boids_option_of(id);
    as_u32.kind = BOIDS_OPTION_U32;
    char what[96];
    if (boids_option_value(&as_u32, val, out, what, sizeof what)) return BOIDS_OK;
    return bad(flag, val, what);
}

static boids_status read_threads(boids_cli *cli, const char *flag, const char *val)
{
    uint32_t t; /* the world definition's threads is an int */
    boids_status st = row_u32(BOIDS_OPT_THREADS, flag, val, &t);
    if (st == BOIDS_OK) cli->scenario.def.threads = (int)t;
    return st;
}

static boids_status read_set(boids_cli *cli, const char *flag, const char *val)
{
    (void)flag;
    if (cli->nsets == BOIDS_CLI_MAX_SETS)
        return boids_fail(BOIDS_E_USAGE, "--set: more than %d", BOIDS_CLI_MAX_SETS);
    cli->sets[cli->nsets++] = val;
    return BOIDS_OK;
}

static boids_status read_sweep(boids_cli *cli, const char *flag, const char *val)
{
    (void)flag;
    if (cli->nsweeps == BOIDS_CLI_MAX_SWEEPS)
        return boids_fail(BOIDS_E_USAGE, "--sweep: at most %d", BOIDS_CLI_MAX_SWEEPS);
    cli->sweeps[cli->nsweeps++] = val;
    return BOIDS_OK;
}

/* Numbers joined by commas into out (at most `most`): how many, or 0 where one is not a number
 * or there are more. */
static int comma_floats(const char *val, float *out, int most)
{
    int n = 0;
    for (const char *p = val;; ++n) {
        const char *comma = strchr(p, ',');
        const size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char part[64];
        if (n == most || len >= sizeof part) return 0;
        snprintf(part, sizeof part, "%.*s", (int)len, p);
        if (!boids_parse_float(part, &out[n])) return 0;
        if (!comma) return n + 1;
        p = comma + 1;
    }
}

static boids_status read_view(boids_cli *cli, const char *flag, const char *val)
{
    if (comma_floats(val, cli->view, 4) != 4 || !(cli->view[2] > 0) || !(cli->view[3] > 0))
        return bad(flag, val, "X,Y,W,H: a world rectangle with W, H > 0");
    cli->has_view = true;
    return BOIDS_OK;
}

static boids_status read_camera(boids_cli *cli, const char *flag, const char *val)
{
    float *c = cli->camera;
    const int n = comma_floats(val, c, 7);
    if (n == 6) c[6] = 45.0f;
    const float dx = c[0] - c[3], dy = c[1] - c[4], dz = c[2] - c[5];
    if ((n != 6 && n != 7) || !(c[6] > 0 && c[6] < 180) || !(dx * dx + dy * dy + dz * dz > 0))
        return bad(flag, val,
                   "X,Y,Z,TX,TY,TZ[,FOV]: an eye, a target apart from it, FOV in (0, 180)");
    cli->has_camera = true;
    return BOIDS_OK;
}

bool boids_cli_field_parse(const char *text, boids_field_options *out)
{
    static const char *const flocks[] = {"replica", "swarm", "group"};
    char numbers[128];
    uint32_t flock = 0;
    float from = 0;
    bool has_flock = false, has_from = false;
    if (strlen(text) >= sizeof numbers) return false;
    snprintf(numbers, sizeof numbers, "%s", text);
    for (char *last; (last = strrchr(numbers, ','));) { /* the words after the numbers */
        bool word = false;
        for (uint32_t k = 0; k < 3 && !has_flock; ++k)
            if (strcmp(last + 1, flocks[k]) == 0) flock = k, word = has_flock = true;
        if (!word && !has_from && !strncmp(last + 1, "from:", 5)) {
            if (!boids_parse_float(last + 6, &from) || !(from >= 0) || isinf(from)) return false;
            word = has_from = true;
        }
        if (!word) break;
        *last = '\0';
    }
    float v[3] = {0, 0, 0};
    const int n = comma_floats(numbers, v, 3);
    const bool whole = v[1] == floorf(v[1]) && v[2] == floorf(v[2]);
    /* an R too small for a float is not 0, which means half the world (1e-50 was taken so) */
    const bool lost = v[0] == 0 && strtod(numbers, NULL) != 0;
    if (n < 1 || !(v[0] >= 0) || isinf(v[0]) || lost || !whole ||
        !(v[1] >= 0 && v[1] <= BOIDS_FIELD_BINS) || !(v[2] >= 0 && v[2] <= BOIDS_FIELD_RANKS))
        return false;
    *out = (boids_field_options){.r_max = v[0],
                                 .bins = (uint32_t)v[1],
                                 .ranks = (uint32_t)v[2],
                                 .flock = flock,
                                 .xi_from = from};
    return true;
}

static boids_status read_field(boids_cli *cli, const char *flag, const char *val)
{
    if (!boids_cli_field_parse(val, &cli->field_options))
        return bad(flag, val,
                   "R[,BINS[,RANKS]][,FLOCK][,from:X]: R >= 0 px (0: half the world's shortest "
                   "side; a positive R a float holds), BINS in [1, 256] (0 or left out: 64), "
                   "RANKS in [1, 32] (0 or left out: 20), FLOCK replica (default), swarm or "
                   "group, X >= 0 px (xi from X on; default 0)");
    cli->field = true;
    return BOIDS_OK;
}

/* Two whole numbers in the row's [lo, hi] joined by `sep` ("1920x1080", "2/5"). */
static bool two_u32(boids_option_id id, const char *val, char sep, uint32_t *a, uint32_t *b)
{
    const boids_option *o = boids_option_of(id);
    const char *at = strchr(val, sep);
    char first[32];
    if (!at || (size_t)(at - val) >= sizeof first) return false;
    snprintf(first, sizeof first, "%.*s", (int)(at - val), val);
    return boids_parse_u32(first, (uint32_t)o->hi, a) &&
           boids_parse_u32(at + 1, (uint32_t)o->hi, b) && *a >= o->lo && *b >= o->lo;
}

static boids_status read_frame_size(boids_cli *cli, const char *flag, const char *val)
{
    uint32_t w, h;
    if (!two_u32(BOIDS_OPT_SIZE, val, 'x', &w, &h))
        return bad(flag, val, "a size WxH in whole pixels, at most 16384x16384");
    cli->size_w = (int)w, cli->size_h = (int)h;
    return BOIDS_OK;
}

static boids_status read_shard(boids_cli *cli, const char *flag, const char *val)
{
    if (!two_u32(BOIDS_OPT_SHARD, val, '/', &cli->shard, &cli->shards) || cli->shard > cli->shards)
        return bad(flag, val, "I/K with 1 <= I <= K");
    return BOIDS_OK;
}

/* Where each command-line row of app/cli/options.h goes: a member of boids_cli (read by the row's
 * kind) or the reader above; a world row goes to the scenario, as its file key would. */
#define DEST_OFFSET_SWITCH(m) offsetof(boids_cli, m)
#define DEST_OFFSET_TEXT(m) offsetof(boids_cli, m)
#define DEST_OFFSET_U32(m) offsetof(boids_cli, m)
#define DEST_OFFSET_FLOAT(m) offsetof(boids_cli, m)
#define DEST_OFFSET_CUSTOM(f) 0
#define DEST_READ_SWITCH(m) NULL
#define DEST_READ_TEXT(m) NULL
#define DEST_READ_U32(m) NULL
#define DEST_READ_FLOAT(m) NULL
#define DEST_READ_CUSTOM(f) f
static const struct {
    size_t offset;
    reader read;
} dest[BOIDS_OPTION_COUNT] = {
#define CLI_ROW(ID, key, flag, alias, metavar, kind, lo, hi, m, error_key, where, help)            \
    [BOIDS_OPT_##ID] = {DEST_OFFSET_##kind(m), DEST_READ_##kind(m)},
#define NO_ROW(...)
    BOIDS_OPTIONS(NO_ROW, CLI_ROW)
#undef CLI_ROW
};
/* Each member is of its row's kind. */
#define DEST_TYPE_SWITCH(m)                                                                        \
    _Static_assert(_Generic(((boids_cli *)0)->m, bool : 1, default : 0), #m);
#define DEST_TYPE_TEXT(m)                                                                          \
    _Static_assert(_Generic(((boids_cli *)0)->m, const char * : 1, default : 0), #m);
#define DEST_TYPE_U32(m)                                                                           \
    _Static_assert(_Generic(((boids_cli *)0)->m, uint32_t : 1, default : 0), #m);
#define DEST_TYPE_FLOAT(m)                                                                         \
    _Static_assert(_Generic(((boids_cli *)0)->m, float : 1, default : 0), #m);
#define DEST_TYPE_CUSTOM(f)
#define CLI_CHECK(ID, key, flag, alias, metavar, kind, lo, hi, m, error_key, where, help)          \
    DEST_TYPE_##kind(m)
BOIDS_OPTIONS(NO_ROW, CLI_CHECK)
#undef CLI_CHECK
#undef NO_ROW

static boids_status apply_option(boids_cli *cli, const boids_option *o, const char *flag,
                                 const char *val)
{
    cli->given[o->id] =
        o->alias && strcmp(flag, o->alias) == 0 ? o->alias : o->flag; /* as typed, for errors */
    if (o->key) { /* a world setting: as the file would set it, the error then named by the flag */
        boids_status st = boids_scenario_set(&cli->scenario, o->key, val);
        if (st == BOIDS_OK) return BOIDS_OK;
        return boids_fail(BOIDS_E_USAGE, "%s: %s", flag, boids_last_error_info()->detail);
    }
    void *to = (char *)cli + dest[o->id].offset;
    char what[96];
    switch (o->kind) {
    case BOIDS_OPTION_SWITCH: *(bool *)to = true; return BOIDS_OK;
    case BOIDS_OPTION_TEXT: *(const char **)to = val; return BOIDS_OK;
    case BOIDS_OPTION_CUSTOM: return dest[o->id].read(cli, flag, val);
    default:
        return boids_option_value(o, val, to, what, sizeof what) ? BOIDS_OK : bad(flag, val, what);
    }
}

/* ---- the command line ----------------------------------------------------------------------- */

/* An argument's option and value: "--flag=value", "--flag value" (i advances), "--switch". */
typedef struct arg {
    const boids_option *opt;
    char flag[64];
    const char *value;
} arg;

static boids_status read_arg(int argc, char **argv, int *i, unsigned command, arg *a)
{
    const char *s = argv[*i];
    a->opt = boids_option_find(s);
    const char *eq = strncmp(s, "--", 2) == 0 ? strchr(s, '=') : NULL;
    snprintf(a->flag, sizeof a->flag, "%.*s", eq ? (int)(eq - s) : (int)strlen(s), s);
    const char *glued_value;
    const boids_option *glued = a->opt ? NULL : boids_option_glued(s, &glued_value);
    if (glued) /* "-n10": the value is a word of its own */
        return boids_fail(BOIDS_E_USAGE, "unknown option '%s' (did you mean %s %s? see --help)",
                          a->flag, glued->alias, glued_value);
    if (!a->opt) {
        const char *guess = boids_option_guess(s);
        return guess
                   ? boids_fail(BOIDS_E_USAGE, "unknown option '%s' (did you mean %s? see --help)",
                                a->flag, guess)
                   : boids_fail(BOIDS_E_USAGE, "unknown option '%s' (see --help)", a->flag);
    }
    if (!(a->opt->where & command))
        return command == BOIDS_IN_EXPERIMENT
                   ? boids_fail(BOIDS_E_USAGE,
                                "%s is not an experiment option (the results go to --out DIR; "
                                "boids experiment --help lists them)",
                                a->flag)
                   : boids_fail(BOIDS_E_USAGE, "%s is an option of boids experiment", a->flag);
    if (!a->opt->metavar) {
        if (eq) return boids_fail(BOIDS_E_USAGE, "%s takes no value", a->flag);
        a->value = NULL;
        return BOIDS_OK;
    }
    if (eq)
        a->value = eq + 1;
    else if (*i + 1 < argc)
        a->value = argv[++*i];
    else
        return boids_fail(BOIDS_E_USAGE, "%s needs a value (%s)", a->flag, a->opt->metavar);
    /* --set KEY VALUE would take VALUE for the scenario file: say what --set wants */
    if (a->opt->id == BOIDS_OPT_SET && !strchr(a->value, '='))
        return *i + 1 < argc && argv[*i + 1][0] != '-'
                   ? boids_fail(BOIDS_E_USAGE,
                                "--set %s %s: --set takes KEY=VALUE as one argument: --set %s=%s",
                                a->value, argv[*i + 1], a->value, argv[*i + 1])
                   : boids_fail(BOIDS_E_USAGE, "--set %s: --set takes KEY=VALUE", a->value);
    return BOIDS_OK;
}

void boids_cli_report_load(const char *folder, const boids_model_load_info *info)
{
    fprintf(stderr, "boids: loaded model %s", boids_model_name(info->first));
    for (int k = 1; k < info->models; ++k)
        fprintf(stderr, ", %s", boids_model_name((boids_model)(info->first + k)));
    fprintf(stderr, " from %s: %s in %.3f s (%s)\n", folder,
            info->compiled ? "compiled" : "from the cache", info->seconds, info->object);
}

boids_status boids_cli_load_model_dirs(int argc, char **argv, unsigned command)
{
    boids_model_load_reporter = boids_cli_report_load;
    const char *path = getenv("BOIDS_MODEL_PATH");
    char dir[1024];
    for (const char *p = path; p && *p;) { /* as PATH's: an entry that fails is passed over */
        const char *end = strchr(p, ':');
        const int n = end ? (int)(end - p) : (int)strlen(p);
        snprintf(dir, sizeof dir, "%.*s", n, p);
        if (n && boids_model_load(dir, NULL) != BOIDS_OK)
            fprintf(stderr, "boids: warning: BOIDS_MODEL_PATH: %s (passed over)\n",
                    boids_last_error());
        p = end ? end + 1 : NULL;
    }
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] != '-' || !argv[i][1]) continue;
        arg a;
        read_arg(argc, argv, &i, command, &a); /* checked by the first pass */
        if (a.opt->id != BOIDS_OPT_MODEL_DIR) continue;
        boids_status st = boids_model_load(a.value, NULL);
        if (st != BOIDS_OK) return st;
    }
    return BOIDS_OK;
}

/* The first pass: every argument checked as an option, and the one that is none, the scenario. */
static boids_status find_scenario(int argc, char **argv, unsigned command, boids_cli *cli)
{
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-' && argv[i][1]) {
            arg a;
            boids_status st = read_arg(argc, argv, &i, command, &a);
            if (st != BOIDS_OK) return st;
            continue;
        }
        if (cli->scenario_path)
            return boids_fail(BOIDS_E_USAGE, "unexpected argument '%s' (one scenario file: %s)",
                              argv[i], cli->scenario_path);
        cli->scenario_path = argv[i];
    }
    return BOIDS_OK;
}

static void defaults(boids_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    boids_scenario_init(&cli->scenario, 600);
    cli->size_w = 1920;
    cli->size_h = 1080;
    cli->frame_steps = 1;
    cli->metrics_every = 10;
    cli->backend_auto = true;
    cli->fps = 30;
    cli->shard = cli->shards = 1;
}

/* --set after the model is known, in the order given. */
static boids_status apply_sets(boids_cli *cli)
{
    for (int k = 0; k < cli->nsets; ++k) {
        const char *kv = cli->sets[k];
        const char *eq = strchr(kv, '=');
        char key[64];
        if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof key)
            return bad("--set", kv, "KEY=VALUE with a known key");
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv), kv);
        boids_status st = boids_params_set(cli->def.model, &cli->def.params, key, eq + 1);
        if (st != BOIDS_OK) return st; /* a parameter error: the program names its origin */
    }
    return BOIDS_OK;
}

/* What holds between options once all are read. */
static boids_status check_together(boids_cli *cli, unsigned command)
{
    bool predators = (boids_model_features(cli->def.model) & BOIDS_FEATURE_PREDATORS) != 0;
    if (!predators && (cli->predators_path || cli->dump_predators_path))
        return boids_fail(BOIDS_E_USAGE, "%s: model %s has no predators",
                          cli->predators_path ? "--predators" : "--dump-predators",
                          boids_model_name(cli->def.model));
    boids_status st =
        boids_params_validate(cli->def.model, &cli->def.params); /* min_speed <= max_speed */
    if (st != BOIDS_OK) return st;
    const char *cpu_flag =
        cli->given[BOIDS_OPT_SEARCH] ? cli->given[BOIDS_OPT_SEARCH] : cli->given[BOIDS_OPT_THREADS];
    if (cli->backend_auto && cpu_flag) { /* the CPU backend's options choose it */
        cli->backend_auto = false;
        cli->def.backend = BOIDS_BACKEND_CPU;
    }
    if (!cli->backend_auto && cli->def.backend == BOIDS_BACKEND_GPU && cpu_flag)
        return boids_fail(BOIDS_E_USAGE, "%s applies to --backend cpu only", cpu_flag);
    /* options that would do nothing are refused, not taken without a word: a frame-based model's
     * dt (a window paces its frames by it), from --dt or from a scenario where it is not the
     * model's own (the presets' dt = 1, which makes the metrics' time count steps) */
    const bool per_frame = boids_model_time_base(cli->def.model) == BOIDS_TIME_PER_FRAME;
    const bool file_dt = cli->scenario.given[BOIDS_SET_DT] && cli->def.dt != cli->scenario.model_dt;
    char where[4200] = "--dt";
    if (!cli->given[BOIDS_OPT_DT] && file_dt)
        snprintf(where, sizeof where, "%s:%ld: dt", cli->scenario_path ? cli->scenario_path : "?",
                 boids_scenario_line(&cli->scenario, "dt"));
    if ((cli->given[BOIDS_OPT_DT] || file_dt) && per_frame &&
        (cli->headless || command == BOIDS_IN_EXPERIMENT))
        return boids_fail(BOIDS_E_USAGE,
                          "%s: %s steps by frames (a step is its unit of time): a dt other than "
                          "its own (%s) changes nothing of a %s but the metrics' time column (in "
                          "a window it paces the display)",
                          where, boids_model_name(cli->def.model),
                          boids_float_text(cli->scenario.model_dt, (char[32]){0}),
                          command == BOIDS_IN_EXPERIMENT ? "run" : "headless run");
    const char *camera =
        cli->given[BOIDS_OPT_CAMERA] ? cli->given[BOIDS_OPT_CAMERA] : cli->given[BOIDS_OPT_ORBIT];
    if (camera && cli->def.depth == 0)
        return boids_fail(BOIDS_E_USAGE,
                          "%s: the world is flat, and the camera is a 3D world's (--world WxHxD "
                          "or --dims 3)",
                          camera);
    if (cli->has_view && cli->def.depth > 0)
        return boids_fail(BOIDS_E_USAGE,
                          "--view: the world is 3D, and the rectangle is a flat world's (--camera "
                          "X,Y,Z,TX,TY,TZ frames a 3D world)");
    const size_t vlen = cli->video_path ? strlen(cli->video_path) : 0;
    if (cli->video_path && (vlen < 4 || strcasecmp(cli->video_path + vlen - 4, ".mp4") != 0))
        return boids_fail(BOIDS_E_USAGE,
                          "--video %s: the video is an MP4 (H.264): name it .mp4 (--frames DIR "
                          "writes PNGs for any other encoding)",
                          cli->video_path);
    return BOIDS_OK;
}

boids_status boids_cli_parse_command(int argc, char **argv, unsigned command, boids_cli *cli)
{
    defaults(cli);
    boids_status st = find_scenario(argc, argv, command, cli);
    if (st == BOIDS_OK) st = boids_cli_load_model_dirs(argc, argv, command);
    if (st != BOIDS_OK) return st;
    if (cli->scenario_path) {
        /* The file's values are defaults: an --init state still brings its own boids and swarms,
         * and a window still runs until closed (the file's steps are for headless runs). */
        if ((st = boids_scenario_locate(cli->scenario_path, cli->scenario_buf,
                                        sizeof cli->scenario_buf)) != BOIDS_OK)
            return st;
        cli->scenario_path = cli->scenario_buf;
        if ((st = boids_scenario_load(cli->scenario_path, 600, &cli->scenario)) != BOIDS_OK)
            return st;
    }
    /* --model first (the last one given): it brings its preset world, which the others override;
     * then the options in order, --set after them. */
    int model_at = -1;
    const char *model_value = NULL;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] != '-' || !argv[i][1]) continue;
        arg a;
        read_arg(argc, argv, &i, command, &a); /* checked by the first pass */
        if (a.opt->id == BOIDS_OPT_MODEL) model_at = i, model_value = a.value;
    }
    /* --model over a scenario of another model would replace every setting the file made with
     * its own preset (scenarios/kit.ini --model vicsek ran vicsek's defaults without a word) */
    boids_model m;
    if (model_at >= 0 && cli->scenario_path && boids_model_from_name(model_value, &m) == BOIDS_OK &&
        m != cli->scenario.def.model)
        return boids_fail(BOIDS_E_USAGE,
                          "--model %s: %s is a scenario of model %s, and --model would replace "
                          "every setting it makes; give the scenario or --model, not both",
                          model_value, cli->scenario_path,
                          boids_model_name(cli->scenario.def.model));
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 1; i < argc; ++i) {
            if (argv[i][0] != '-' || !argv[i][1]) continue;
            arg a;
            read_arg(argc, argv, &i, command, &a);
            if ((pass == 0) != (i == model_at)) continue;
            if (a.opt->id == BOIDS_OPT_OBSTACLE && !cli->obstacle_count)
                cli->scenario.obstacle_count = 0; /* replaced */
            if ((st = apply_option(cli, a.opt, a.flag, a.value)) != BOIDS_OK) return st;
            if (a.opt->id == BOIDS_OPT_OBSTACLE &&
                cli->obstacle_count < BOIDS_SCENARIO_MAX_OBSTACLES)
                cli->obstacle_text[cli->obstacle_count++] = a.value;
        }
    if ((st = boids_scenario_resolve(&cli->scenario)) != BOIDS_OK) return st;
    cli->def = cli->scenario.def;
    cli->steps = cli->scenario.steps;
    /* the file's count and swarms are defaults an --init state overrides; its world is not */
    cli->count_given = cli->given[BOIDS_OPT_COUNT] != NULL;
    cli->swarms_given = cli->given[BOIDS_OPT_SWARMS] != NULL;
    cli->world_given = cli->scenario.given[BOIDS_SET_WORLD];
    cli->steps_given = cli->given[BOIDS_OPT_STEPS] != NULL;
    /* Explicit obstacles replace the random ones: the command line's, else the file's. */
    for (uint32_t i = 0; i < cli->scenario.obstacle_count; ++i)
        cli->obstacles[i] = cli->scenario.obstacles[i];
    cli->def.obstacles = cli->scenario.obstacle_count ? cli->obstacles : NULL;
    cli->def.obstacle_count = cli->scenario.obstacle_count;
    if ((st = apply_sets(cli)) != BOIDS_OK) return st;
    return check_together(cli, command);
}

boids_status boids_cli_parse(int argc, char **argv, boids_cli *cli)
{
    return boids_cli_parse_command(argc, argv, BOIDS_IN_RUN, cli);
}

/* ---- what the run does with them ------------------------------------------------------------ */

/* The options of the pictures a headless run exports: each needs frames recorded (--frames,
 * --video) or any picture (--screenshot too). A window draws and records its own view: it uses
 * --size and --frame-steps (its recordings) and none of the others. */
static const struct {
    boids_option_id id;
    bool frames;      /* needs frames recorded, not a --screenshot alone */
    bool window_uses; /* a window's recordings use it */
    const char *does; /* what it does to them */
} picture_options[] = {
    {BOIDS_OPT_SIZE, false, true, "sizes"},
    {BOIDS_OPT_FRAME_STEPS, true, true, "spaces"},
    {BOIDS_OPT_FPS, true, false, "sets the rate of"},
    {BOIDS_OPT_VIEW, false, false, "frames"},
    {BOIDS_OPT_CAMERA, false, false, "places the eye of"},
    {BOIDS_OPT_ORBIT, true, false, "turns the view between"},
    {BOIDS_OPT_BOID_SIZE, false, false, "sets a boid's length in"},
};

boids_status boids_cli_check_run(const boids_cli *cli, bool window)
{
    const bool frames = cli->frames_dir || cli->video_path, picture = frames || cli->screenshot;
    for (size_t k = 0; k < sizeof picture_options / sizeof picture_options[0]; ++k) {
        const char *flag = cli->given[picture_options[k].id];
        const bool needs_frames = picture_options[k].frames;
        if (!flag || (window && picture_options[k].window_uses)) continue;
        if (window)
            return boids_fail(
                BOIDS_E_USAGE,
                "%s is for a headless run's pictures (--headless with --frames, "
                "--video or --screenshot): a window draws its own view and records it at "
                "the flock's pace",
                flag);
        if (!(needs_frames ? frames : picture))
            return boids_fail(BOIDS_E_USAGE, "%s %s the %s, and this headless run %s none", flag,
                              picture_options[k].does,
                              needs_frames ? "frames of --frames and --video"
                                           : "pictures of --frames, --video and --screenshot",
                              needs_frames ? "records" : "makes");
    }
    if (cli->field && !cli->metrics_path && !cli->field_profile_path)
        return boids_fail(BOIDS_E_USAGE,
                          "--field measures for --metrics FILE.csv (its columns) and "
                          "--field-profile FILE.csv, and this run writes neither");
    if (cli->given[BOIDS_OPT_METRICS_EVERY] && !cli->metrics_path)
        return boids_fail(BOIDS_E_USAGE, "--metrics-every spaces the rows of --metrics FILE.csv, "
                                         "and this run writes none");
    /* the layout lays out a random start: the boids' (--init's here), kit's predators' (unless
     * --predators gives them), and a window's after key R or more boids */
    const bool random_predators =
        (boids_model_features(cli->def.model) & BOIDS_FEATURE_PREDATORS) &&
        cli->def.params.predators.predators > 0 && !cli->predators_path;
    if (cli->given[BOIDS_OPT_LAYOUT] && cli->init_path && !window && !random_predators)
        return boids_fail(BOIDS_E_USAGE,
                          "%s: --init%s gives the whole start, and the layout lays out a random "
                          "one",
                          cli->given[BOIDS_OPT_LAYOUT],
                          cli->predators_path ? " with --predators" : "");
    return BOIDS_OK;
}

/* ---- where a setting came from -------------------------------------------------------------- */

const char *boids_cli_origin(const boids_cli *cli, const char *key, char *buf, size_t size)
{
    size_t n;
    const boids_option *opts = boids_options(&n);
    for (size_t i = 0; i < n; ++i) /* a flag */
        if (opts[i].error_key && strcmp(opts[i].error_key, key) == 0 && cli->given[opts[i].id])
            return cli->given[opts[i].id];
    /* --set KEY=...: the last one given wins */
    size_t klen = strlen(key);
    for (int k = cli->nsets - 1; k >= 0; --k)
        if (strncmp(cli->sets[k], key, klen) == 0 && cli->sets[k][klen] == '=') {
            snprintf(buf, size, "--set %s", key);
            return buf;
        }
    /* a line of the scenario file, under its own key (the boid count's is "boids") */
    if (cli->scenario_path) {
        const char *file_key = key;
        for (size_t i = 0; i < n; ++i)
            if (opts[i].error_key && opts[i].key && strcmp(opts[i].error_key, key) == 0)
                file_key = opts[i].key;
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

const char *boids_cli_obstacle_note(const boids_cli *cli, size_t i, const char *detail, char *buf,
                                    size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const char *p = i < cli->obstacle_count ? cli->obstacle_text[i] : ""; *p;) {
        const size_t n = strcspn(p, ",");
        char part[64], exact[32];
        float v;
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        p += n + (p[n] == ',');
        if (n >= sizeof part || !boids_parse_float(part, &v)) continue;
        boids_float_text(v, exact);
        if (strtod(part, NULL) == strtod(exact, NULL) || !strstr(detail, exact)) continue;
        int k = snprintf(buf + len, size - len, "%s%s reads as the float %s", len ? ", " : " (",
                         part, exact);
        if (k < 0 || (size_t)k + 2 > size - len) break; /* (no room: the notes so far) */
        len += (size_t)k;
    }
    if (len) snprintf(buf + len, size - len, ")");
    return buf;
}
