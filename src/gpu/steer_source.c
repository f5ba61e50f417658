#include "gpu/steer_source.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/read_file.h"
#include "gl/shader_sources.h"
#include "gpu/steer_head.h"

/* A text that grows, and the files that went into it (their source-string numbers). */
typedef struct source {
    char *text;
    size_t len, cap;
    char files[32][512];
    int file_count;
    bool failed;
} source;

static void put(source *s, const char *fmt, ...) BOIDS_PRINTF(2, 3);
static void put(source *s, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n >= 0 && s->len + (size_t)n + 1 > s->cap) {
        size_t cap = (s->len + (size_t)n + 1) * 2;
        char *t = realloc(s->text, cap);
        if (!t)
            s->failed = true;
        else
            s->text = t, s->cap = cap;
    }
    if (n >= 0 && !s->failed)
        s->len += (size_t)vsnprintf(s->text + s->len, s->cap - s->len, fmt, again);
    va_end(again);
}

static boids_status expand(source *s, const char *name, const char *text, int depth);

/* The file an #include "inc" in file `from` names: a folder's file (a path) looks beside itself
 * on disk first; then the embedded texts, beside `from`'s name and by the name as given. */
static boids_status include(source *s, const char *from, const char *inc, int line, int depth)
{
    char path[1024];
    const char *slash = strrchr(from, '/');
    const int dir = slash ? (int)(slash - from) : 0;
    if (from[0] == '/' || inc[0] == '/') {
        if (inc[0] == '/')
            snprintf(path, sizeof path, "%s", inc);
        else
            snprintf(path, sizeof path, "%.*s/%s", dir, from, inc);
        char *text = boids_read_file(path, NULL);
        if (text) {
            boids_status st = expand(s, path, text, depth + 1);
            free(text);
            return st;
        }
    }
    const boids_shader_source *e = NULL;
    if (slash && from[0] != '/') {
        snprintf(path, sizeof path, "%.*s/%s", dir, from, inc);
        e = boids_shader_include(path);
    }
    if (!e) e = boids_shader_include(inc);
    if (e) return expand(s, e->name, e->text, depth + 1);
    return boids_fail_file(BOIDS_E_MODEL_COMPILE, from, line,
                           "#include \"%s\": no such file beside it nor in the library's", inc);
}

/* Appends text (the file `name`) with its #include lines replaced by what they name, each
 * followed by a #line back to the including file; `#include <...>` (C only) is dropped. The
 * lines are numbered from num * BOIDS_SHADER_LINE_SPAN: a driver that reports every error in
 * source string 0 (Mesa's does) still tells the file (gl/program.c reads it back). */
static boids_status expand(source *s, const char *name, const char *text, int depth)
{
    if (depth > 16 || s->file_count == 32)
        return boids_fail_file(BOIDS_E_MODEL_COMPILE, name, 0, "includes nested too deeply");
    const int num = s->file_count++;
    snprintf(s->files[num], sizeof s->files[num], "%s", name);
    put(s, "#line %d %d\n", num * BOIDS_SHADER_LINE_SPAN + 1, num);
    int line = 1;
    for (const char *p = text; *p; ++line) {
        const char *end = strchr(p, '\n');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        char inc[256];
        const char *q = p;
        while (q < p + n && (*q == ' ' || *q == '\t')) ++q;
        if (n < sizeof inc + 16 && sscanf(q, "#include \"%255[^\"]\"", inc) == 1) {
            boids_status st = include(s, name, inc, line, depth);
            if (st != BOIDS_OK) return st;
            put(s, "#line %d %d\n", num * BOIDS_SHADER_LINE_SPAN + line + 1, num);
        } else if (strncmp(q, "#include <", 10) == 0) {
            put(s, "\n");
        } else {
            put(s, "%.*s\n", (int)n, p);
        }
        p = end ? end + 1 : p + n;
    }
    return s->failed ? boids_fail(BOIDS_E_NO_MEMORY, "no memory for a steering program") : BOIDS_OK;
}

/* The folder's blocks in GLSL, each padded to whole vec4s as in C (std140), and the fields that
 * take the place of boids_params' `loaded` area (BOIDS_LOADED_FIELDS, boids_generated.glsl). */
static void blocks_glsl(source *s, const boids_loaded_block *blocks, size_t block_count,
                        const boids_param_row *params, size_t param_count)
{
    size_t used = 0;
    put(s, "// Generated when the model was loaded (src/gpu/steer_source.c): its blocks.\n");
    for (size_t b = 0; b < block_count; ++b) {
        put(s, "struct boids_%s_params {\n", blocks[b].field);
        size_t n = 0;
        for (size_t i = 0; i < param_count; ++i) {
            if (params[i].block != blocks[b].id) continue;
            const char *f = strrchr(params[i].name, '.');
            put(s, "    %s %s;\n", (params[i].flags & BOIDS_PARAM_COUNT) ? "uint" : "float",
                f ? f + 1 : params[i].name);
            ++n;
        }
        for (int pad = 0; n % 4 != 0; ++pad, ++n) put(s, "    float _pad%d;\n", pad);
        put(s, "};\n");
        used += n;
    }
    put(s, "#define BOIDS_LOADED_FIELDS");
    for (size_t b = 0; b < block_count; ++b)
        put(s, " boids_%s_params %s;", blocks[b].field, blocks[b].field);
    if (used < BOIDS_PARAMS_LOADED_FLOATS)
        put(s, " vec4 _loaded_rest[%zu];", (BOIDS_PARAMS_LOADED_FLOATS - used) / 4);
    put(s, "\n");
}

boids_status boids_steer_source_add(boids_model model, const boids_manifest_row *row,
                                    const boids_loaded_block *blocks, size_t block_count,
                                    const boids_param_row *params, size_t param_count,
                                    const char *folder)
{
    source s = {0};
    blocks_glsl(&s, blocks, block_count, params, param_count);
    char *prelude = s.text;
    char rules[1024], head[4096];
    snprintf(rules, sizeof rules, "%s/rules.h", folder);
    const int n =
        boids_steer_head(head, sizeof head, prelude ? prelude : "", row->name, row->summary,
                         (unsigned)model, row->attributes, row->features, row->rules, rules);
    s = (source){0};
    boids_status st =
        n > 0 && (size_t)n < sizeof head
            ? BOIDS_OK
            : boids_fail(BOIDS_E_NO_MEMORY, "%s: steering program head too long", folder);
    char name[160];
    snprintf(name, sizeof name, "steer_%s.comp", row->name);
    /* #version first, then the rest as one file of its own (number 0) */
    const char *after = strchr(head, '\n');
    if (st == BOIDS_OK) {
        put(&s, "%.*s\n", (int)(after - head), head);
        st = expand(&s, name, after + 1, 0);
    }
    free(prelude);
    if (st == BOIDS_OK) {
        char legend[4096] = BOIDS_SHADER_LINE_LEGEND;
        for (int i = 0; i < s.file_count; ++i) {
            size_t used = strlen(legend);
            snprintf(legend + used, sizeof legend - used, "%s%d = %s", i ? "; " : " ", i,
                     s.files[i]);
        }
        st = boids_shader_add(name, legend, s.text);
    }
    free(s.text);
    return st;
}
