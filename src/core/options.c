#include "core/options.h"

#include <string.h>

#include "base/parse.h"

static const boids_option table[BOIDS_OPTION_COUNT] = {
#define BOIDS_X_OPTION_ROW(ID, key, flag, alias, metavar, kind, lo, hi, dest, error_key, where,    \
                           help)                                                                   \
    {BOIDS_OPT_##ID, key,   flag, alias, metavar, BOIDS_OPTION_##kind, lo, hi,                     \
     error_key,      where, help},
    BOIDS_OPTIONS(BOIDS_X_OPTION_ROW, BOIDS_X_OPTION_ROW)
#undef BOIDS_X_OPTION_ROW
};

const boids_option *boids_options(size_t *count)
{
    *count = BOIDS_OPTION_COUNT;
    return table;
}

const boids_option *boids_option_of(boids_option_id id)
{
    return (unsigned)id < BOIDS_OPTION_COUNT ? &table[id] : NULL;
}

/* The flag part of an argument: "--set=a=b" -> "--set" (into buf). */
static const char *flag_part(const char *arg, char *buf, size_t size)
{
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    if (!eq) return arg;
    size_t n = (size_t)(eq - arg) < size - 1 ? (size_t)(eq - arg) : size - 1;
    memcpy(buf, arg, n);
    buf[n] = '\0';
    return buf;
}

const boids_option *boids_option_find(const char *arg)
{
    char buf[64];
    const char *flag = flag_part(arg, buf, sizeof buf);
    for (size_t i = 0; i < BOIDS_OPTION_COUNT; ++i)
        if (strcmp(table[i].flag, flag) == 0 ||
            (table[i].alias && strcmp(table[i].alias, flag) == 0))
            return &table[i];
    return NULL;
}

const boids_option *boids_option_of_key(const char *key)
{
    for (size_t i = 0; i < BOIDS_OPTION_COUNT; ++i)
        if (table[i].key && strcmp(table[i].key, key) == 0) return &table[i];
    return NULL;
}

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

const char *boids_option_guess(const char *arg)
{
    char buf[64];
    const char *flag = flag_part(arg, buf, sizeof buf), *best = NULL;
    size_t best_d = 3; /* two edits at most: further is no guess */
    for (size_t i = 0; i < BOIDS_OPTION_COUNT; ++i) {
        size_t d = boids_edit_distance(flag, table[i].flag);
        if (d < best_d) best_d = d, best = table[i].flag;
    }
    return best;
}

void boids_print_wrapped(FILE *out, const char *text, int col, int indent, int width)
{
    const char *p = text;
    while (*p) {
        const char *end = p;
        int room = width - col;
        if ((int)strlen(p) <= room)
            end = p + strlen(p);
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

void boids_options_print(FILE *out, unsigned command)
{
    enum { HELP_COLUMN = 37 };
    for (size_t i = 0; i < BOIDS_OPTION_COUNT; ++i) {
        const boids_option *o = &table[i];
        if (!(o->where & command)) continue;
        char head[96];
        int n = snprintf(head, sizeof head, "  %s%s%s%s%s", o->alias ? o->alias : "",
                         o->alias ? ", " : "", o->flag, o->metavar ? " " : "",
                         o->metavar ? o->metavar : "");
        fputs(head, out);
        if (n >= HELP_COLUMN - 1)
            fprintf(out, "\n%*s", HELP_COLUMN, "");
        else
            fprintf(out, "%*s", HELP_COLUMN - n, "");
        boids_print_wrapped(out, o->help, HELP_COLUMN, HELP_COLUMN, 100);
    }
}
