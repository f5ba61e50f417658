#define _POSIX_C_SOURCE 200809L
#include "core/state_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/attributes.h"
#include "base/error.h"
#include "base/output_file.h"
#include "base/parse.h"

#define MAX_FIELDS 64
#define MAX_LINE 65536

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
        while (end > start &&
               (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
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

/* A field as messages quote it: at most 40 characters, control bytes shown as '?', so a bad file
 * never sends raw bytes to the terminal. */
static const char *quoted(const char *field, char buf[48])
{
    size_t k = 0;
    for (; field[k] && k < 40; ++k)
        buf[k] = (unsigned char)field[k] < 32 || field[k] == 127 ? '?' : field[k];
    if (field[k]) buf[k - 3] = buf[k - 2] = buf[k - 1] = '.';
    buf[k] = '\0';
    return buf;
}

/* A CSV table whose header begins with `required` and whose rows all have the header's number of
 * fields: `header` sees the header's fields, `row` each row's fields and line, failing with its
 * own error. Lines end with LF or CRLF; a UTF-8 byte-order mark is skipped; a NUL byte, a
 * carriage return inside a line or a line over MAX_LINE bytes is an error naming the line. */
typedef boids_status (*header_fn)(void *ctx, char **fields, int nf, long line);
typedef boids_status (*row_fn)(void *ctx, char **fields, int nf, long line);

/* The next line of f into buf (MAX_LINE + 2 bytes), with its newline: its length, -1 at the end
 * of the file, -2 for a line over MAX_LINE bytes, -3 for a NUL byte. Reads no further than that,
 * so an endless line (/dev/zero, a stream without newlines) ends the read at once. */
static long read_line(FILE *f, char *buf)
{
    long n = 0;
    int c;
    while ((c = getc_unlocked(f)) != EOF) {
        if (c == '\0') return -3;
        if (n == MAX_LINE) return -2;
        buf[n++] = (char)c;
        if (c == '\n') break;
    }
    buf[n] = '\0';
    return n == 0 && c == EOF ? -1 : n;
}

static boids_status read_table(const char *path, const char *const *required, int nreq,
                               header_fn header, row_fn row, void *ctx)
{
    FILE *f = fopen(path, "r");
    if (!f) return boids_fail_file(BOIDS_E_FILE_OPEN, path, 0, "cannot open: %s", strerror(errno));
    char *line = malloc(MAX_LINE + 2), q[48];
    long len, lineno = 0;
    int header_fields = 0;
    boids_status st = line ? BOIDS_OK : boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", path);
    char *fields[MAX_FIELDS];
    while (st == BOIDS_OK && (len = read_line(f, line)) != -1) {
        ++lineno;
        if (len == -2) {
            st = boids_fail_file(BOIDS_E_CSV_ROW, path, lineno, "a line longer than %d bytes",
                                 MAX_LINE);
            break;
        }
        if (len == -3) {
            st = boids_fail_file(BOIDS_E_CSV_ROW, path, lineno, "a NUL byte: not a text file");
            break;
        }
        if (lineno == 1 && len >= 3 && (unsigned char)line[0] == 0xEF &&
            (unsigned char)line[1] == 0xBB && (unsigned char)line[2] == 0xBF)
            memmove(line, line + 3, (size_t)len - 2); /* a UTF-8 byte-order mark */
        char *cr = strchr(line, '\r');
        if (cr && cr[1] != '\n' && cr[1] != '\0') {
            st =
                boids_fail_file(BOIDS_E_CSV_ROW, path, lineno,
                                "a carriage return inside a line (lines must end with LF or CRLF)");
            break;
        }
        if (blank(line)) continue;
        int nf = split(line, fields);
        if (nf > MAX_FIELDS) {
            st = boids_fail_file(BOIDS_E_CSV_ROW, path, lineno, "more than %d columns", MAX_FIELDS);
            break;
        }
        if (!header_fields) {
            for (int c = 0; c < nreq && st == BOIDS_OK; ++c)
                if (c >= nf || strcmp(fields[c], required[c]) != 0) {
                    char want[128] = "";
                    for (int k = 0; k < nreq; ++k)
                        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
                                 k ? "," : "", required[k]);
                    st = boids_fail_file(BOIDS_E_CSV_HEADER, path, lineno,
                                         "header must begin %s (column %d is '%s')", want, c + 1,
                                         c < nf ? quoted(fields[c], q) : "");
                }
            if (st == BOIDS_OK && header) st = header(ctx, fields, nf, lineno);
            header_fields = nf;
            continue;
        }
        if (nf != header_fields) {
            st = boids_fail_file(BOIDS_E_CSV_ROW, path, lineno, "%d fields, the header has %d", nf,
                                 header_fields);
            break;
        }
        st = row(ctx, fields, nf, lineno);
    }
    if (st == BOIDS_OK && ferror(f)) st = boids_fail_file(BOIDS_E_FILE_READ, path, 0, "read error");
    if (st == BOIDS_OK && !header_fields)
        st = boids_fail_file(BOIDS_E_CSV_HEADER, path, lineno + 1, "no header line");
    free(line);
    fclose(f);
    return st;
}

static boids_status field_float(const char *path, long line, const char *name, const char *field,
                                float *out)
{
    char q[48];
    if (boids_parse_float(field, out)) return BOIDS_OK;
    return boids_fail_file(BOIDS_E_CSV_VALUE, path, line, "%s '%s' is not a finite number", name,
                           quoted(field, q));
}

static boids_status parse_id(const char *path, long line, const char *field, uint32_t *id)
{
    char q[48];
    if (boids_parse_u32(field, UINT32_MAX, id)) return BOIDS_OK;
    return boids_fail_file(BOIDS_E_CSV_VALUE, path, line, "id '%s' is not an unsigned integer",
                           quoted(field, q));
}

/* Rows kept in file order with their ids and lines, then put in id order: ids 0..N-1, each once. */
typedef struct id_rows {
    const char *path;
    size_t size, count, cap; /* entry size; rows read; capacity */
    unsigned char *data;
    uint32_t *ids;
    long *lines;
} id_rows;

static void *push_row(id_rows *t, uint32_t id, long line)
{
    if (t->count == BOIDS_MAX_BOIDS) {
        boids_fail_file(BOIDS_E_CSV_ROW, t->path, line, "more than %u rows", BOIDS_MAX_BOIDS);
        return NULL;
    }
    if (t->count == t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 1024;
        unsigned char *d = realloc(t->data, t->size * ncap);
        if (d) t->data = d;
        uint32_t *ids = realloc(t->ids, sizeof *ids * ncap);
        if (ids) t->ids = ids;
        long *lines = realloc(t->lines, sizeof *lines * ncap);
        if (lines) t->lines = lines;
        if (!d || !ids || !lines) {
            boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", t->path);
            return NULL;
        }
        t->cap = ncap;
    }
    t->ids[t->count] = id;
    t->lines[t->count] = line;
    return t->data + t->size * t->count++;
}

/* The rows in id order into a new array *out, the line of each id into a new array *lines. */
static boids_status order_rows(id_rows *t, void **out, long **lines)
{
    size_t n = t->count;
    unsigned char *o = malloc(t->size * (n ? n : 1));
    long *l = calloc(n ? n : 1, sizeof *l);
    boids_status st =
        o && l ? BOIDS_OK : boids_fail(BOIDS_E_NO_MEMORY, "%s: out of memory", t->path);
    for (size_t k = 0; st == BOIDS_OK && k < n; ++k) {
        uint32_t id = t->ids[k];
        if (id >= n)
            st = boids_fail_file(BOIDS_E_CSV_ID, t->path, t->lines[k],
                                 "id %u is not below the number of rows (%zu)", id, n);
        else if (l[id])
            st = boids_fail_file(BOIDS_E_CSV_ID, t->path, t->lines[k],
                                 "id %u already given on line %ld", id, l[id]);
        else {
            l[id] = t->lines[k];
            memcpy(o + t->size * id, t->data + t->size * k, t->size);
        }
    }
    free(t->data), free(t->ids), free(t->lines);
    if (st != BOIDS_OK) {
        free(o), free(l);
        return st;
    }
    *out = o;
    *lines = l;
    return BOIDS_OK;
}

/* The fixed columns a header begins with after id,x,y: a flat file's (`flat`, nflat of them) or,
 * where its fourth column is z, a 3D one's (`deep`); *three says which, *fixed how many. A z or vz
 * after them (id,x,y,vx,vy,vz: a 3D file in the wrong order) would be read as a flat file's, its
 * depth dropped: refused, naming the column. */
static boids_status fixed_columns(const char *path, char **fields, int nf, long line,
                                  const char *const *flat, int nflat, const char *const *deep,
                                  int ndeep, bool *three, int *fixed)
{
    char q[48], a[96] = "", b[96] = "";
    for (int c = 0; c < nflat; ++c)
        snprintf(a + strlen(a), sizeof a - strlen(a), "%s%s", c ? "," : "", flat[c]);
    for (int c = 0; c < ndeep; ++c)
        snprintf(b + strlen(b), sizeof b - strlen(b), "%s%s", c ? "," : "", deep[c]);
    *three = nf > 3 && strcmp(fields[3], "z") == 0;
    const char *const *want = *three ? deep : flat;
    *fixed = *three ? ndeep : nflat;
    for (int c = 3; c < *fixed; ++c)
        if (c >= nf || strcmp(fields[c], want[c]) != 0)
            return boids_fail_file(BOIDS_E_CSV_HEADER, path, line,
                                   "header must begin %s or %s (column %d is '%s')", a, b, c + 1,
                                   c < nf ? quoted(fields[c], q) : "missing");
    for (int c = *fixed; c < nf; ++c)
        if (strcmp(fields[c], "z") == 0 || strcmp(fields[c], "vz") == 0)
            return boids_fail_file(BOIDS_E_CSV_HEADER, path, line,
                                   "column '%s' (column %d) out of place: a 3D header begins %s",
                                   fields[c], c + 1, b);
    return BOIDS_OK;
}

/* ---- boids ---------------------------------------------------------------------------------- */

/* The fixed columns of a flat state and of a 3D one; the file's header begins with the first
 * three, and its fourth says which. */
static const char *const boid_columns[] = {"id", "x", "y", "vx", "vy", "swarm"};
static const char *const boid_columns_3d[] = {"id", "x", "y", "z", "vx", "vy", "vz", "swarm"};

typedef struct boid_table {
    id_rows rows;
    int attr_col[BOIDS_ATTR_COUNT];
    unsigned attributes;
    uint32_t max_swarm;
    bool three; /* the header's 3D columns */
} boid_table;

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

static boids_status boid_header(void *ctx, char **fields, int nf, long line)
{
    boid_table *t = ctx;
    char q[48];
    int fixed;
    boids_status st = fixed_columns(t->rows.path, fields, nf, line, boid_columns, 6,
                                    boid_columns_3d, 8, &t->three, &fixed);
    if (st != BOIDS_OK) return st;
    for (int c = 1; c < nf; ++c) /* a column twice: which one would count? */
        for (int d = 0; d < c; ++d)
            if (fields[c][0] && strcmp(fields[c], fields[d]) == 0)
                return boids_fail_file(BOIDS_E_CSV_HEADER, t->rows.path, line,
                                       "column '%s' twice (columns %d and %d)",
                                       quoted(fields[c], q), d + 1, c + 1);
    for (int c = fixed; c < nf; ++c)
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
            if (strcmp(fields[c], boids_attribute_info_of((boids_attribute)a)->name) == 0) {
                t->attr_col[a] = c;
                t->attributes |= 1u << a;
            }
    return BOIDS_OK;
}

static boids_status boid_row(void *ctx, char **fields, int nf, long line)
{
    boid_table *t = ctx;
    const char *path = t->rows.path;
    char q[48];
    (void)nf;
    boids_boid b;
    memset(&b, 0, sizeof b);
    uint32_t id;
    boids_status st = parse_id(path, line, fields[0], &id);
    float *flat[4] = {&b.x, &b.y, &b.vx, &b.vy}, *deep[6] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz};
    const char *const *names = t->three ? boid_columns_3d : boid_columns;
    const int nv = t->three ? 6 : 4;
    for (int c = 0; c < nv && st == BOIDS_OK; ++c)
        st = field_float(path, line, names[1 + c], fields[1 + c], t->three ? deep[c] : flat[c]);
    if (st == BOIDS_OK && !boids_parse_u32(fields[1 + nv], BOIDS_MAX_SWARMS - 1, &b.swarm))
        st = boids_fail_file(BOIDS_E_CSV_VALUE, path, line,
                             "swarm '%s' is not a whole number below %u", quoted(fields[1 + nv], q),
                             BOIDS_MAX_SWARMS);
    for (int a = 0; a < BOIDS_ATTR_COUNT && st == BOIDS_OK; ++a)
        if (t->attr_col[a] >= 0 && !parse_attribute(fields[t->attr_col[a]], (boids_attribute)a, &b))
            st = boids_fail_file(BOIDS_E_CSV_VALUE, path, line, "%s '%s' is not a %s",
                                 boids_attribute_info_of((boids_attribute)a)->name,
                                 quoted(fields[t->attr_col[a]], q),
                                 boids_attribute_info_of((boids_attribute)a)->is_uint
                                     ? "whole number"
                                     : "finite number");
    if (st != BOIDS_OK) return st;
    if (b.swarm > t->max_swarm) t->max_swarm = b.swarm;
    boids_boid *slot = push_row(&t->rows, id, line);
    if (!slot) return boids_last_error_info()->status;
    *slot = b;
    return BOIDS_OK;
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
    boid_table t;
    memset(&t, 0, sizeof t);
    t.rows.path = path;
    t.rows.size = sizeof(boids_boid);
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) t.attr_col[a] = -1;
    boids_status st = read_table(path, boid_columns, 3, boid_header, boid_row, &t);
    size_t n = t.rows.count;
    if (st != BOIDS_OK) {
        free(t.rows.data), free(t.rows.ids), free(t.rows.lines);
        return st;
    }
    void *boids;
    st = order_rows(&t.rows, &boids, &out->lines);
    if (st != BOIDS_OK) return st;
    out->boids = boids;
    out->count = (uint32_t)n;
    out->swarms = t.max_swarm + 1;
    out->attributes = t.attributes;
    out->three = t.three;
    return BOIDS_OK;
}

/* ---- predators ------------------------------------------------------------------------------ */

/* The fixed columns of a flat world's predators and of a 3D one's; the header begins with the
 * first three, and its fourth says which. */
static const char *const predator_columns[] = {"id", "x", "y", "vx", "vy"};
static const char *const predator_columns_3d[] = {"id", "x", "y", "z", "vx", "vy", "vz"};

typedef struct predator_table {
    id_rows rows;
    bool three; /* the header's 3D columns */
} predator_table;

static boids_status predator_header(void *ctx, char **fields, int nf, long line)
{
    predator_table *t = ctx;
    int fixed;
    return fixed_columns(t->rows.path, fields, nf, line, predator_columns, 5, predator_columns_3d,
                         7, &t->three, &fixed);
}

static boids_status predator_row(void *ctx, char **fields, int nf, long line)
{
    predator_table *t = ctx;
    (void)nf;
    boids_predator p = {0};
    uint32_t id;
    boids_status st = parse_id(t->rows.path, line, fields[0], &id);
    float *flat[4] = {&p.x, &p.y, &p.vx, &p.vy}, *deep[6] = {&p.x, &p.y, &p.z, &p.vx, &p.vy, &p.vz};
    const char *const *names = t->three ? predator_columns_3d : predator_columns;
    const int nv = t->three ? 6 : 4;
    for (int c = 0; c < nv && st == BOIDS_OK; ++c)
        st = field_float(t->rows.path, line, names[1 + c], fields[1 + c],
                         t->three ? deep[c] : flat[c]);
    if (st != BOIDS_OK) return st;
    boids_predator *slot = push_row(&t->rows, id, line);
    if (!slot) return boids_last_error_info()->status;
    *slot = p;
    return BOIDS_OK;
}

boids_status boids_predators_csv_read(const char *path, boids_csv_predators *out)
{
    memset(out, 0, sizeof *out);
    predator_table t;
    memset(&t, 0, sizeof t);
    t.rows.path = path;
    t.rows.size = sizeof(boids_predator);
    boids_status st = read_table(path, predator_columns, 3, predator_header, predator_row, &t);
    if (st != BOIDS_OK) {
        free(t.rows.data), free(t.rows.ids), free(t.rows.lines);
        return st;
    }
    size_t n = t.rows.count;
    void *p;
    st = order_rows(&t.rows, &p, &out->lines);
    if (st != BOIDS_OK) return st;
    out->predators = p;
    out->count = (uint32_t)n;
    out->three = t.three;
    return BOIDS_OK;
}

boids_status boids_csv_check_writable(const char *path) { return boids_output_check(path); }

boids_status boids_csv_write(const char *path, const boids_boid *b, uint32_t n, unsigned attributes,
                             bool three)
{
    boids_output_file o;
    boids_status st = boids_output_open(&o, path);
    if (st != BOIDS_OK) return st;
    fputs(three ? "id,x,y,z,vx,vy,vz,swarm" : "id,x,y,vx,vy,swarm", o.f);
    for (int a = 0; a < BOIDS_ATTR_COUNT; ++a)
        if (attributes & (1u << a))
            fprintf(o.f, ",%s", boids_attribute_info_of((boids_attribute)a)->name);
    fputc('\n', o.f);
    for (uint32_t i = 0; i < n && !ferror(o.f); ++i) {
        if (three)
            fprintf(o.f, "%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%u", i, (double)b[i].x, (double)b[i].y,
                    (double)b[i].z, (double)b[i].vx, (double)b[i].vy, (double)b[i].vz, b[i].swarm);
        else
            fprintf(o.f, "%u,%.9g,%.9g,%.9g,%.9g,%u", i, (double)b[i].x, (double)b[i].y,
                    (double)b[i].vx, (double)b[i].vy, b[i].swarm);
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) {
            if (!(attributes & (1u << a))) continue;
            if (boids_attribute_info_of((boids_attribute)a)->is_uint)
                fprintf(o.f, ",%u", boids_boid_attr_bits(&b[i], (boids_attribute)a));
            else
                fprintf(o.f, ",%.9g", boids_boid_attr_value(&b[i], (boids_attribute)a));
        }
        fputc('\n', o.f);
    }
    return boids_output_commit(&o);
}

boids_status boids_predators_csv_write(const char *path, const boids_predator *p, uint32_t n,
                                       bool three)
{
    boids_output_file o;
    boids_status st = boids_output_open(&o, path);
    if (st != BOIDS_OK) return st;
    fputs(three ? "id,x,y,z,vx,vy,vz\n" : "id,x,y,vx,vy\n", o.f);
    for (uint32_t i = 0; i < n && !ferror(o.f); ++i)
        if (three)
            fprintf(o.f, "%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", i, (double)p[i].x, (double)p[i].y,
                    (double)p[i].z, (double)p[i].vx, (double)p[i].vy, (double)p[i].vz);
        else
            fprintf(o.f, "%u,%.9g,%.9g,%.9g,%.9g\n", i, (double)p[i].x, (double)p[i].y,
                    (double)p[i].vx, (double)p[i].vy);
    return boids_output_commit(&o);
}
