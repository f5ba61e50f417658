/* What programs and bindings need beyond the definition struct: a world opened from a scenario
 * and key = value settings, its state by column, its parameters by name (boids.h, "opening a
 * world by name"). */
#define _POSIX_C_SOURCE 200809L /* world.h's pthreads */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/scenario.h"
#include "world/world.h"

/* The backend a setting names; auto: the GPU where it is hardware, else the CPU. */
static boids_status resolve_backend(const char *value, boids_backend *out)
{
    if (!strcmp(value, "gpu")) {
        *out = BOIDS_BACKEND_GPU;
    } else if (!strcmp(value, "cpu")) {
        *out = BOIDS_BACKEND_CPU;
    } else if (!strcmp(value, "auto")) {
        boids_gl *gl = NULL;
        *out = BOIDS_BACKEND_CPU;
        if (boids_gl_create_headless(&gl) == BOIDS_OK) {
            if (!boids_gl_is_software(gl)) *out = BOIDS_BACKEND_GPU;
            boids_gl_destroy(gl);
        } else if (boids_last_error_info()->id == BOIDS_E_ENVIRONMENT) {
            return boids_last_error_info()->status; /* a bad BOIDS_* setting, not a missing GPU */
        }
    } else {
        return boids_fail_key(BOIDS_E_ARGUMENT, "backend", "'%s' is not auto, gpu or cpu", value);
    }
    return BOIDS_OK;
}

/* The settings over the scenario: the model first (it brings its preset), then the others in
 * order, as a scenario file's lines. */
static boids_status apply_settings(boids_scenario *sc, const char *const *keys,
                                   const char *const *values, size_t n, const char **backend,
                                   int *threads)
{
    boids_status st = BOIDS_OK;
    for (int pass = 0; pass < 2 && st == BOIDS_OK; ++pass)
        for (size_t i = 0; i < n && st == BOIDS_OK; ++i) {
            if (!keys[i] || !values[i])
                return boids_fail(BOIDS_E_ARGUMENT, "setting %zu has no key or no value", i);
            if ((pass == 0) != (strcmp(keys[i], "model") == 0)) continue;
            if (!strcmp(keys[i], "backend")) {
                *backend = values[i];
            } else if (!strcmp(keys[i], "threads")) {
                char *end;
                long t = strtol(values[i], &end, 10);
                if (*values[i] == '\0' || *end || t < 0 || t > 1024)
                    return boids_fail_key(BOIDS_E_ARGUMENT, "threads",
                                          "'%s' is not a whole number in [0, 1024]", values[i]);
                *threads = (int)t;
            } else {
                st = boids_scenario_set(sc, keys[i], values[i]);
            }
        }
    return st;
}

boids_status boids_world_open(const char *scenario, const char *const *keys,
                              const char *const *values, size_t n, boids_world **out)
{
    BOIDS_REQUIRE(out, "out");
    *out = NULL;
    BOIDS_REQUIRE((keys && values) || n == 0, "keys and values");
    boids_scenario *sc = malloc(sizeof *sc);
    if (!sc) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory opening a world");
    boids_status st = BOIDS_OK;
    if (scenario) {
        char path[4096];
        st = boids_scenario_locate(scenario, path, sizeof path);
        if (st == BOIDS_OK) st = boids_scenario_load(path, 600, sc);
    } else {
        boids_scenario_init(sc, 600);
    }
    const char *backend_text = "auto";
    boids_backend backend = BOIDS_BACKEND_GPU;
    int threads = 0;
    if (st == BOIDS_OK) st = apply_settings(sc, keys, values, n, &backend_text, &threads);
    if (st == BOIDS_OK) st = resolve_backend(backend_text, &backend);
    if (st == BOIDS_OK) st = boids_scenario_resolve(sc);
    if (st == BOIDS_OK) {
        boids_world_def def = sc->def;
        def.backend = backend;
        def.threads = threads;
        def.obstacles = sc->obstacle_count ? sc->obstacles : NULL; /* copied at creation */
        def.obstacle_count = sc->obstacle_count;
        st = boids_world_create(&def, out);
    }
    free(sc);
    return st;
}

/* ---- the state by column -------------------------------------------------------------------- */

/* The columns, in the backends' order (boids_backend_ops.read_columns): x, y, vx, vy, swarm, then
 * the attributes; where each lives in a boids_boid. */
static const char *const fixed_names[] = {"x", "y", "vx", "vy", "swarm", "z", "vz"};
_Static_assert(sizeof fixed_names / sizeof fixed_names[0] == BOIDS_COLUMN_ATTR,
               "a name for each fixed column of boids_column");
static size_t column_offset(int column)
{
    static const size_t fixed[] = {offsetof(boids_boid, x),     offsetof(boids_boid, y),
                                   offsetof(boids_boid, vx),    offsetof(boids_boid, vy),
                                   offsetof(boids_boid, swarm), offsetof(boids_boid, z),
                                   offsetof(boids_boid, vz)};
    _Static_assert(sizeof fixed / sizeof fixed[0] == BOIDS_COLUMN_ATTR,
                   "an offset for each fixed column of boids_column");
    return column < BOIDS_COLUMN_ATTR
               ? fixed[column]
               : boids_attribute_info_of((boids_attribute)(column - BOIDS_COLUMN_ATTR))->offset;
}

/* The column `name` names in this world; BOIDS_E_ARGUMENT naming it if there is none. */
static boids_status column_of(const boids_world *w, const char *name, int *column)
{
    BOIDS_REQUIRE(name, "names[c]");
    boids_world_info info;
    boids_world_get_info((boids_world *)w, &info);
    for (int c = 0; c < BOIDS_COLUMN_ATTR; ++c) {
        if (strcmp(name, fixed_names[c]) != 0) continue;
        if ((c == BOIDS_COLUMN_Z || c == BOIDS_COLUMN_VZ) && info.dims != 3)
            return boids_fail_key(BOIDS_E_ARGUMENT, name, "a flat world has no column %s", name);
        return *column = c, BOIDS_OK;
    }
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) {
        if (strcmp(name, boids_attribute_info_of((boids_attribute)a)->name) != 0) continue;
        if (!(boids_model_attributes(info.model) & (1u << a)))
            return boids_fail_key(BOIDS_E_ARGUMENT, name, "model %s has no attribute %s",
                                  boids_model_name(info.model), name);
        return *column = BOIDS_COLUMN_ATTR + a, BOIDS_OK;
    }
    return boids_fail_key(BOIDS_E_ARGUMENT, name,
                          "no column %s (x, y, vx, vy, swarm, in a 3D world z and vz, or an "
                          "attribute of the model)",
                          name);
}

/* The whole state, in id order, in a new array (free it). */
static boids_status read_all(boids_world *w, boids_boid **out, uint32_t *count)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    *count = info.count;
    *out = malloc(sizeof **out * (info.count ? info.count : 1));
    if (!*out) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %u boids", info.count);
    boids_status st = boids_world_read(w, *out, info.count);
    if (st != BOIDS_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

/* The first i with v[i] inf or NaN, else n: a chunk at a time on the bits, with no branch inside
 * (it vectorizes), so the check costs a fraction of the read it guards. */
static uint32_t first_non_finite(const float *v, uint32_t n)
{
    enum { CHUNK = 4096 };
    for (uint32_t c = 0; c < n; c += CHUNK) {
        const uint32_t end = n - c < CHUNK ? n : c + CHUNK;
        uint32_t bad = 0;
        for (uint32_t i = c; i < end; ++i) {
            uint32_t bits;
            memcpy(&bits, &v[i], sizeof bits);
            bad |= (bits & 0x7f800000u) == 0x7f800000u; /* exponent all ones */
        }
        for (uint32_t i = c; bad && i < end; ++i)
            if (!isfinite(v[i])) return i;
    }
    return n;
}

boids_status boids_world_read_columns(boids_world *w, const char *const *names, void *const *out,
                                      size_t ncols)
{
    /* The backend fills one array per column (NULL: not wanted): x, y, vx, vy, swarm, then the
     * attributes; a column asked for twice is filled once and copied. */
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE((names && out) || ncols == 0, "names and out");
    void *columns[BOIDS_COLUMN_COUNT] = {0};
    int slot[64];
    if (ncols > 64) return boids_fail(BOIDS_E_ARGUMENT, "%zu columns (at most 64)", ncols);
    for (size_t c = 0; c < ncols; ++c) {
        BOIDS_REQUIRE(out[c], "out[c]");
        boids_status st = column_of(w, names[c], &slot[c]);
        if (st != BOIDS_OK) return st;
        if (!columns[slot[c]]) columns[slot[c]] = out[c];
    }
    const uint32_t n = w->sim.def.count;
    if (n == 0) return BOIDS_OK;
    boids_status st = w->ops->read_columns(w->impl, columns);
    if (st != BOIDS_OK) return st;
    /* As boids_world_read: the rules cannot make inf or NaN from a valid state; if one ever
     * does, say so rather than hand it on. */
    for (int c = BOIDS_COLUMN_X; c < BOIDS_COLUMN_ATTR; ++c) { /* the float columns */
        if (c == BOIDS_COLUMN_SWARM) continue;
        const uint32_t i = columns[c] ? first_non_finite(columns[c], n) : n;
        if (i < n)
            return boids_fail_boid(BOIDS_E_STATE_CORRUPT, i, "", "non-finite state after step %llu",
                                   (unsigned long long)w->sim.steps);
    }
    for (size_t c = 0; c < ncols; ++c)
        if (out[c] != columns[slot[c]]) memcpy(out[c], columns[slot[c]], sizeof(uint32_t) * n);
    return BOIDS_OK;
}

boids_status boids_world_write_columns(boids_world *w, const char *const *names,
                                       const void *const *in, size_t ncols)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE((names && in) || ncols == 0, "names and in");
    size_t offsets[64];
    if (ncols > 64) return boids_fail(BOIDS_E_ARGUMENT, "%zu columns (at most 64)", ncols);
    for (size_t c = 0; c < ncols; ++c) {
        BOIDS_REQUIRE(in[c], "in[c]");
        int column = 0;
        boids_status st = column_of(w, names[c], &column);
        if (st != BOIDS_OK) return st;
        offsets[c] = column_offset(column);
    }
    boids_boid *state;
    uint32_t n;
    boids_status st = read_all(w, &state, &n);
    if (st != BOIDS_OK) return st;
    for (size_t c = 0; c < ncols; ++c) {
        const unsigned char *src = in[c];
        for (uint32_t i = 0; i < n; ++i)
            memcpy((unsigned char *)&state[i] + offsets[c], src + 4 * (size_t)i, 4);
    }
    st = boids_world_write(w, state, n); /* validated: finite, in range, swarms, attributes */
    free(state);
    return st;
}

/* ---- parameters by name --------------------------------------------------------------------- */

boids_status boids_world_get_param(boids_world *w, const char *key, float *out)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(key, "key");
    BOIDS_REQUIRE(out, "out");
    boids_world_info info;
    boids_world_get_info(w, &info);
    const boids_param_info *p = boids_model_param(info.model, key);
    if (!p)
        return boids_fail_key(BOIDS_E_PARAM_UNKNOWN, key, "model %s has no parameter %s",
                              boids_model_name(info.model), key);
    *out = boids_param_get(&info.params, p);
    return BOIDS_OK;
}

boids_status boids_world_set_param(boids_world *w, const char *key, const char *value)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(key, "key");
    BOIDS_REQUIRE(value, "value");
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_status st = boids_params_set(info.model, &info.params, key, value);
    if (st == BOIDS_OK) st = boids_params_validate(info.model, &info.params);
    if (st == BOIDS_OK) st = boids_world_set_params(w, &info.params);
    return st;
}

size_t boids_world_info_size(void) { return sizeof(boids_world_info); }
