#define _DEFAULT_SOURCE /* readlink */
#include "core/scenario.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "core/models.h"
#include "base/parse.h"

/* The whole file, read once (a pipe or /dev/stdin too), at most BOIDS_SCENARIO_MAX_BYTES. */
static boids_status slurp(const char *path, char **text, size_t *size)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return boids_fail_file(BOIDS_E_FILE_OPEN, path, 0, "is a directory, not a scenario file");
    FILE *f = fopen(path, "rb");
    if (!f) return boids_fail_file(BOIDS_E_FILE_OPEN, path, 0, "cannot open: %s", strerror(errno));
    char *buf = malloc(BOIDS_SCENARIO_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        return boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", path);
    }
    size_t n = fread(buf, 1, BOIDS_SCENARIO_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return boids_fail_file(BOIDS_E_FILE_READ, path, 0, "read error");
    }
    if (n > BOIDS_SCENARIO_MAX_BYTES) {
        free(buf);
        return boids_fail_file(BOIDS_E_FILE_READ, path, 0,
                               "larger than %d bytes: not a scenario file",
                               BOIDS_SCENARIO_MAX_BYTES);
    }
    buf[n] = '\0';
    *text = buf;
    *size = n;
    return BOIDS_OK;
}

static bool blank(char c) { return c == ' ' || c == '\t'; }

/* One line, split: key and value trimmed, the comment after the value cut. */
typedef struct line_kv {
    long line;
    char *key, *value;
} line_kv;

/* Control bytes (a NUL, ESC, BEL...) make it no text file, and must never reach a terminal
 * through a message: refused at once, by value. Lines end with LF, CRLF or a lone CR. */
static boids_status check_text(const char *path, const char *text, size_t size)
{
    long at_line = 1;
    for (size_t i = 0; i < size; ++i) {
        const unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return c ? boids_fail_file(BOIDS_E_SCENARIO_SYNTAX, path, at_line,
                                       "a control byte (0x%02x): not a text file", c)
                     : boids_fail_file(BOIDS_E_SCENARIO_SYNTAX, path, at_line,
                                       "a NUL byte: not a text file");
        at_line += c == '\n' || (c == '\r' && (i + 1 == size || text[i + 1] != '\n'));
    }
    return BOIDS_OK;
}

/* One line, cut in place: *key and *value (NULL for a blank line or a comment), or an error. */
static boids_status parse_line(const char *path, long line, char *s, char **key, char **value)
{
    *key = *value = NULL;
    while (blank(*s)) ++s;
    if (*s == '\0' || *s == ';' || *s == '#') return BOIDS_OK;
    if (*s == '[')
        return boids_fail_file(BOIDS_E_SCENARIO_SYNTAX, path, line,
                               "sections are not used here (%s)", s);
    char *eq = strchr(s, '='), *k_end = s;
    while (*k_end &&
           (*k_end == '_' || (*k_end >= 'a' && *k_end <= 'z') || (*k_end >= '0' && *k_end <= '9')))
        ++k_end;
    char *after = k_end;
    while (blank(*after)) ++after;
    if (!eq || k_end == s || after != eq)
        return boids_fail_file(BOIDS_E_SCENARIO_SYNTAX, path, line,
                               "not a 'key = value' line (keys are "
                               "lower-case letters, digits and _): %.60s",
                               s);
    *k_end = '\0';
    char *v = eq + 1;
    while (blank(*v)) ++v;
    char *v_end = v;
    for (char *q = v; *q; ++q) { /* a comment starts at ; or # after a blank */
        if ((*q == ';' || *q == '#') && q > v && blank(q[-1])) break;
        if (!blank(*q)) v_end = q + 1;
    }
    *v_end = '\0';
    if (*v == '\0') return boids_fail_file(BOIDS_E_SCENARIO_VALUE, path, line, "%s: no value", s);
    *key = s, *value = v;
    return BOIDS_OK;
}

/* Appends a line's pair: no key twice but those that may repeat (obstacle, and the extras'). */
static boids_status add_pair(const char *path, const boids_scenario_extras *extras, line_kv **kv,
                             int *n, int *cap, line_kv pair)
{
    const bool repeats =
        strcmp(pair.key, "obstacle") == 0 || (extras && extras->owns(extras->ctx, pair.key));
    for (int k = 0; k < *n && !repeats; ++k)
        if (strcmp((*kv)[k].key, pair.key) == 0)
            return boids_fail_file(BOIDS_E_SCENARIO_KEY, path, pair.line,
                                   "%s: already set on line %ld", pair.key, (*kv)[k].line);
    if (*n == *cap) {
        line_kv *more = realloc(*kv, sizeof **kv * (size_t)(*cap *= 2));
        if (!more) return boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", path);
        *kv = more;
    }
    (*kv)[(*n)++] = pair;
    return BOIDS_OK;
}

/* Splits text into `key = value` lines; fails on the first line that is not one. */
static boids_status split_lines(const char *path, char *text, size_t size,
                                const boids_scenario_extras *extras, line_kv **out, int *count)
{
    boids_status st = check_text(path, text, size);
    if (st != BOIDS_OK) return st;
    int cap = 16, n = 0;
    line_kv *kv = malloc(sizeof *kv * (size_t)cap);
    if (!kv) return boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", path);
    char *p = text;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3;
    for (long line = 1; *p && st == BOIDS_OK; ++line) {
        char *end = p + strcspn(p, "\r\n"); /* LF, CRLF or CR */
        char *next = *end == '\r' && end[1] == '\n' ? end + 2 : *end ? end + 1 : end;
        *end = '\0';
        char *key, *value;
        st = parse_line(path, line, p, &key, &value);
        if (st == BOIDS_OK && key)
            st = add_pair(path, extras, &kv, &n, &cap, (line_kv){line, key, value});
        p = next;
    }
    if (st != BOIDS_OK) {
        free(kv);
        return st;
    }
    *out = kv;
    *count = n;
    return BOIDS_OK;
}

/* The model `value` with its preset: its parameters, its layout and its world (the default world
 * with the manifest's world text over it); the world keys set before are forgotten. */
/* A model folder loaded (boids_model_load): its models can then be named. A scenario file's
 * relative folder is relative to the file (boids_scenario_load makes it so). */
static boids_status set_model_dir(boids_scenario *sc, const char *value)
{
    boids_status st = boids_model_load(value, NULL);
    if (st == BOIDS_OK || boids_last_error_info()->id != BOIDS_E_MODEL_FOLDER) return st;
    /* a folder that is not there (a manifest of a shard run elsewhere): the model may be loaded
     * already (BOIDS_MODEL_PATH, --model-dir); the model key says this where it is not */
    snprintf(sc->model_dir_error, sizeof sc->model_dir_error, "%s", boids_last_error());
    return BOIDS_OK;
}

static boids_status set_model(boids_scenario *sc, const char *value)
{
    boids_model m;
    boids_status st = boids_model_from_name(value, &m);
    if (st != BOIDS_OK && sc->model_dir_error[0])
        return boids_fail_key(BOIDS_E_MODEL_FOLDER, "model_dir", "%s", sc->model_dir_error);
    if (st != BOIDS_OK) return st;
    const boids_world_def keep = sc->def; /* what no key sets: the backend and its options */
    sc->def = boids_default_world_def();
    sc->def.backend = keep.backend, sc->def.gl = keep.gl, sc->def.threads = keep.threads;
    sc->def.neighbors = keep.neighbors, sc->def.seed = keep.seed;
    sc->def.model = m;
    sc->def.params = boids_model_default_params(m);
    sc->steps = sc->default_steps;
    sc->obstacle_count = 0;
    memset(sc->given, 0, sizeof sc->given);
    char text[256], *save = NULL;
    snprintf(text, sizeof text, "%s", boids_model_world_text(m));
    for (char *pair = strtok_r(text, " ", &save); pair; pair = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(pair, '=');
        if (!eq)
            return boids_fail_key(BOIDS_E_INTERNAL, "model",
                                  "%s's world text: '%s' is not KEY=VALUE", value, pair);
        *eq = '\0';
        st = boids_scenario_set(sc, pair, eq + 1);
        if (st != BOIDS_OK) return st;
    }
    sc->preset_size = sc->given[BOIDS_SET_WORLD];
    sc->preset_count = sc->def.count;
    sc->model_dt = sc->def.dt;
    memset(sc->given, 0, sizeof sc->given); /* the preset's, not the user's */
    return BOIDS_OK;
}

/* WxH (a flat world) or WxHxD (a 3D one): positive sizes in px. */
static boids_status set_world(boids_scenario *sc, const char *value)
{
    char text[192];
    float v[3] = {0, 0, 0};
    int n = 0;
    bool ok = strlen(value) < sizeof text;
    if (ok) {
        snprintf(text, sizeof text, "%s", value);
        for (char *p = text, *x; ok && p; p = x ? x + 1 : NULL, ++n) {
            if ((x = strchr(p, 'x'))) *x = '\0';
            ok = n < 3 && boids_parse_float(p, &v[n]) && v[n] > 0;
        }
    }
    if (!ok || n < 2)
        return boids_fail_key(BOIDS_E_SCENARIO_VALUE, "world",
                              "'%s' is not WxH or WxHxD with positive sizes%s", value,
                              strchr(value, 'X') ? " (a lower-case x between them)" : "");
    sc->def.width = v[0];
    sc->def.height = v[1];
    sc->def.depth = v[2];
    sc->preset_size = false;
    return BOIDS_OK;
}

static boids_status set_layout(boids_scenario *sc, const char *value)
{
    if (boids_layout_from_name(value, &sc->def.layout) == BOIDS_OK) return BOIDS_OK;
    return boids_fail_key(BOIDS_E_SCENARIO_VALUE, "layout", "%s", boids_last_error_info()->detail);
}

/* metric, or nearest:K with K in [1, BOIDS_MAX_NEAREST]. */
static boids_status set_neighbours(boids_scenario *sc, const char *value)
{
    uint32_t k = 0;
    if (strcmp(value, "metric") == 0) {
        sc->def.nearest = 0;
        return BOIDS_OK;
    }
    if (strncmp(value, "nearest:", 8) == 0 && boids_parse_u32(value + 8, BOIDS_MAX_NEAREST, &k) &&
        k >= 1) {
        sc->def.nearest = k;
        return BOIDS_OK;
    }
    return boids_fail_key(BOIDS_E_SCENARIO_VALUE, "neighbours",
                          "'%s' is not metric or nearest:K with K in [1, %u]", value,
                          BOIDS_MAX_NEAREST);
}

static boids_status add_obstacle(boids_scenario *sc, const char *value)
{
    if (sc->obstacle_count == BOIDS_SCENARIO_MAX_OBSTACLES)
        return boids_fail_key(BOIDS_E_SCENARIO_VALUE, "obstacle", "more than %d obstacles",
                              BOIDS_SCENARIO_MAX_OBSTACLES);
    if (!boids_obstacle_from_text(value, &sc->obstacles[sc->obstacle_count]))
        return boids_fail_key(BOIDS_E_SCENARIO_VALUE, "obstacle",
                              "'%s' is not X,Y,R or X,Y,Z,R (numbers, R >= 0)", value);
    sc->obstacle_count++;
    return BOIDS_OK;
}

/* Where each world setting of core/options.h goes: a member of boids_scenario (read by the row's
 * kind), or the function above that reads it. */
typedef boids_status (*setter)(boids_scenario *sc, const char *value);
#define DEST_OFFSET_U32(m) offsetof(boids_scenario, m)
#define DEST_OFFSET_U64(m) offsetof(boids_scenario, m)
#define DEST_OFFSET_FLOAT(m) offsetof(boids_scenario, m)
#define DEST_OFFSET_CUSTOM(f) 0
#define DEST_SET_U32(m) NULL
#define DEST_SET_U64(m) NULL
#define DEST_SET_FLOAT(m) NULL
#define DEST_SET_CUSTOM(f) f
static const struct {
    size_t offset;
    setter set;
} dest[BOIDS_SETTING_COUNT] = {
#define WORLD_ROW(ID, key, flag, alias, metavar, kind, lo, hi, m, error_key, where, help)          \
    [BOIDS_SET_##ID] = {DEST_OFFSET_##kind(m), DEST_SET_##kind(m)},
#define NO_ROW(...)
    BOIDS_WORLD_SETTINGS(WORLD_ROW)
#undef WORLD_ROW
};
/* Each member is of its row's kind (ggml's habit: the check beside the table). */
#define DEST_TYPE_U32(m)                                                                           \
    _Static_assert(_Generic(((boids_scenario *)0)->m, uint32_t : 1, default : 0), #m);
#define DEST_TYPE_U64(m)                                                                           \
    _Static_assert(_Generic(((boids_scenario *)0)->m, uint64_t : 1, default : 0), #m);
#define DEST_TYPE_FLOAT(m)                                                                         \
    _Static_assert(_Generic(((boids_scenario *)0)->m, float : 1, default : 0), #m);
#define DEST_TYPE_CUSTOM(f)
#define WORLD_CHECK(ID, key, flag, alias, metavar, kind, lo, hi, m, error_key, where, help)        \
    DEST_TYPE_##kind(m)
BOIDS_WORLD_SETTINGS(WORLD_CHECK)
#undef WORLD_CHECK
#undef NO_ROW

/* A key that is neither a world setting nor one of the model's parameters: the nearest of both
 * (two edits at most), and both lists (the world keys were not named: 'wolrd' had no guess). */
static boids_status unknown_key(boids_model model, const char *key)
{
    size_t n;
    const boids_param_info *params = boids_model_params(model, &n);
    boids_guess g = BOIDS_GUESS(key);
    char list[1024] = "", world[512] = "";
    for (size_t i = 0; i < n; ++i) {
        boids_list_append(list, sizeof list, params[i].name);
        boids_guess_offer(&g, params[i].name);
    }
    for (size_t i = 0; i < BOIDS_SETTING_COUNT; ++i) {
        boids_list_append(world, sizeof world, boids_setting_at(i)->key);
        boids_guess_offer(&g, boids_setting_at(i)->key);
    }
    char hint[96] = "";
    if (g.best) snprintf(hint, sizeof hint, ": did you mean %s?", g.best);
    return boids_fail_key(BOIDS_E_PARAM_UNKNOWN, key,
                          "no such key for model %s%s (parameters: %s; world: %s)",
                          boids_model_name(model), hint, list, world);
}

boids_status boids_scenario_set(boids_scenario *sc, const char *key, const char *value)
{
    const boids_option *o = boids_setting_of_key(key);
    if (!o && !boids_model_param(sc->def.model, key)) return unknown_key(sc->def.model, key);
    if (!o) return boids_params_set(sc->def.model, &sc->def.params, key, value);
    if (dest[o->id].set) {
        boids_status st = dest[o->id].set(sc, value);
        if (st != BOIDS_OK) return st;
    } else {
        char what[96];
        if (!boids_option_value(o, value, (char *)sc + dest[o->id].offset, what, sizeof what))
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not %s", value, what);
    }
    sc->given[o->id] = true;
    return BOIDS_OK;
}

/* dir/name(.ini) into out when such a file exists. */
static bool preset_in(const char *dir, const char *name, char *out, size_t size)
{
    const size_t n = strlen(name);
    const char *ext = n > 4 && strcmp(name + n - 4, ".ini") == 0 ? "" : ".ini";
    int len = snprintf(out, size, "%s/%s%s", dir, name, ext);
    struct stat sb;
    return len > 0 && (size_t)len < size && stat(out, &sb) == 0 && S_ISREG(sb.st_mode);
}

boids_status boids_scenario_locate(const char *name, char *out, size_t size)
{
    struct stat sb;
    if (strlen(name) >= size) /* cut, it could name another file */
        return boids_fail_file(BOIDS_E_FILE_OPEN, name, 0,
                               "a path of %zu bytes: longer than the %zu a path may have",
                               strlen(name), size - 1);
    if (strchr(name, '/') || stat(name, &sb) == 0 || !name[0]) {
        snprintf(out, size, "%s", name);
        return BOIDS_OK;
    }
    char exe[4096] = "", dir[4096] = "", real[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0'; /* PREFIX/bin */
        snprintf(dir, sizeof dir, "%s/../share/boids/scenarios", exe);
        if (preset_in(dir, name, out, size)) return BOIDS_OK;
        if (realpath(dir, real)) snprintf(dir, sizeof dir, "%s", real); /* for the message */
    }
#ifdef BOIDS_SOURCE_SCENARIOS
    if (preset_in(BOIDS_SOURCE_SCENARIOS, name, out, size)) return BOIDS_OK;
    const char *also = " nor in " BOIDS_SOURCE_SCENARIOS;
#else
    const char *also = "";
#endif
    return boids_fail_file(BOIDS_E_FILE_OPEN, name, 0,
                           "no such file here, nor a preset of that name in %s%s",
                           dir[0] ? dir : "PREFIX/share/boids/scenarios", also);
}

bool boids_obstacle_from_text(const char *text, boids_obstacle *out)
{
    /* X,Y,R (a circle) or X,Y,Z,R (a sphere); a circle's z is NaN, which a 3D world refuses
     * (boids_obstacles_validate) and a flat one ignores */
    char part[4][64];
    const char *p = text;
    int n = 0;
    for (; n < 4; ++n) {
        const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
        if ((size_t)(end - p) >= sizeof part[n]) return false;
        snprintf(part[n], sizeof part[n], "%.*s", (int)(end - p), p);
        p = end;
        if (!comma) break;
        ++p;
    }
    if (n < 2 || n > 3) return false; /* (n: the last part's index) */
    float v[4];
    for (int k = 0; k <= n; ++k)
        if (!boids_parse_float(part[k], &v[k])) return false;
    if (v[n] < 0) return false;
    *out = n == 2 ? (boids_obstacle){v[0], v[1], v[2], 0, NAN}
                  : (boids_obstacle){v[0], v[1], v[3], 0, v[2]};
    return true;
}

void boids_scenario_finish(boids_scenario *sc)
{
    const bool count = sc->given[BOIDS_SET_COUNT];
    if (sc->preset_size && count && sc->def.count > 0) {
        /* the model's world for this many, at its density (it once became the default world,
         * one boid per 1000 px^2 and flat: another regime, as experiments over N then swept) */
        boids_world_def d = sc->def;
        d.count = sc->preset_count;
        boids_world_def_scale(&d, sc->def.count);
        sc->def.width = d.width, sc->def.height = d.height, sc->def.depth = d.depth;
    }
    sc->preset_size = sc->preset_size && !count;
    /* dims: 2 flattens the world; 3 gives a flat size a depth, the smaller of its sides, and the
     * default size the default cube (a depth with no width: boids_world_def) */
    if (sc->dims == 2) sc->def.depth = 0;
    if (sc->dims == 3 && sc->def.depth == 0)
        sc->def.depth = sc->def.width > 0 ? fminf(sc->def.width, sc->def.height) : 1;
}

boids_status boids_scenario_resolve(boids_scenario *sc)
{
    char a[32];
    if (sc->dims == 2 && sc->def.depth > 0 && !sc->preset_size) /* (it was dropped silently) */
        return boids_fail_keys(BOIDS_E_SCENARIO_VALUE, "depth", "world", /* (dims: "depth") */
                               "dims 2 is a flat world, but the world given is %s px deep: give "
                               "it as WxH, or leave dims out",
                               boids_float_text(sc->def.depth, a));
    boids_scenario_finish(sc);
    for (uint32_t i = 0; i < sc->obstacle_count && sc->def.depth == 0; ++i)
        if (!isnan(sc->obstacles[i].z)) /* a circle's z is NaN (boids_obstacle_from_text) */
            return boids_fail_index(BOIDS_E_DEF_OBSTACLE, (size_t)i, "obstacle",
                                    "obstacle %u is a sphere (X,Y,Z,R), but the world is flat: "
                                    "a flat world's obstacle is X,Y,R, a circle (a 3D world: "
                                    "WxHxD, or dims 3)",
                                    i);
    return BOIDS_OK;
}

void boids_scenario_init(boids_scenario *sc, uint32_t default_steps)
{
    memset(sc, 0, sizeof *sc);
    sc->def = boids_default_world_def();
    sc->steps = sc->default_steps = default_steps;
    sc->model_dt = sc->def.dt;
}

long boids_scenario_line(const boids_scenario *sc, const char *key)
{
    for (int k = 0; k < sc->key_count; ++k)
        if (strcmp(sc->keys[k].key, key) == 0) return sc->keys[k].line;
    return 0;
}

boids_status boids_scenario_load(const char *path, uint32_t default_steps, boids_scenario *out)
{
    return boids_scenario_load_extras(path, default_steps, NULL, out);
}

boids_status boids_scenario_load_extras(const char *path, uint32_t default_steps,
                                        const boids_scenario_extras *extras, boids_scenario *out)
{
    boids_scenario_init(out, default_steps);
    char *text = NULL;
    size_t size = 0;
    boids_status st = slurp(path, &text, &size);
    if (st != BOIDS_OK) return st;
    line_kv *kv = NULL;
    int n = 0;
    st = split_lines(path, text, size, extras, &kv, &n);
    if (st != BOIDS_OK) {
        free(text);
        return st;
    }
    /* Every key's line (the obstacles' apart: the one key that repeats), for later errors. */
    for (int k = 0; k < n && st == BOIDS_OK; ++k) {
        if (strcmp(kv[k].key, "obstacle") == 0 || (extras && extras->owns(extras->ctx, kv[k].key)))
            continue;
        if (out->key_count == BOIDS_SCENARIO_MAX_KEYS) {
            st = boids_fail_file(BOIDS_E_SCENARIO_KEY, path, kv[k].line, "more than %d keys",
                                 BOIDS_SCENARIO_MAX_KEYS);
            break;
        }
        snprintf(out->keys[out->key_count].key, sizeof out->keys[0].key, "%s", kv[k].key);
        out->keys[out->key_count++].line = kv[k].line;
    }
    /* The model folders first, relative to the file, then the model, wherever they stand: the
     * other keys are its parameters and its world. */
    for (int k = 0; k < n && st == BOIDS_OK; ++k) {
        if (strcmp(kv[k].key, "model_dir") != 0) continue;
        char dir[1024];
        const char *slash = strrchr(path, '/');
        if (kv[k].value[0] == '/' || !slash)
            snprintf(dir, sizeof dir, "%s", kv[k].value);
        else
            snprintf(dir, sizeof dir, "%.*s/%s", (int)(slash - path), path, kv[k].value);
        st = boids_scenario_set(out, "model_dir", dir);
        if (st != BOIDS_OK) st = boids_error_in_file(path, kv[k].line, BOIDS_ERR_PARSE);
    }
    for (int k = 0; k < n && st == BOIDS_OK; ++k) {
        if (strcmp(kv[k].key, "model") != 0) continue;
        st = boids_scenario_set(out, "model", kv[k].value);
        if (st != BOIDS_OK) st = boids_error_in_file(path, kv[k].line, BOIDS_ERR_PARSE);
    }
    for (int k = 0; k < n && st == BOIDS_OK; ++k) {
        if (strcmp(kv[k].key, "model") == 0 || strcmp(kv[k].key, "model_dir") == 0) continue;
        if (strcmp(kv[k].key, "obstacle") == 0 &&
            out->obstacle_count < BOIDS_SCENARIO_MAX_OBSTACLES)
            out->obstacle_lines[out->obstacle_count] = kv[k].line;
        boids_status ks = extras && extras->owns(extras->ctx, kv[k].key)
                              ? extras->set(extras->ctx, kv[k].key, kv[k].value)
                              : boids_scenario_set(out, kv[k].key, kv[k].value);
        if (ks != BOIDS_OK) st = boids_error_in_file(path, kv[k].line, BOIDS_ERR_PARSE);
    }
    free(kv);
    free(text);
    if (st != BOIDS_OK) return st;
    boids_scenario_finish(out);
    /* Checks between parameters once all are read, at the line of the key they are about. */
    if (boids_params_validate(out->def.model, &out->def.params) != BOIDS_OK)
        return boids_error_in_file(path, boids_scenario_line(out, boids_last_error_info()->key),
                                   BOIDS_ERR_PARSE);
    return BOIDS_OK;
}

void boids_scenario_write(FILE *f, const boids_world_def *def)
{
    if (boids_model_folder(def->model)) /* a loaded model's folder: read before its name */
        fprintf(f, "model_dir = %s\n", boids_model_folder(def->model));
    boids_scenario_write_given(f, def, true, 0);
}

void boids_scenario_write_given(FILE *f, const boids_world_def *def, bool size, uint32_t dims)
{
    char v[32], w[32], t[32];
    if (boids_model_folder(def->model)) /* its files (an experiment's fingerprint holds them) */
        fprintf(f, "; the model folder's files' digest: %016llx\n",
                (unsigned long long)boids_model_digest(def->model));
    fprintf(f, "; the world\nmodel = %s\nboids = %u\nswarms = %u\n", boids_model_name(def->model),
            def->count, def->swarms);
    if (size) {
        fprintf(f, "world = %sx%s", boids_float_text(def->width, v),
                boids_float_text(def->height, w));
        if (def->depth > 0) fprintf(f, "x%s", boids_float_text(def->depth, v));
        fputc('\n', f);
    } else {
        fprintf(f, "; world: the model's own (or the default) at its density for these boids\n");
    }
    if (dims) fprintf(f, "dims = %u\n", dims);
    fprintf(f, "dt = %s\nlayout = %s\n", boids_float_text(def->dt, t),
            boids_layout_name(def->layout));
    if (def->nearest > 0)
        fprintf(f, "neighbours = nearest:%u\n", def->nearest);
    else
        fprintf(f, "neighbours = metric\n");
    for (uint32_t i = 0; i < def->obstacle_count; ++i) {
        fprintf(f, "obstacle = %s,%s,", boids_float_text(def->obstacles[i].x, v),
                boids_float_text(def->obstacles[i].y, w));
        if (def->depth > 0) fprintf(f, "%s,", boids_float_text(def->obstacles[i].z, v));
        fprintf(f, "%s\n", boids_float_text(def->obstacles[i].radius, t));
    }
    fprintf(f, "; every parameter of the model\n");
    size_t n;
    const boids_param_info *info = boids_model_params(def->model, &n);
    for (size_t i = 0; i < n; ++i) {
        const float value = boids_param_get(&def->params, &info[i]);
        const bool edges = info[i].flags & BOIDS_PARAM_NAMED_EDGES; /* by name: wrap, ... */
        fprintf(f, "%s = %s\n", info[i].name,
                edges ? boids_edges_name(value) : boids_float_text(value, v));
    }
}
