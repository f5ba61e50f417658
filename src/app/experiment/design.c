#include "app/experiment/design.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/parse.h"
#include "core/options.h"
#include "core/scenario.h"

/* ---- the plan ------------------------------------------------------------------------------- */

uint64_t boids_experiment_total(const boids_experiment *e) { return (uint64_t)e->combos * e->runs; }

void boids_experiment_slice(const boids_experiment *e, uint64_t *first, uint64_t *end)
{
    const uint64_t n = boids_experiment_total(e);
    *first = n * (e->shard - 1) / e->shards;
    *end = n * e->shard / e->shards;
}

const char *boids_experiment_value(const boids_experiment *e, uint32_t combo, int k)
{
    /* the first sweep varies slowest */
    uint32_t stride = 1;
    for (int j = e->nsweeps - 1; j > k; --j) stride *= e->sweeps[j].count;
    return e->sweeps[k].values[(combo / stride) % e->sweeps[k].count];
}

bool boids_experiment_sweeps_settings(const boids_experiment *e)
{
    for (int k = 0; k < e->nsweeps; ++k)
        if (e->sweeps[k].setting) return true;
    return false;
}

void boids_experiment_row_prefix(const boids_experiment *e, uint64_t run, char *buf, size_t size)
{
    const uint32_t combo = (uint32_t)(run / e->runs);
    int n = snprintf(buf, size, "%llu,%llu", (unsigned long long)run,
                     (unsigned long long)(e->seed + run % e->runs));
    for (int k = 0; k < e->nsweeps && n > 0 && (size_t)n < size; ++k)
        n += snprintf(buf + n, size - (size_t)n, ",%s", boids_experiment_value(e, combo, k));
}

void boids_experiment_label(const boids_experiment *e, uint32_t combo, char *buf, size_t size)
{
    buf[0] = '\0';
    size_t n = 0;
    for (int k = 0; k < e->nsweeps && n < size; ++k)
        n += (size_t)snprintf(buf + n, size - n, "%s%s = %s", k ? ", " : "", e->sweeps[k].key,
                              boids_experiment_value(e, combo, k));
}

/* ---- the world of a combination ------------------------------------------------------------- */

/* The world settings a sweep may vary: not the model (an experiment is one), the steps and the
 * seed (the plan's), nor the obstacles (a list). */
static bool sweepable_setting(const char *key)
{
    const boids_option *o = boids_setting_of_key(key);
    return o && o->id != BOIDS_SET_MODEL && o->id != BOIDS_SET_STEPS && o->id != BOIDS_SET_SEED &&
           o->id != BOIDS_SET_OBSTACLE;
}

/* The swept world settings of `combo` over *out (the experiment's world with the combination's
 * parameters), as the command line would set them: the scenario with the experiment's world and
 * what was given of it, each swept key set as its flag would, then resolved. A model's own world
 * (or the default one) thus follows a swept count at its density, and a given world is kept. */
static boids_status apply_settings(const boids_experiment *e, uint32_t combo, boids_world_def *out)
{
    boids_scenario *sc = malloc(sizeof *sc); /* (large: the obstacles) */
    if (!sc) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a combination's world");
    boids_scenario_init(sc, 0);
    boids_status st = boids_scenario_set(sc, "model", boids_model_name(e->def.model));
    const boids_world_def preset = sc->def; /* the model's own world (width 0: the default's) */
    sc->def = *out;
    sc->dims = e->dims;
    sc->given[BOIDS_SET_COUNT] = true; /* the manifest's boids line */
    if (!e->world_given) {
        sc->def.width = preset.width, sc->def.height = preset.height;
        sc->def.depth = preset.depth;
    } else {
        sc->preset_size = false;
    }
    sc->obstacle_count = e->def.obstacle_count;
    if (e->def.obstacle_count)
        memcpy(sc->obstacles, e->def.obstacles, sizeof *sc->obstacles * e->def.obstacle_count);
    for (int k = 0; k < e->nsweeps && st == BOIDS_OK; ++k)
        if (e->sweeps[k].setting)
            st = boids_scenario_set(sc, e->sweeps[k].key, boids_experiment_value(e, combo, k));
    if (st == BOIDS_OK) st = boids_scenario_resolve(sc);
    if (st == BOIDS_OK) {
        *out = sc->def;
        boids_world_def_resolve_size(out);
    }
    free(sc);
    return st;
}

/* The world of one combination, from the first seed given. */
boids_status boids_experiment_world(const boids_experiment *e, uint32_t combo, uint64_t seed,
                                    boids_world_def *out)
{
    *out = e->def;
    out->seed = seed;
    boids_status st = BOIDS_OK;
    for (int k = 0; k < e->nsweeps && st == BOIDS_OK; ++k)
        if (!e->sweeps[k].setting)
            st = boids_params_set(out->model, &out->params, e->sweeps[k].key,
                                  boids_experiment_value(e, combo, k));
    if (st == BOIDS_OK && boids_experiment_sweeps_settings(e)) st = apply_settings(e, combo, out);
    return st == BOIDS_OK ? boids_world_def_validate(out) : st;
}

uint32_t boids_experiment_count(const boids_experiment *e, uint32_t combo)
{
    boids_world_def def;
    if (!boids_experiment_sweeps_settings(e)) return e->def.count;
    return boids_experiment_world(e, combo, e->seed, &def) == BOIDS_OK ? def.count : e->def.count;
}

/* Whether `text` is taken for sweep s's key, as --set or the setting's flag would take it. */
static boids_status check_value(const boids_sweep *s, boids_model model, const boids_params *base,
                                const char *text)
{
    if (!s->setting) {
        boids_params p = *base;
        return boids_params_set(model, &p, s->key, text);
    }
    boids_scenario *sc = malloc(sizeof *sc);
    if (!sc) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    boids_scenario_init(sc, 0);
    sc->def.model = model;
    boids_status st = boids_scenario_set(sc, s->key, text);
    free(sc);
    return st;
}

/* The values of a range A:B:COUNT, as text; false if it is not one. */
static bool parse_range(const char *v, boids_sweep *out)
{
    char a[64], b[64], c[64];
    const char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    float fa, fb;
    uint32_t n;
    if (!c2 || strchr(c2 + 1, ':') || (size_t)(c1 - v) >= sizeof a ||
        (size_t)(c2 - c1 - 1) >= sizeof b || strlen(c2 + 1) >= sizeof c)
        return false;
    snprintf(a, sizeof a, "%.*s", (int)(c1 - v), v);
    snprintf(b, sizeof b, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
    snprintf(c, sizeof c, "%s", c2 + 1);
    if (!boids_parse_float(a, &fa) || !boids_parse_float(b, &fb) ||
        !boids_parse_u32(c, BOIDS_EXP_MAX_VALUES, &n) || n == 0 || (n == 1 && fa != fb))
        return false; /* (A:B:1 would be A alone, B dropped without a word) */
    for (uint32_t i = 0; i < n; ++i) {
        const float x = n == 1 ? fa : (float)((double)fa + ((double)fb - fa) * i / (n - 1));
        boids_float_text(x, out->values[i]);
    }
    out->count = n;
    return true;
}

/* --sweep KEY=A:B:COUNT or KEY=v1,v2,...: every value checked as --set or the flag would. */
boids_status boids_experiment_parse_sweep(const char *spec, boids_model model,
                                          const boids_params *base, boids_sweep *out)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof out->key)
        return boids_fail(BOIDS_E_USAGE, "--sweep %s: expected KEY=A:B:COUNT or KEY=v1,v2,...",
                          spec);
    memset(out, 0, sizeof *out);
    snprintf(out->key, sizeof out->key, "%.*s", (int)(eq - spec), spec);
    out->setting = sweepable_setting(out->key);
    if (!out->setting && boids_setting_of_key(out->key))
        return boids_fail(BOIDS_E_USAGE,
                          "--sweep %s: %s cannot be swept (an experiment is one model; its "
                          "steps, seeds and obstacles are the same in every run)",
                          spec, out->key);
    if (out->setting && !strcmp(out->key, "dt") &&
        boids_model_time_base(model) == BOIDS_TIME_PER_FRAME) /* its combinations were equal */
        return boids_fail(BOIDS_E_USAGE,
                          "--sweep %s: %s steps by frames (a step is its unit of time): dt "
                          "changes nothing of its runs",
                          spec, boids_model_name(model));
    if (!out->setting && !boids_model_param(model, out->key)) {
        boids_params probe = *base; /* the --set path's message lists the model's names */
        boids_params_set(model, &probe, out->key, "0");
        return boids_fail(BOIDS_E_USAGE,
                          "--sweep %s: %s (or a world setting: boids, swarms, "
                          "world, dims, dt, layout, neighbours, cell_size)",
                          spec, boids_last_error_info()->detail);
    }
    const char *v = eq + 1;
    if (strchr(v, ':') && !(out->setting && !strcmp(out->key, "neighbours"))) {
        if (!parse_range(v, out))
            return boids_fail(
                BOIDS_E_USAGE,
                "--sweep %s: a range is A:B:COUNT, two numbers and a count in [2, %d] (COUNT "
                "values from A to B; 1 where A = B)",
                spec, BOIDS_EXP_MAX_VALUES);
    } else {
        for (const char *p = v; *p;) {
            const char *end = strchr(p, ',');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (len == 0 || len >= BOIDS_EXP_VALUE_TEXT || out->count == BOIDS_EXP_MAX_VALUES)
                return boids_fail(BOIDS_E_USAGE,
                                  "--sweep %s: expected values v1,v2,... (at most %d, each at "
                                  "most %d characters)",
                                  spec, BOIDS_EXP_MAX_VALUES, BOIDS_EXP_VALUE_TEXT - 1);
            char *text = out->values[out->count];
            snprintf(text, BOIDS_EXP_VALUE_TEXT, "%.*s", (int)len, p);
            float f;
            if (!out->setting && !boids_parse_float(text, &f))
                return boids_fail(BOIDS_E_USAGE, "--sweep %s: '%s' is not a number", spec, text);
            if (!out->setting) boids_float_text(f, text); /* one text for one value */
            out->count++;
            p = end ? end + 1 : p + len;
            if (end && !*p)
                return boids_fail(BOIDS_E_USAGE,
                                  "--sweep %s: a value is missing after the last ','", spec);
        }
    }
    if (out->count == 0)
        return boids_fail(BOIDS_E_USAGE, "--sweep %s: no values (a sweep needs at least one)",
                          spec);
    for (uint32_t i = 0; i < out->count; ++i) /* each value as --set or the flag would take it */
        if (check_value(out, model, base, out->values[i]) != BOIDS_OK)
            return boids_fail(BOIDS_E_USAGE, "--sweep %s: %s", spec,
                              boids_last_error_info()->detail);
    return BOIDS_OK;
}
