/* The world's settings (core/options.h): the table, a key's row, a row's value. */
#include "core/options.h"

#include <string.h>

#include "base/parse.h"

static const boids_option table[BOIDS_SETTING_COUNT] = {
#define BOIDS_X_SETTING_ROW(ID, key, flag, alias, metavar, kind, lo, hi, dest, error_key, where,   \
                            help)                                                                  \
    {BOIDS_SET_##ID, key,   flag, alias, metavar, BOIDS_OPTION_##kind, lo, hi,                     \
     error_key,      where, help},
    BOIDS_WORLD_SETTINGS(BOIDS_X_SETTING_ROW)
#undef BOIDS_X_SETTING_ROW
};

const boids_option *boids_setting_of_key(const char *key)
{
    for (size_t i = 0; i < BOIDS_SETTING_COUNT; ++i)
        if (strcmp(table[i].key, key) == 0) return &table[i];
    return NULL;
}

const boids_option *boids_setting_at(size_t i) { return &table[i]; }

bool boids_option_value(const boids_option *o, const char *text, void *dest, char *what,
                        size_t size)
{
    switch (o->kind) {
    case BOIDS_OPTION_U32: {
        uint32_t u;
        if (boids_parse_u32(text, (uint32_t)o->hi, &u) && u >= o->lo)
            return memcpy(dest, &u, sizeof u), true;
        if (o->lo == 0 && o->hi == UINT32_MAX)
            snprintf(what, size, "a whole number below 2^32");
        else if (o->hi == UINT32_MAX)
            snprintf(what, size, "a whole number >= %.0f", o->lo);
        else
            snprintf(what, size, "a whole number in [%.0f, %.0f]", o->lo, o->hi);
        return false;
    }
    case BOIDS_OPTION_U64: {
        uint64_t u;
        if (boids_parse_u64(text, &u)) return memcpy(dest, &u, sizeof u), true;
        snprintf(what, size, "a whole number below 2^64");
        return false;
    }
    case BOIDS_OPTION_FLOAT: {
        float f;
        if (boids_parse_float(text, &f) && (o->lo == 0 ? f > 0.0f : f >= o->lo) && f <= o->hi)
            return memcpy(dest, &f, sizeof f), true;
        if (o->lo == 0 && o->hi == FLT_MAX)
            snprintf(what, size, "a positive number");
        else if (o->lo == 0)
            snprintf(what, size, "a number in (0, %g]", o->hi);
        else
            snprintf(what, size, "a number in [%g, %g]", o->lo, o->hi);
        return false;
    }
    default: snprintf(what, size, "a value of its own kind"); return false;
    }
}
