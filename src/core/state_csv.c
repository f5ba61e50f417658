#define _POSIX_C_SOURCE 200809L
#include "core/state_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/attributes.h"
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

/* Reads one attribute field into b; false if it is not a value of the attribute's type. */
static bool parse_attribute(const char *text, boids_attribute a, boids_boid *b)
{
    const boids_attribute_info *ai = boids_attribute_info_of(a);
    uint32_t bits;
    if (ai->is_uint) {
        if (!boids_parse_u32(text, UINT32_MAX, &bits)) return false;
    } else {
        float f;
        if (!boids_parse_float(text, &f)) return false;
        memcpy(&bits, &f, sizeof bits);
    }
    boids_boid_set_attr_bits(b, a, bits);
    return true;
}

void boids_csv_state_free(boids_csv_state *s)
{
    free(s->boids);
    free(s->lines);
    memset(s, 0, sizeof *s);
}

boids_status boids_csv_read(const char *path, boids_csv_state *out)
{
    memset(out, 0, sizeof *out);
    out->swarms = 1;
    int attr_col[BOIDS_ATTR_COUNT];
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) attr_col[a] = -1;
    FILE *f = fopen(path, "r");
    if (!f) return boids_fail_file(BOIDS_E_FILE_OPEN, path, 0, "cannot open: %s", strerror(errno));

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
                st = boids_fail_file(BOIDS_E_CSV_HEADER, path, lineno, "more than %d columns", MAX_FIELDS);
                break;
            }
            for (int c = 0; c < NCOLS; ++c) {
                if (c >= nf || strcmp(fields[c], columns[c]) != 0) {
                    st = boids_fail_file(BOIDS_E_CSV_HEADER, path, lineno,
                                         "header must begin id,x,y,vx,vy,swarm (column %d is '%s')", c + 1,
                                         c < nf ? fields[c] : "");
                    break;
                }
            }
            if (st != BOIDS_OK) break;
            for (int c = NCOLS; c < nf; ++c)
                for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
                    if (strcmp(fields[c], boids_attribute_info_of((boids_attribute)a)->name) == 0) {
                        attr_col[a] = c;
                        out->attributes |= 1u << a;
                    }
            header_fields = nf;
            continue;
        }
        if (nf != header_fields) {
            st = boids_fail_file(BOIDS_E_CSV_ROW, path, lineno, "%d fields, the header has %d", nf, header_fields);
            break;
        }
        row r;
        memset(&r, 0, sizeof r);
        r.line = lineno;
        float *vals[4] = {&r.b.x, &r.b.y, &r.b.vx, &r.b.vy};
        if (!boids_parse_u32(fields[0], UINT32_MAX, &r.id)) {
            st = boids_fail_file(BOIDS_E_CSV_VALUE, path, lineno, "id '%s' is not an unsigned integer", fields[0]);
            break;
        }
        for (int c = 0; c < 4 && st == BOIDS_OK; ++c)
            if (!boids_parse_float(fields[1 + c], vals[c]))
                st = boids_fail_file(BOIDS_E_CSV_VALUE, path, lineno, "%s '%s' is not a finite number",
                                     columns[1 + c], fields[1 + c]);
        if (st != BOIDS_OK) break;
        if (!boids_parse_u32(fields[5], BOIDS_MAX_SWARMS - 1, &r.b.swarm)) {
            st = boids_fail_file(BOIDS_E_CSV_VALUE, path, lineno, "swarm '%s' is not a whole number below %u",
                                 fields[5], BOIDS_MAX_SWARMS);
            break;
        }
        for (int a = 0; a < BOIDS_ATTR_COUNT && st == BOIDS_OK; ++a)
            if (attr_col[a] >= 0 && !parse_attribute(fields[attr_col[a]], (boids_attribute)a, &r.b))
                st = boids_fail_file(BOIDS_E_CSV_VALUE, path, lineno, "%s '%s' is not a %s",
                                     boids_attribute_info_of((boids_attribute)a)->name, fields[attr_col[a]],
                                     boids_attribute_info_of((boids_attribute)a)->is_uint ? "whole number" : "finite number");
        if (st != BOIDS_OK) break;
        if (nrows == rows_cap) {
            size_t ncap = rows_cap ? rows_cap * 2 : 1024;
            row *nr = realloc(rows, sizeof *rows * ncap);
            if (!nr) {
                st = boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", path);
                break;
            }
            rows = nr;
            rows_cap = ncap;
        }
        if (r.b.swarm > max_swarm) max_swarm = r.b.swarm;
        rows[nrows++] = r;
    }
    if (st == BOIDS_OK && ferror(f)) st = boids_fail_file(BOIDS_E_FILE_READ, path, 0, "read error");
    if (st == BOIDS_OK && !header_fields)
        st = boids_fail_file(BOIDS_E_CSV_HEADER, path, lineno + 1, "no header line id,x,y,vx,vy,swarm");
    free(line);
    fclose(f);

    boids_boid *boids = NULL;
    long *seen = NULL;
    if (st == BOIDS_OK && nrows > UINT32_MAX - 1) st = boids_fail_file(BOIDS_E_CSV_ROW, path, 0, "too many rows");
    if (st == BOIDS_OK) {
        boids = malloc(sizeof *boids * (nrows ? nrows : 1));
        seen = calloc(nrows ? nrows : 1, sizeof *seen);
        if (!boids || !seen) st = boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", path);
    }
    for (size_t k = 0; st == BOIDS_OK && k < nrows; ++k) {
        const row *r = &rows[k];
        if (r->id >= nrows)
            st = boids_fail_file(BOIDS_E_CSV_ID, path, r->line, "id %u is not below the number of boids (%zu)",
                                 r->id, nrows);
        else if (seen[r->id])
            st = boids_fail_file(BOIDS_E_CSV_ID, path, r->line, "id %u already given on line %ld", r->id,
                                 seen[r->id]);
        else {
            seen[r->id] = r->line;
            boids[r->id] = r->b;
        }
    }
    free(rows);
    if (st != BOIDS_OK) {
        free(boids);
        free(seen);
        out->attributes = 0;
        return st;
    }
    out->boids = boids;
    out->lines = seen; /* by now: the line of every id */
    out->count = (uint32_t)nrows;
    out->swarms = max_swarm + 1;
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
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "is a directory, not a file");
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write here: %s", strerror(errno));
    fclose(f);
    remove(tmp);
    return BOIDS_OK;
}

boids_status boids_csv_write(const char *path, const boids_boid *b, uint32_t n, unsigned attributes)
{
    char tmp[4096];
    temp_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write: %s", strerror(errno));
    int ok = fputs("id,x,y,vx,vy,swarm", f) >= 0;
    for (int a = 0; ok && a < BOIDS_ATTR_COUNT; ++a)
        if (attributes & (1u << a)) ok = fprintf(f, ",%s", boids_attribute_info_of((boids_attribute)a)->name) > 0;
    ok = ok && fputc('\n', f) != EOF;
    for (uint32_t i = 0; ok && i < n; ++i) {
        ok = fprintf(f, "%u,%.9g,%.9g,%.9g,%.9g,%u", i, (double)b[i].x, (double)b[i].y, (double)b[i].vx,
                     (double)b[i].vy, b[i].swarm) > 0;
        for (int a = 0; ok && a < BOIDS_ATTR_COUNT; ++a) {
            if (!(attributes & (1u << a))) continue;
            if (boids_attribute_info_of((boids_attribute)a)->is_uint)
                ok = fprintf(f, ",%u", boids_boid_attr_bits(&b[i], (boids_attribute)a)) > 0;
            else
                ok = fprintf(f, ",%.9g", boids_boid_attr_value(&b[i], (boids_attribute)a)) > 0;
        }
        if (ok) ok = fputc('\n', f) != EOF;
    }
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int err = errno;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        remove(tmp);
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "write failed: %s", strerror(err));
    }
    if (rename(tmp, path) != 0) {
        err = errno;
        remove(tmp);
        return boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot rename the finished file into place: %s",
                               strerror(err));
    }
    return BOIDS_OK;
}
