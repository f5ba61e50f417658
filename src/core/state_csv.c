#define _POSIX_C_SOURCE 200809L
#include "core/state_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/parse.h"

static const char *const columns[] = {"id", "x", "y", "vx", "vy", "swarm"};
#define NCOLS 6
#define MAX_FIELDS 64

/* Splits line in place at commas, trimming blanks; returns the number of fields. */
static int split(char *line, char **fields)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t') ++p;
        char *start = p;
        while (*p && *p != ',') ++p;
        char *end = p;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
            --end;
        int more = *p == ',';
        *end = '\0';
        if (n < MAX_FIELDS) fields[n] = start;
        ++n;
        if (!more) break;
        ++p;
    }
    return n;
}

static int blank(const char *s)
{
    for (; *s; ++s)
        if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') return 0;
    return 1;
}

typedef struct row {
    uint32_t id;
    boids_boid b;
    long line;
} row;

boids_status boids_csv_read(const char *path, boids_boid **boids, uint32_t *count, uint32_t *swarms,
                            long **lines, bool *has_bias)
{
    int bias_col = -1;
    *has_bias = false;
    *boids = NULL;
    if (lines) *lines = NULL;
    *count = 0;
    *swarms = 1;
    FILE *f = fopen(path, "r");
    if (!f) return boids_fail(BOIDS_ERR_IO, "%s: cannot open: %s", path, strerror(errno));

    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int header_fields = 0;
    row *rows = NULL;
    size_t nrows = 0, rows_cap = 0;
    uint32_t max_swarm = 0;
    boids_status st = BOIDS_OK;
    char *fields[MAX_FIELDS];

    while (getline(&line, &cap, f) != -1) {
        ++lineno;
        if (blank(line)) continue;
        int nf = split(line, fields);
        if (!header_fields) {
            if (nf > MAX_FIELDS) {
                st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: more than %d columns", path, lineno, MAX_FIELDS);
                break;
            }
            for (int c = 0; c < NCOLS; ++c) {
                if (c >= nf || strcmp(fields[c], columns[c]) != 0) {
                    st = boids_fail(BOIDS_ERR_PARSE,
                                    "%s:%ld: header must begin id,x,y,vx,vy,swarm (column %d is '%s')",
                                    path, lineno, c + 1, c < nf ? fields[c] : "");
                    break;
                }
            }
            if (st != BOIDS_OK) break;
            for (int c = NCOLS; c < nf; ++c)
                if (strcmp(fields[c], "bias") == 0) bias_col = c;
            *has_bias = bias_col >= 0;
            header_fields = nf;
            continue;
        }
        if (nf != header_fields) {
            st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: %d fields, the header has %d", path, lineno, nf,
                            header_fields);
            break;
        }
        row r = {.line = lineno};
        float *vals[4] = {&r.b.x, &r.b.y, &r.b.vx, &r.b.vy};
        if (!boids_parse_u32(fields[0], UINT32_MAX, &r.id)) {
            st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: id '%s' is not an unsigned integer", path, lineno,
                            fields[0]);
            break;
        }
        for (int c = 0; c < 4 && st == BOIDS_OK; ++c)
            if (!boids_parse_float(fields[1 + c], vals[c]))
                st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: %s '%s' is not a finite number", path, lineno,
                                columns[1 + c], fields[1 + c]);
        if (st != BOIDS_OK) break;
        if (!boids_parse_u32(fields[5], BOIDS_MAX_SWARMS - 1, &r.b.swarm)) {
            st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: swarm '%s' is not a whole number below %u",
                            path, lineno, fields[5], BOIDS_MAX_SWARMS);
            break;
        }
        if (nrows == rows_cap) {
            size_t ncap = rows_cap ? rows_cap * 2 : 1024;
            row *nr = realloc(rows, sizeof *rows * ncap);
            if (!nr) {
                st = boids_fail(BOIDS_ERR_NO_MEMORY, "%s: out of memory", path);
                break;
            }
            rows = nr;
            rows_cap = ncap;
        }
        if (bias_col >= 0 && !boids_parse_float(fields[bias_col], &r.b.bias)) {
            st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: bias '%s' is not a finite number", path, lineno,
                            fields[bias_col]);
            break;
        }
        if (r.b.swarm > max_swarm) max_swarm = r.b.swarm;
        rows[nrows++] = r;
    }
    if (st == BOIDS_OK && ferror(f)) st = boids_fail(BOIDS_ERR_IO, "%s: read error", path);
    if (st == BOIDS_OK && !header_fields)
        st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: no header line id,x,y,vx,vy,swarm", path, lineno + 1);
    free(line);
    fclose(f);

    boids_boid *out = NULL;
    long *seen = NULL;
    if (st == BOIDS_OK && nrows > UINT32_MAX - 1)
        st = boids_fail(BOIDS_ERR_PARSE, "%s: too many rows", path);
    if (st == BOIDS_OK) {
        out = malloc(sizeof *out * (nrows ? nrows : 1));
        seen = calloc(nrows ? nrows : 1, sizeof *seen);
        if (!out || !seen) st = boids_fail(BOIDS_ERR_NO_MEMORY, "%s: out of memory", path);
    }
    for (size_t k = 0; st == BOIDS_OK && k < nrows; ++k) {
        const row *r = &rows[k];
        if (r->id >= nrows)
            st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: id %u is not below the number of boids (%zu)",
                            path, r->line, r->id, nrows);
        else if (seen[r->id])
            st = boids_fail(BOIDS_ERR_PARSE, "%s:%ld: id %u already given on line %ld", path, r->line,
                            r->id, seen[r->id]);
        else {
            seen[r->id] = r->line;
            out[r->id] = r->b;
        }
    }
    free(rows);
    if (st != BOIDS_OK) {
        free(out);
        free(seen);
        return st;
    }
    if (lines) *lines = seen; /* by now: the line of every id */
    else free(seen);
    *boids = out;
    *count = (uint32_t)nrows;
    *swarms = max_swarm + 1;
    return BOIDS_OK;
}

static void temp_name(const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "%s.tmp.%ld", path, (long)getpid());
}

boids_status boids_csv_check_writable(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return boids_fail(BOIDS_ERR_IO, "%s: is a directory, not a file", path);
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) return boids_fail(BOIDS_ERR_IO, "%s: cannot write here: %s", path, strerror(errno));
    fclose(f);
    remove(tmp);
    return BOIDS_OK;
}

boids_status boids_csv_write(const char *path, const boids_boid *b, uint32_t n, bool with_bias)
{
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) return boids_fail(BOIDS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    int ok = fprintf(f, with_bias ? "id,x,y,vx,vy,swarm,bias\n" : "id,x,y,vx,vy,swarm\n") > 0;
    for (uint32_t i = 0; ok && i < n; ++i) {
        ok = fprintf(f, "%u,%.9g,%.9g,%.9g,%.9g,%u", i, (double)b[i].x, (double)b[i].y, (double)b[i].vx,
                     (double)b[i].vy, b[i].swarm) > 0;
        if (ok && with_bias) ok = fprintf(f, ",%.9g", (double)b[i].bias) > 0;
        if (ok) ok = fputc('\n', f) != EOF;
    }
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int err = errno;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        remove(tmp);
        return boids_fail(BOIDS_ERR_IO, "%s: write failed: %s", path, strerror(err));
    }
    if (rename(tmp, path) != 0) {
        err = errno;
        remove(tmp);
        return boids_fail(BOIDS_ERR_IO, "%s: cannot rename the finished file into place: %s", path,
                          strerror(err));
    }
    return BOIDS_OK;
}
