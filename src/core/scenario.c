#include "core/scenario.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/parse.h"

typedef struct loader {
    boids_world_def *def;
    uint32_t *steps;
    unsigned *given;
    int pass;          /* 0: the model only; 1: the rest */
    int errors;        /* handler calls that failed so far (ini_parse reports the first's line) */
    char message[512]; /* the first failure */
    boids_status status;
} loader;

static int fail_key(loader *l, boids_status st, const char *fmt, const char *a, const char *b)
{
    if (l->errors++ == 0) {
        snprintf(l->message, sizeof l->message, fmt, a, b);
        l->status = st;
    }
    return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
    loader *l = user;
    boids_world_def *d = l->def;
    if (section[0] != '\0') return l->pass ? fail_key(l, BOIDS_ERR_PARSE, "sections are not used here ([%s])%s", section, "") : 1;
    if (strcmp(key, "model") == 0) {
        if (l->pass == 0) {
            if (boids_model_from_name(value, &d->model) != BOIDS_OK)
                return fail_key(l, BOIDS_ERR_PARSE, "model: %s%s", boids_last_error(), "");
            d->params = boids_model_default_params(d->model);
        }
        return 1;
    }
    if (l->pass == 0) return 1;
    uint32_t u;
    uint64_t u64;
    float f;
    if (strcmp(key, "boids") == 0) {
        if (!boids_parse_u32(value, UINT32_MAX, &u)) return fail_key(l, BOIDS_ERR_PARSE, "boids: '%s' is not a whole number%s", value, "");
        d->count = u;
        *l->given |= BOIDS_SCENARIO_COUNT;
    } else if (strcmp(key, "swarms") == 0) {
        if (!boids_parse_u32(value, BOIDS_MAX_SWARMS, &u) || u == 0)
            return fail_key(l, BOIDS_ERR_PARSE, "swarms: '%s' is not a whole number in [1, 1024]%s", value, "");
        d->swarms = u;
        *l->given |= BOIDS_SCENARIO_SWARMS;
    } else if (strcmp(key, "steps") == 0) {
        if (!boids_parse_u32(value, UINT32_MAX, &u)) return fail_key(l, BOIDS_ERR_PARSE, "steps: '%s' is not a whole number%s", value, "");
        *l->steps = u;
        *l->given |= BOIDS_SCENARIO_STEPS;
    } else if (strcmp(key, "seed") == 0) {
        if (!boids_parse_u64(value, &u64)) return fail_key(l, BOIDS_ERR_PARSE, "seed: '%s' is not a whole number%s", value, "");
        d->seed = u64;
    } else if (strcmp(key, "dt") == 0) {
        if (!boids_parse_float(value, &f) || !(f > 0.0f)) return fail_key(l, BOIDS_ERR_PARSE, "dt: '%s' is not a positive number%s", value, "");
        d->dt = f;
    } else if (strcmp(key, "world") == 0) {
        char w[64], h[64];
        const char *x = strchr(value, 'x');
        float fw, fh;
        if (!x || (size_t)(x - value) >= sizeof w || strlen(x + 1) >= sizeof h)
            return fail_key(l, BOIDS_ERR_PARSE, "world: '%s' is not WxH%s", value, "");
        memcpy(w, value, (size_t)(x - value));
        w[x - value] = '\0';
        strcpy(h, x + 1);
        if (!boids_parse_float(w, &fw) || !boids_parse_float(h, &fh) || !(fw > 0) || !(fh > 0))
            return fail_key(l, BOIDS_ERR_PARSE, "world: '%s' is not WxH with positive W and H%s", value, "");
        d->width = fw;
        d->height = fh;
        *l->given |= BOIDS_SCENARIO_WORLD;
    } else if (boids_params_set(d->model, &d->params, key, value) != BOIDS_OK) {
        return fail_key(l, BOIDS_ERR_PARSE, "%s%s", boids_last_error(), "");
    }
    return 1;
}

boids_status boids_scenario_load(const char *path, boids_world_def *def, uint32_t *steps, unsigned *given)
{
    *given = 0;
    loader l = {def, steps, given, 0, 0, "", BOIDS_OK};
    for (l.pass = 0; l.pass < 2; ++l.pass) {
        int line = ini_parse(path, handler, &l);
        if (line == -1) return boids_fail(BOIDS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        if (line == -2) return boids_fail(BOIDS_ERR_NO_MEMORY, "%s: out of memory", path);
        if (line > 0) {
            if (l.errors == 0) return boids_fail(BOIDS_ERR_PARSE, "%s:%d: not a 'key = value' line", path, line);
            return boids_fail(l.status, "%s:%d: %s", path, line, l.message);
        }
    }
    /* Checks between parameters once all are read. */
    if (boids_params_validate(def->model, &def->params) != BOIDS_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", boids_last_error());
        return boids_fail(BOIDS_ERR_PARSE, "%s: %s", path, msg);
    }
    return BOIDS_OK;
}
