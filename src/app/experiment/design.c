#include "app/experiment/design.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/parse.h"

/* ---- the plan ------------------------------------------------------------------------------- */

uint64_t boids_experiment_total(const boids_experiment *e) { return (uint64_t)e->combos * e->runs; }

void boids_experiment_slice(const boids_experiment *e, uint64_t *first, uint64_t *end)
{
    const uint64_t n = boids_experiment_total(e);
    *first = n * (e->shard - 1) / e->shards;
    *end = n * e->shard / e->shards;
}

float boids_experiment_value(const boids_experiment *e, uint32_t combo, int k)
{
    /* the first sweep varies slowest */
    uint32_t stride = 1;
    for (int j = e->nsweeps - 1; j > k; --j) stride *= e->sweeps[j].count;
    return e->sweeps[k].values[(combo / stride) % e->sweeps[k].count];
}

void boids_experiment_row_prefix(const boids_experiment *e, uint64_t run, char *buf, size_t size)
{
    const uint32_t combo = (uint32_t)(run / e->runs);
    int n = snprintf(buf, size, "%llu,%llu", (unsigned long long)run,
                     (unsigned long long)(e->seed + run % e->runs));
    for (int k = 0; k < e->nsweeps && n > 0 && (size_t)n < size; ++k) {
        char v[32];
        n += snprintf(buf + n, size - (size_t)n, ",%s",
                      boids_float_text(boids_experiment_value(e, combo, k), v));
    }
}

void boids_experiment_label(const boids_experiment *e, uint32_t combo, char *buf, size_t size)
{
    buf[0] = '\0';
    size_t n = 0;
    for (int k = 0; k < e->nsweeps && n < size; ++k) {
        char v[32];
        n += (size_t)snprintf(buf + n, size - n, "%s%s = %s", k ? ", " : "", e->sweeps[k].key,
                              boids_float_text(boids_experiment_value(e, combo, k), v));
    }
}

/* The world of one combination, from the first seed given. */
boids_status boids_experiment_world(const boids_experiment *e, uint32_t combo, uint64_t seed,
                                    boids_world_def *out)
{
    *out = e->def;
    out->seed = seed;
    for (int k = 0; k < e->nsweeps; ++k) {
        char v[32];
        boids_status st =
            boids_params_set(out->model, &out->params, e->sweeps[k].key,
                             boids_float_text(boids_experiment_value(e, combo, k), v));
        if (st != BOIDS_OK) return st;
    }
    return boids_params_validate(out->model, &out->params);
}

/* --sweep KEY=A:B:COUNT or KEY=v1,v2,...: every value checked as --set would. */
boids_status boids_experiment_parse_sweep(const char *spec, boids_model model,
                                          const boids_params *base, boids_sweep *out)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof out->key)
        return boids_fail(BOIDS_E_USAGE, "--sweep %s: expected KEY=A:B:COUNT or KEY=v1,v2,...",
                          spec);
    memset(out, 0, sizeof *out);
    snprintf(out->key, sizeof out->key, "%.*s", (int)(eq - spec), spec);
    if (!boids_model_param(model, out->key)) {
        boids_params probe = *base; /* the --set path's message lists the model's names */
        boids_params_set(model, &probe, out->key, "0");
        return boids_fail(BOIDS_E_USAGE, "--sweep %s: %s", spec, boids_last_error_info()->detail);
    }
    const char *v = eq + 1;
    char text[64];
    if (strchr(v, ':')) {
        char a[64], b[64], c[64];
        const char *c1 = strchr(v, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        float fa, fb;
        uint32_t n;
        if (!c2 || strchr(c2 + 1, ':') || (size_t)(c1 - v) >= sizeof a ||
            (size_t)(c2 - c1 - 1) >= sizeof b || strlen(c2 + 1) >= sizeof c)
            return boids_fail(BOIDS_E_USAGE, "--sweep %s: a range is A:B:COUNT", spec);
        snprintf(a, sizeof a, "%.*s", (int)(c1 - v), v);
        snprintf(b, sizeof b, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
        snprintf(c, sizeof c, "%s", c2 + 1);
        if (!boids_parse_float(a, &fa) || !boids_parse_float(b, &fb) ||
            !boids_parse_u32(c, BOIDS_EXP_MAX_VALUES, &n) || n == 0)
            return boids_fail(
                BOIDS_E_USAGE,
                "--sweep %s: a range is A:B:COUNT, two numbers and a count in [1, %d]", spec,
                BOIDS_EXP_MAX_VALUES);
        for (uint32_t i = 0; i < n; ++i)
            out->values[i] = n == 1 ? fa : (float)((double)fa + ((double)fb - fa) * i / (n - 1));
        out->count = n;
    } else {
        for (const char *p = v; *p;) {
            const char *end = strchr(p, ',');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (len == 0 || len >= sizeof text || out->count == BOIDS_EXP_MAX_VALUES)
                return boids_fail(BOIDS_E_USAGE,
                                  "--sweep %s: expected values v1,v2,... (at most %d)", spec,
                                  BOIDS_EXP_MAX_VALUES);
            snprintf(text, sizeof text, "%.*s", (int)len, p);
            if (!boids_parse_float(text, &out->values[out->count]))
                return boids_fail(BOIDS_E_USAGE, "--sweep %s: '%s' is not a number", spec, text);
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
    for (uint32_t i = 0; i < out->count; ++i) { /* each value as --set would take it */
        boids_params p = *base;
        char t[32];
        if (boids_params_set(model, &p, out->key, boids_float_text(out->values[i], t)) != BOIDS_OK)
            return boids_fail(BOIDS_E_USAGE, "--sweep %s: %s", spec,
                              boids_last_error_info()->detail);
    }
    return BOIDS_OK;
}
