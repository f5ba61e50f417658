#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
    boids_status status;
    const char *text;
    const char *name;
} errors[BOIDS_E_COUNT] = {
#define BOIDS_X_ERROR_ROW(id, status, text) [BOIDS_E_##id] = {status, text, #id},
    BOIDS_ERROR_LIST(BOIDS_X_ERROR_ROW)
#undef BOIDS_X_ERROR_ROW
};

/* The thread's last error: the record and the text it points into. */
static _Thread_local struct {
    boids_error info;
    bool boid_prefix; /* the message starts "boid N: " */
    char key[128], related[256], path[1024], detail[1024], message[2400];
} last;

const char *boids_status_text(boids_status status)
{
    switch (status) {
#define BOIDS_X_CASE(code, text)                                                                   \
    case code: return text;
        BOIDS_STATUS_LIST(BOIDS_X_CASE)
#undef BOIDS_X_CASE
    }
    return "unknown status";
}

const char *boids_error_text(boids_error_id id)
{
    return (unsigned)id < BOIDS_E_COUNT ? errors[id].text : "unknown error";
}

const char *boids_error_name(boids_error_id id)
{
    return (unsigned)id < BOIDS_E_COUNT ? errors[id].name : "UNKNOWN";
}

const char *boids_last_error(void) { return last.message; }

const boids_error *boids_last_error_info(void)
{
    last.info.key = last.key;
    last.info.related = last.related;
    last.info.path = last.path;
    last.info.detail = last.detail;
    last.info.message = last.message;
    return &last.info;
}

void boids_clear_error(void)
{
    memset(&last.info, 0, sizeof last.info);
    last.info.index = -1;
    last.key[0] = last.related[0] = last.path[0] = last.detail[0] = last.message[0] = '\0';
}

/* Composes the message from the parts recorded: "PATH:LINE: ", "PATH: " or "boid N: " in front,
 * then "KEY: " if there is a key, then the detail. */
static void compose(void)
{
    char where[1100] = "";
    if (last.path[0] && last.info.line > 0)
        snprintf(where, sizeof where, "%s:%ld: ", last.path, last.info.line);
    else if (last.path[0])
        snprintf(where, sizeof where, "%s: ", last.path);
    else if (last.info.index >= 0 && last.boid_prefix)
        snprintf(where, sizeof where, "boid %lld: ", last.info.index);
    snprintf(last.message, sizeof last.message, "%s%s%s%s", where, last.key,
             last.key[0] ? ": " : "", last.detail);
}

/* Copies text into out with every control character (C0 and DEL) written as \xNN: an error's
 * key, path and detail come from the user (--set, file names, API values), and an ESC or BEL
 * echoed raw would act on the terminal. */
static void copy_printable(char *out, size_t size, const char *text)
{
    size_t o = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && o + 5 < size; ++c) {
        if (*c < 0x20 || *c == 0x7f)
            o += (size_t)snprintf(out + o, size - o, "\\x%02x", *c);
        else
            out[o++] = (char)*c;
    }
    out[o] = '\0';
}

static boids_status record(boids_error_id id, const char *key, const char *path, long line,
                           long long index, bool boid_prefix, const char *fmt, va_list ap)
{
    char detail[sizeof last.detail];
    vsnprintf(detail, sizeof detail, fmt, ap); /* the arguments may point into `last` */
    char given[sizeof last.path];              /* key and path may point into `last` too */
    snprintf(given, sizeof given, "%s", key ? key : "");
    copy_printable(last.key, sizeof last.key, given);
    last.related[0] = '\0';
    snprintf(given, sizeof given, "%s", path ? path : "");
    copy_printable(last.path, sizeof last.path, given);
    copy_printable(last.detail, sizeof last.detail, detail);
    if ((unsigned)id >= BOIDS_E_COUNT) id = BOIDS_E_INTERNAL;
    last.info.id = id;
    last.info.status = errors[id].status;
    last.info.line = line;
    last.info.index = index;
    last.boid_prefix = boid_prefix;
    compose();
    return last.info.status;
}

boids_status boids_fail(boids_error_id id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    boids_status st = record(id, NULL, NULL, 0, -1, false, fmt, ap);
    va_end(ap);
    return st;
}

boids_status boids_fail_null(const char *what)
{
    return boids_fail_key(BOIDS_E_ARGUMENT, what, "must not be NULL");
}

boids_status boids_fail_key(boids_error_id id, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    boids_status st = record(id, key, NULL, 0, -1, false, fmt, ap);
    va_end(ap);
    return st;
}

boids_status boids_fail_keys(boids_error_id id, const char *key, const char *related,
                             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    boids_status st = record(id, key, NULL, 0, -1, false, fmt, ap);
    va_end(ap);
    snprintf(last.related, sizeof last.related, "%s", related);
    return st;
}

boids_status boids_fail_boid(boids_error_id id, size_t boid, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    boids_status st = record(id, key, NULL, 0, (long long)boid, true, fmt, ap);
    va_end(ap);
    return st;
}

boids_status boids_fail_index(boids_error_id id, size_t index, const char *key, const char *fmt,
                              ...)
{
    va_list ap;
    va_start(ap, fmt);
    boids_status st = record(id, key, NULL, 0, (long long)index, false, fmt, ap);
    va_end(ap);
    return st;
}

boids_status boids_fail_file(boids_error_id id, const char *path, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    boids_status st = record(id, NULL, path, line, -1, false, fmt, ap);
    va_end(ap);
    return st;
}

boids_status boids_error_in_file(const char *path, long line, boids_status status)
{
    snprintf(last.path, sizeof last.path, "%s", path);
    last.info.line = line;
    if (status != BOIDS_OK) last.info.status = status;
    compose();
    return last.info.status;
}
