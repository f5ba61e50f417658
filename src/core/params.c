/* The parameter tables, generated from the rows of core/manifest.h: --set by name with range
 * checks, validation, the per-model tables that --help, the panel and the layout test read, and
 * the models' presets (the blocks' defaults with the manifest's KEY=VALUE text applied). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/models.h"
#include "base/parse.h"

/* Every row of every block, in block order, as written (unit with "T", both slider tops). */
typedef boids_param_row param_row;

#define BOIDS_X_BLOCK_ROWS(ID, field, rows) rows(BOIDS_X_PARAM_ROW, ID, field)
static const param_row rows[] = {BOIDS_PARAM_BLOCK_LIST(BOIDS_X_BLOCK_ROWS)};
#undef BOIDS_X_BLOCK_ROWS
#define ROW_COUNT (sizeof rows / sizeof rows[0])

/* Per model: its blocks' rows, resolved for its time base (units, slider tops); built once for
 * the built-in models, and for a loaded one when it is registered (boids_params_add_loaded). */
#define MAX_MODEL_PARAMS 64
static boids_param_info model_params[BOIDS_MODEL_SLOTS][MAX_MODEL_PARAMS];
static size_t model_param_count[BOIDS_MODEL_SLOTS];
static char model_units[BOIDS_MODEL_SLOTS][MAX_MODEL_PARAMS][24];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* "px/T^2" -> "px/s^2" or "px/frame^2". */
static void resolve_unit(const char *unit, bool per_second, char *out, size_t size)
{
    size_t k = 0;
    for (const char *p = unit; *p && k + 6 < size; ++p) {
        if (*p == 'T') {
            const char *t = per_second ? "s" : "frame";
            while (*t) out[k++] = *t++;
        } else {
            out[k++] = *p;
        }
    }
    out[k] = '\0';
}

static boids_status check_value(const boids_param_info *info, float v);

/* Appends one row to model m's table, resolved for its time base. */
static void add_row(int m, const param_row *r, bool per_second)
{
    const size_t n = model_param_count[m];
    if (n == MAX_MODEL_PARAMS) return; /* boids_params_add_loaded refuses more */
    resolve_unit(r->unit, per_second, model_units[m][n], sizeof model_units[m][n]);
    model_params[m][n] = (boids_param_info){r->name,
                                            r->block,
                                            r->offset,
                                            model_units[m][n],
                                            r->min,
                                            r->max,
                                            per_second ? r->ui_max_s : r->ui_max_f,
                                            r->flags,
                                            r->def,
                                            r->description};
    model_param_count[m] = n + 1;
}

/* Model m's table: its built-in blocks' rows in block order, a loaded model's own rows (extra)
 * before the obstacles', which come last in every model's. */
static void build_table(int m, unsigned blocks, bool per_second, const param_row *extra,
                        size_t extra_count)
{
    model_param_count[m] = 0;
    for (size_t r = 0; r < ROW_COUNT; ++r) {
        if (rows[r].block == BOIDS_BLOCK_OBSTACLES &&
            (r == 0 || rows[r - 1].block != rows[r].block))
            for (size_t e = 0; e < extra_count; ++e) add_row(m, &extra[e], per_second);
        if (blocks & (1u << rows[r].block)) add_row(m, &rows[r], per_second);
    }
}

static void build_tables(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
        build_table(m, boids_model_blocks((boids_model)m),
                    boids_model_time_base((boids_model)m) == BOIDS_TIME_PER_SECOND, NULL, 0);
}

/* The line of a folder's model.h that declares parameter `name` (its row: "F, name,"), or of its
 * first mention ("name"); 0 where neither is found. Errors about a parameter name it. */
static long model_h_line(const char *folder, const char *name)
{
    char path[1100], line[1024], row[96], quoted[96];
    snprintf(path, sizeof path, "%s/model.h", folder);
    snprintf(row, sizeof row, "F, %s,", name);
    snprintf(quoted, sizeof quoted, "\"%s", name);
    FILE *f = fopen(path, "r");
    long n = 0, found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        if (++n, strstr(line, row) || strstr(line, quoted)) found = n;
    if (f) fclose(f);
    return found;
}

boids_status boids_params_add_loaded(boids_model model, const boids_manifest_row *row,
                                     const boids_param_row *own, size_t n, const char *folder)
{
    const unsigned blocks = BOIDS_BLOCKS_EVERY_MODEL | row->blocks;
    const bool per_second = row->time_base == BOIDS_TIME_PER_SECOND;
    const int m = (int)model;
    size_t builtin = 0;
    pthread_once(&tables_once, build_tables);
    param_row extra[MAX_MODEL_PARAMS];
    if (m < BOIDS_MODEL_COUNT || m >= BOIDS_MODEL_SLOTS)
        return boids_fail(BOIDS_E_INTERNAL, "model %d is not a loaded one", m);
    build_table(m, blocks, per_second, NULL, 0);
    builtin = model_param_count[m];
    if (n + builtin > MAX_MODEL_PARAMS)
        return boids_fail_key(BOIDS_E_MODEL_MANIFEST, boids_model_name(model),
                              "%s/model.h: %zu parameters with the shared blocks', %d at most",
                              folder, n + builtin, MAX_MODEL_PARAMS);
    for (size_t i = 0; i < n; ++i) {
        const boids_param_row *p = &own[i];
        extra[i] = *p;
        boids_param_info info = {
            .name = p->name, .min = p->min, .max = p->max, .flags = p->flags, .unit = ""};
        for (size_t j = 0; j < builtin; ++j)
            if (strcmp(model_params[m][j].name, p->name) == 0)
                return boids_fail_key(BOIDS_E_MODEL_DUPLICATE, p->name,
                                      "%s/model.h:%ld: parameter %s is a shared block's already",
                                      folder, model_h_line(folder, p->name), p->name);
        for (size_t j = 0; j < i; ++j)
            if (strcmp(own[j].name, p->name) == 0)
                return boids_fail_key(BOIDS_E_MODEL_DUPLICATE, p->name,
                                      "%s/model.h:%ld: parameter %s is declared twice", folder,
                                      model_h_line(folder, p->name), p->name);
        if (p->offset + sizeof(float) > sizeof(boids_param_blocks) ||
            p->offset < offsetof(boids_params, loaded))
            return boids_fail_key(BOIDS_E_MODEL_MANIFEST, p->name,
                                  "%s/model.h: parameter %s lies outside the loaded blocks' %d "
                                  "floats",
                                  folder, p->name, BOIDS_PARAMS_LOADED_FLOATS);
        if (!(p->min <= p->max) || check_value(&info, p->def) != BOIDS_OK) {
            const float lo = p->min;
            char d[32], a[32], b[32];
            char what[64];
            if (p->min <= p->max)
                snprintf(what, sizeof what, "default %s is outside its range",
                         boids_float_text(p->def, d));
            else
                snprintf(what, sizeof what, "range is empty (its min above its max):");
            return boids_fail_key(BOIDS_E_MODEL_MANIFEST, p->name,
                                  "%s/model.h:%ld: parameter %s's %s [%s, %s]", folder,
                                  model_h_line(folder, p->name), p->name, what,
                                  boids_float_text(lo, a), boids_float_text(p->max, b));
        }
    }
    build_table(m, blocks, per_second, extra, n);
    return BOIDS_OK;
}

/* Stores v (checked: a whole number in range, where the row is a count) in its field. */
static void set_field(boids_params *p, const boids_param_info *info, float v)
{
    char *at = (char *)p + info->offset;
    if (info->flags & BOIDS_PARAM_COUNT) {
        const uint32_t n = (uint32_t)v;
        memcpy(at, &n, sizeof n);
    } else {
        memcpy(at, &v, sizeof v);
    }
}

boids_params boids_block_defaults(void)
{
    boids_params p;
    memset(&p, 0, sizeof p);
    for (size_t r = 0; r < ROW_COUNT; ++r) {
        const boids_param_info info = {.offset = rows[r].offset, .flags = rows[r].flags};
        set_field(&p, &info, rows[r].def);
    }
    return p;
}

const boids_param_info *boids_model_params(boids_model model, size_t *count)
{
    pthread_once(&tables_once, build_tables);
    /* a loaded model's table is there before the model is visible (boids_model_register) */
    const bool known = (unsigned)model < BOIDS_MODEL_COUNT ||
                       ((unsigned)model < BOIDS_MODEL_SLOTS && model_param_count[model] > 0);
    if (count) *count = known ? model_param_count[model] : 0;
    return known ? model_params[model] : NULL;
}

const boids_param_info *boids_model_param(boids_model model, const char *name)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    for (size_t i = 0; name && i < n; ++i)
        if (strcmp(info[i].name, name) == 0) return &info[i];
    return NULL;
}

float boids_param_get(const boids_params *params, const boids_param_info *info)
{
    if (!params || !info || info->offset > sizeof *params - sizeof(float)) {
        boids_fail_key(BOIDS_E_ARGUMENT, "info", "no parameters or no parameter: NaN");
        return NAN;
    }
    const char *at = (const char *)params + info->offset;
    if (info->flags & BOIDS_PARAM_COUNT) {
        uint32_t n;
        memcpy(&n, at, sizeof n);
        return (float)n;
    }
    float v;
    memcpy(&v, at, sizeof v);
    return v;
}

bool boids_edges_from_name(const char *name, float *out)
{
    static const char *const names[] = {"wrap", "bounded", "processing"};
    for (int i = 0; name && out && i < 3; ++i)
        if (strcmp(name, names[i]) == 0) {
            *out = (float)i;
            return true;
        }
    return false;
}

const char *boids_edges_name(float edges)
{
    return edges == BOIDS_EDGES_WRAP         ? "wrap"
           : edges == BOIDS_EDGES_BOUNDED    ? "bounded"
           : edges == BOIDS_EDGES_PROCESSING ? "processing"
                                             : "?"; /* (7 read "wrap") */
}

/* The range check of one value; the message prints the value and the bounds exactly. */
static boids_status check_value(const boids_param_info *info, float v)
{
    char a[32], lo[32], hi[32];
    if (!isfinite(v) || v < info->min || v > info->max)
        return boids_fail_key(BOIDS_E_PARAM_RANGE, info->name, "%s is outside [%s, %s]%s%s",
                              boids_float_text(v, a), boids_float_text(info->min, lo),
                              boids_float_text(info->max, hi), info->unit[0] ? " " : "",
                              info->unit);
    if ((info->flags & BOIDS_PARAM_INTEGER) && v != floorf(v))
        return boids_fail_key(BOIDS_E_PARAM_NOT_WHOLE, info->name, "%s is not a whole number",
                              boids_float_text(v, a));
    return BOIDS_OK;
}

static boids_status set_param(boids_model model, boids_params *params, const char *key,
                              const char *value);

boids_status boids_params_set(boids_model model, boids_params *params, const char *key,
                              const char *value)
{
    if ((unsigned)model >= (unsigned)boids_model_count())
        return boids_fail_key(BOIDS_E_DEF_MODEL, "model", "unknown model %d", (int)model);
    return set_param(model, params, key, value);
}

/* boids_params_set without the check that the model is visible (a loaded model's preset is
 * checked before it is). */
static boids_status set_param(boids_model model, boids_params *params, const char *key,
                              const char *value)
{
    BOIDS_REQUIRE(params, "params");
    BOIDS_REQUIRE(key, "key");
    BOIDS_REQUIRE(value, "value");
    const boids_param_info *info = boids_model_param(model, key);
    if (!info) {
        size_t n;
        const boids_param_info *all = boids_model_params(model, &n);
        boids_guess g = BOIDS_GUESS(key);
        char list[1024] = "";
        for (size_t i = 0; i < n; ++i) {
            boids_list_append(list, sizeof list, all[i].name);
            boids_guess_offer(&g, all[i].name);
        }
        const char *guess = g.best;
        if (guess)
            return boids_fail_key(BOIDS_E_PARAM_UNKNOWN, key,
                                  "no such parameter for model %s: did you mean %s? (parameters: "
                                  "%s)",
                                  boids_model_name(model), guess, list);
        return boids_fail_key(BOIDS_E_PARAM_UNKNOWN, key,
                              "no such parameter for model %s (parameters: %s)",
                              boids_model_name(model), list);
    }
    float v;
    if ((info->flags & BOIDS_PARAM_NAMED_EDGES) && boids_edges_from_name(value, &v)) {
        /* edges=wrap|bounded|processing */
    } else {
        const char *why = boids_parse_float_why(value, &v);
        if (why)
            return boids_fail_key(
                BOIDS_E_PARAM_NOT_NUMBER, key, "'%s' %s%s", value, why,
                (info->flags & BOIDS_PARAM_NAMED_EDGES) ? " (or wrap, bounded, processing)" : "");
    }
    boids_status st = check_value(info, v);
    if (st != BOIDS_OK) return st;
    set_field(params, info, v);
    return BOIDS_OK;
}

boids_status boids_params_validate(boids_model model, const boids_params *params)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    if (!info) return boids_fail_key(BOIDS_E_DEF_MODEL, "model", "unknown model %d", (int)model);
    BOIDS_REQUIRE(params, "params");
    for (size_t i = 0; i < n; ++i) {
        boids_status st = check_value(&info[i], boids_param_get(params, &info[i]));
        if (st != BOIDS_OK) return st;
    }
    char a[32], b[32], c[32];
    if (params->base.min_speed > params->base.max_speed)
        return boids_fail_keys(BOIDS_E_PARAM_MIN_ABOVE_MAX, "min_speed", "max_speed",
                               "%s is above max_speed %s",
                               boids_float_text(params->base.min_speed, a),
                               boids_float_text(params->base.max_speed, b));
    unsigned blocks = boids_model_blocks(model);
    if (blocks & BOIDS_BLOCK_BIT(KIT)) {
        /* Eq. 7-9 take (age - 0.5)^2 <= 1/4 of each constant: the youngest and oldest boids must
         * keep a view radius and angle >= 0 and a top speed >= min_speed. */
        const boids_kit_params *k = &params->kit;
        if (k->view_radius - k->c_view_radius * 0.25f < 0)
            return boids_fail_keys(
                BOIDS_E_PARAM_CONFLICT, "c_view_radius", "view_radius",
                "%s leaves the youngest and oldest boids a view radius below 0 (view_radius %s)",
                boids_float_text(k->c_view_radius, a), boids_float_text(k->view_radius, b));
        if (k->view_angle - k->c_view_angle * 0.25f < 0)
            return boids_fail_keys(
                BOIDS_E_PARAM_CONFLICT, "c_view_angle", "view_angle",
                "%s leaves the youngest and oldest boids a view angle below 0 (view_angle %s)",
                boids_float_text(k->c_view_angle, a), boids_float_text(k->view_angle, b));
        if (params->base.max_speed - k->c_maxspeed * 0.25f < params->base.min_speed)
            return boids_fail_keys(
                BOIDS_E_PARAM_CONFLICT, "c_maxspeed", "min_speed,max_speed",
                "%s leaves the youngest and oldest boids a top speed below min_speed %s "
                "(max_speed %s)",
                boids_float_text(k->c_maxspeed, a), boids_float_text(params->base.min_speed, b),
                boids_float_text(params->base.max_speed, c));
    }
    if (blocks & BOIDS_BLOCK_BIT(GREGOIRE)) {
        /* The rules divide by both (models/gregoire/rules.h): alpha / v_0 weighs the alignment,
         * and the spring's slope is 1 / (4 (r_a - r_e)); either infinite puts NaN in the state
         * (max_speed 0 or 1e-40, r_a = r_e did). In float, as the rules compute them. */
        const boids_gregoire_params *g = &params->gregoire;
        const float gap = g->attraction_radius - g->equilibrium;
        if (!(gap > 0) || !isfinite(1.0f / (4.0f * gap)))
            return boids_fail_keys(
                BOIDS_E_PARAM_CONFLICT, "attraction_radius", "equilibrium",
                "%s is not above equilibrium %s: the spring's slope 1 / (4 (r_a - r_e)) needs "
                "r_a > r_e",
                boids_float_text(g->attraction_radius, a), boids_float_text(g->equilibrium, b));
        if (!(params->base.max_speed > 0) || !isfinite(g->alpha / params->base.max_speed))
            return boids_fail_keys(BOIDS_E_PARAM_CONFLICT, "max_speed", "alpha",
                                   "%s: the particles' speed v_0 must be above 0, alpha / v_0 "
                                   "finite (alpha %s)",
                                   boids_float_text(params->base.max_speed, a),
                                   boids_float_text(g->alpha, b));
    }
    if ((blocks & BOIDS_BLOCK_BIT(PREDATORS)) &&
        params->predators.pred_min_speed > params->predators.pred_max_speed)
        return boids_fail_key(BOIDS_E_PARAM_MIN_ABOVE_MAX, "pred_min_speed",
                              "%s is above pred_max_speed %s",
                              boids_float_text(params->predators.pred_min_speed, a),
                              boids_float_text(params->predators.pred_max_speed, b));
    return BOIDS_OK;
}

boids_status boids_params_resolve(boids_model model, const boids_params *params,
                                  boids_params_facts *out)
{
    boids_status st = boids_params_validate(model, params);
    if (st != BOIDS_OK) return st;
    out->radius = boids_params_max_radius(model, params, false);
    out->radius_with_obstacles = boids_params_max_radius(model, params, true);
    out->predators =
        boids_model_features(model) & BOIDS_FEATURE_PREDATORS ? params->predators.predators : 0;
    out->obstacles = params->obstacles.obstacles;
    return BOIDS_OK;
}

/* The outer radius of a model's nested zones (BOIDS_PARAM_ZONE): their widths added in row order,
 * as the rules add them (models/couzin/rules.h); 0 for a model without zones. */
static float zones_radius(const boids_param_info *info, size_t n, const boids_params *p)
{
    float r = 0.0f;
    for (size_t i = 0; i < n; ++i)
        if (info[i].flags & BOIDS_PARAM_ZONE) r += boids_param_get(p, &info[i]);
    return r;
}

float boids_params_max_radius(boids_model model, const boids_params *p, bool with_obstacles)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    float r = 0.0f;
    if (!p) return r;
    for (size_t i = 0; i < n; ++i) {
        bool radius = (info[i].flags & BOIDS_PARAM_RADIUS) ||
                      (with_obstacles && (info[i].flags & BOIDS_PARAM_OBSTACLE_RADIUS));
        if (radius) r = fmaxf(r, boids_param_get(p, &info[i]));
    }
    r = fmaxf(r, zones_radius(info, n, p));
    if (boids_model_features(model) & BOIDS_FEATURE_PREDATORS) /* a catch is a neighbour too */
        r = fmaxf(r, p->predators.boid_size + p->predators.predator_size);
    return r;
}

float boids_model_group_radius(boids_model model, const boids_params *p)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    for (size_t i = 0; p && i < n; ++i)
        if (info[i].flags & BOIDS_PARAM_GROUPS)
            return info[i].flags & BOIDS_PARAM_ZONE ? zones_radius(info, n, p)
                                                    : boids_param_get(p, &info[i]);
    return 0.0f; /* every model has one: test_layout checks */
}

/* Applies "key=value key=value ..." to params, each through the --set path, so the preset obeys
 * the ranges. */
static boids_status apply_preset(boids_model model, const char *text, boids_params *params)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ') ++p;
        if (!*p) break;
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char pair[128], *eq;
        snprintf(pair, sizeof pair, "%.*s", (int)len, p);
        if (len >= sizeof pair || !(eq = strchr(pair, '=')))
            return boids_fail_key(BOIDS_E_PARAM_UNKNOWN, boids_model_name(model),
                                  "preset '%s' is not KEY=VALUE", pair);
        *eq = '\0';
        boids_status st = set_param(model, params, pair, eq + 1);
        if (st != BOIDS_OK) return st;
        p += len;
    }
    return BOIDS_OK;
}

boids_status boids_model_apply_preset(boids_model model, boids_params *params)
{
    if ((unsigned)model >= (unsigned)boids_model_count())
        return boids_fail_key(BOIDS_E_DEF_MODEL, "model", "unknown model %d", (int)model);
    return apply_preset(model, boids_model_preset_text(model), params);
}

boids_status boids_params_check_preset(boids_model model, const boids_manifest_row *row,
                                       const char *folder)
{
    boids_params p = boids_model_default_params(model);
    boids_status st = apply_preset(model, row->preset, &p);
    if (st == BOIDS_OK) st = boids_params_validate(model, &p);
    if (st == BOIDS_OK) return BOIDS_OK;
    char key[64], why[512]; /* copied: the next error replaces them */
    snprintf(key, sizeof key, "%s", boids_last_error_info()->key);
    snprintf(why, sizeof why, "%s", boids_last_error());
    return boids_fail_key(BOIDS_E_MODEL_MANIFEST, key,
                          "%s/model.h:%ld: model %s's preset \"%s\": %s", folder,
                          model_h_line(folder, row->name), row->name, row->preset, why);
}

boids_params boids_model_default_params(boids_model model)
{
    boids_params p = boids_block_defaults();
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    for (size_t i = 0; i < n; ++i) /* a loaded model's own blocks' defaults */
        if (info[i].offset >= offsetof(boids_params, loaded))
            set_field(&p, &info[i], info[i].block_default);
    boids_model_apply_preset(model, &p); /* cannot fail for a manifest that passes test_layout */
    return p;
}

boids_status boids_model_param_default(boids_model model, const char *key, float *out)
{
    if ((unsigned)model >= (unsigned)boids_model_count())
        return boids_fail_key(BOIDS_E_DEF_MODEL, "model", "unknown model %d", (int)model);
    BOIDS_REQUIRE(key, "key");
    BOIDS_REQUIRE(out, "out");
    const boids_param_info *p = boids_model_param(model, key);
    if (!p)
        return boids_fail_key(BOIDS_E_PARAM_UNKNOWN, key, "model %s has no parameter %s",
                              boids_model_name(model), key);
    const boids_params defaults = boids_model_default_params(model);
    *out = boids_param_get(&defaults, p);
    return BOIDS_OK;
}
