/* The program's options (app/cli/options.h): the table, looking a flag up, --help's lines. */
#include "app/cli/options.h"

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

/* A world setting's row here, by its id. */
static const boids_option_id of_setting[BOIDS_SETTING_COUNT] = {
#define BOIDS_X_SETTING_OPTION(ID, ...) [BOIDS_SET_##ID] = BOIDS_OPT_##ID,
    BOIDS_WORLD_SETTINGS(BOIDS_X_SETTING_OPTION)
#undef BOIDS_X_SETTING_OPTION
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

const boids_option *boids_option_of_setting(boids_setting_id id)
{
    return (unsigned)id < BOIDS_SETTING_COUNT ? &table[of_setting[id]] : NULL;
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

const char *boids_option_guess(const char *arg)
{
    char buf[64];
    boids_guess g = BOIDS_GUESS(flag_part(arg, buf, sizeof buf));
    if (strlen(g.key) < 3) return NULL; /* '--', '-': no name to be near ('--' was "--dt") */
    for (size_t i = 0; i < BOIDS_OPTION_COUNT; ++i) boids_guess_offer(&g, table[i].flag);
    return g.best;
}

const boids_option *boids_option_glued(const char *arg, const char **value)
{
    for (size_t i = 0; i < BOIDS_OPTION_COUNT; ++i) {
        const char *alias = table[i].alias;
        const size_t n = alias ? strlen(alias) : 0;
        if (!n || !table[i].metavar || strncmp(arg, alias, n) != 0) continue;
        *value = arg + n + (arg[n] == '=');
        if (**value) return &table[i];
    }
    return NULL;
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
