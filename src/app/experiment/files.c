/* An experiment's directory: the lock, the manifest (a scenario file of the world with the
 * experiment's own keys, read back by the scenario reader), the three tables checked row by row,
 * resume and merge (see experiment.h for what holds). */
#define _DEFAULT_SOURCE /* flock */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "app/cli/cli.h"
#include "app/experiment/files.h"
#include "app/experiment/plots.h"
#include "app/metrics_log.h"
#include "base/clock.h"
#include "base/digest.h"
#include "base/error.h"
#include "base/interrupt.h"
#include "base/output_file.h"
#include "base/parse.h"
#include "core/models.h"
#include "core/scenario.h"

/* DIR/NAME in buf; a path too long for it is cut to "" (no file has that name) rather than to a
 * shorter name that might be another file. */
static void path_in(char *buf, size_t size, const char *dir, const char *name)
{
    if (snprintf(buf, size, "%s/%s", dir, name) >= (int)size) buf[0] = '\0';
}

/* Removes the temporary files a killed process left in DIR (the lock is ours: no live writer). */
static void remove_stale_temps(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL)
        if (strncmp(ent->d_name, BOIDS_TEMP_PREFIX, strlen(BOIDS_TEMP_PREFIX)) == 0) {
            char path[4200];
            path_in(path, sizeof path, dir, ent->d_name);
            unlink(path);
        }
    closedir(d);
}

boids_status boids_exp_dir_new(const char *dir, bool create)
{
    struct stat sb;
    char manifest[4200];
    path_in(manifest, sizeof manifest, dir, "manifest.ini");
    if (stat(dir, &sb) != 0) {
        if (create && mkdir(dir, 0777) != 0)
            return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0, "cannot create it: %s",
                                   strerror(errno));
        return BOIDS_OK;
    }
    if (!S_ISDIR(sb.st_mode))
        return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0, "is not a directory");
    if (stat(manifest, &sb) == 0)
        return boids_fail_file(
            BOIDS_E_FILE_WRITE, dir, 0,
            "holds an experiment already (manifest.ini): `boids experiment --resume %s` finishes "
            "it; a new one needs another directory",
            dir);
    DIR *d = opendir(dir);
    if (!d)
        return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0, "cannot read it: %s", strerror(errno));
    struct dirent *ent;
    const char *other = NULL;
    /* its lock may stay from a refused start, and a temporary file from a process killed as it
     * wrote the manifest (removed once the lock is taken; a live writer's holds the lock) */
    while ((ent = readdir(d)) != NULL)
        if (strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0 &&
            strcmp(ent->d_name, ".lock") != 0 &&
            strncmp(ent->d_name, BOIDS_TEMP_PREFIX, strlen(BOIDS_TEMP_PREFIX)) != 0) {
            other = ent->d_name;
            break;
        }
    boids_status st =
        other ? boids_fail_file(
                    BOIDS_E_FILE_WRITE, dir, 0,
                    "is not empty (it holds %s): an experiment needs a directory of its own", other)
              : BOIDS_OK;
    closedir(d);
    return st;
}

/* ---- the manifest -------------------------------------------------------------------------- */

/* The manifest's text; `bare`: without the lines that may differ between the shards of one
 * experiment (shard, command, renderer), for comparing them. */
static void manifest_text(FILE *f, const boids_experiment *e, bool bare)
{
    if (!bare) {
        fprintf(f, "; An experiment of boids (boids experiment --help). `boids experiment --resume "
                   "DIR` reads this\n"
                   "; file to finish the runs; the world below, with the seed and the sweeps, "
                   "reproduces them.\n");
        fprintf(f, "command = %s\n", e->command);
        fprintf(f, "renderer = %s\n", e->renderer);
        fprintf(f, "shard = %u/%u\n", e->shard, e->shards);
    }
    fprintf(f, "version = %s\n", e->version);
    fprintf(f, "backend = %s\n", e->def.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu");
    fprintf(f, "runs = %u\n", e->runs);
    fprintf(f, "seed = %llu\n", (unsigned long long)e->seed);
    fprintf(f, "steps = %u\n", e->steps);
    fprintf(f, "metrics_every = %u\n", e->metrics_every);
    if (e->field) { /* (no line without --field: the manifests written before it read the same) */
        char r[32], from[32];
        static const char *const flocks[] = {"", ",swarm", ",group"};
        fprintf(f, "field = %s,%u,%u%s", boids_float_text(e->field_options.r_max, r),
                e->field_options.bins, e->field_options.ranks,
                flocks[e->field_options.flock <= 2 ? e->field_options.flock : 0]);
        if (e->field_options.xi_from > 0)
            fprintf(f, ",from:%s", boids_float_text(e->field_options.xi_from, from));
        fputc('\n', f);
    }
    for (int k = 0; k < e->nsweeps; ++k) {
        fprintf(f, "sweep = %s=", e->sweeps[k].key);
        for (uint32_t i = 0; i < e->sweeps[k].count; ++i)
            fprintf(f, "%s%s", i ? "," : "", e->sweeps[k].values[i]);
        fputc('\n', f);
    }
    /* with a world setting swept, what was given of the world: a combination's world is the
     * command line's with the swept keys set (a model's own world follows a swept count) */
    /* a loaded model's folder, where this one ran (shards on other machines differ: the bare
     * manifest leaves it out, and keeps its files' digest) */
    if (!bare && boids_model_folder(e->def.model))
        fprintf(f, "model_dir = %s\n", boids_model_folder(e->def.model));
    if (boids_experiment_sweeps_settings(e))
        boids_scenario_write_given(f, &e->def, e->world_given, e->dims);
    else
        boids_scenario_write_given(f, &e->def, true, 0);
}

static char *bare_manifest(const boids_experiment *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    manifest_text(f, e, true);
    fclose(f);
    return buf;
}

/* The fingerprint of what the runs depend on (the bare manifest: the world, the plan, the
 * sweeps), FNV-1a over its text, as 16 hex digits; "" where memory ran out. A resume compares it
 * with the one the manifest holds, so a manifest edited since (max_speed, metrics_every) is
 * refused rather than mixing runs of two experiments in one table. */
static void fingerprint_of(const boids_experiment *e, char out[24])
{
    char *text = bare_manifest(e);
    out[0] = '\0';
    if (!text) return;
    const uint64_t h = boids_digest(BOIDS_DIGEST_START, text, strlen(text));
    free(text);
    snprintf(out, 24, "%016llx", (unsigned long long)h);
}

boids_status boids_exp_manifest_write(const char *dir, const boids_experiment *e)
{
    char path[4200];
    path_in(path, sizeof path, dir, "manifest.ini");
    boids_output_file o;
    boids_status st = boids_output_open(&o, path);
    if (st != BOIDS_OK) return st;
    manifest_text(o.f, e, false);
    char fp[24];
    fingerprint_of(e, fp);
    fprintf(o.f,
            "; what the runs depend on, as a digest: an edit above fails a resume\n"
            "fingerprint = %s\n",
            fp);
    return boids_output_commit(&o);
}

typedef struct manifest_ctx {
    boids_experiment *e;
    char sweep_text[BOIDS_EXP_MAX_SWEEPS]
                   [BOIDS_EXP_MAX_VALUES * 32 + 128]; /* every value, as written */
    int nsweeps;
    bool has_runs, has_version, has_backend;
} manifest_ctx;

static bool manifest_owns(void *ctx, const char *key)
{
    (void)ctx;
    static const char *const keys[] = {"command", "renderer",   "shard",         "version",
                                       "backend", "runs",       "metrics_every", "field",
                                       "sweep",   "fingerprint"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        if (strcmp(key, keys[i]) == 0) return true;
    return false;
}

static boids_status manifest_set(void *ctx, const char *key, const char *value)
{
    manifest_ctx *m = ctx;
    boids_experiment *e = m->e;
    if (!strcmp(key, "command"))
        snprintf(e->command, sizeof e->command, "%s", value);
    else if (!strcmp(key, "fingerprint"))
        snprintf(e->fingerprint, sizeof e->fingerprint, "%s", value);
    else if (!strcmp(key, "renderer"))
        snprintf(e->renderer, sizeof e->renderer, "%s", value);
    else if (!strcmp(key, "version"))
        snprintf(e->version, sizeof e->version, "%s", value), m->has_version = true;
    else if (!strcmp(key, "backend")) {
        if (!strcmp(value, "gpu"))
            e->def.backend = BOIDS_BACKEND_GPU;
        else if (!strcmp(value, "cpu"))
            e->def.backend = BOIDS_BACKEND_CPU;
        else
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not gpu or cpu", value);
        m->has_backend = true;
    } else if (!strcmp(key, "runs")) {
        if (!boids_parse_u32(value, BOIDS_EXP_MAX_RUNS, &e->runs) || e->runs == 0)
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key,
                                  "'%s' is not a whole number in [1, 10^7]", value);
        m->has_runs = true;
    } else if (!strcmp(key, "metrics_every")) {
        if (!boids_parse_u32(value, UINT32_MAX, &e->metrics_every))
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not a whole number", value);
    } else if (!strcmp(key, "field")) {
        if (!boids_cli_field_parse(value, &e->field_options))
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key,
                                  "'%s' is not R,BINS,RANKS[,FLOCK] (--field's option)", value);
        e->field = true;
    } else if (!strcmp(key, "shard")) {
        const char *slash = strchr(value, '/');
        char a[32] = "";
        if (slash && (size_t)(slash - value) < sizeof a)
            snprintf(a, sizeof a, "%.*s", (int)(slash - value), value);
        if (!slash || !boids_parse_u32(a, 1000000, &e->shard) ||
            !boids_parse_u32(slash + 1, 1000000, &e->shards) || e->shard < 1 ||
            e->shard > e->shards)
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not I/K with 1 <= I <= K",
                                  value);
    } else if (!strcmp(key, "sweep")) {
        if (m->nsweeps == BOIDS_EXP_MAX_SWEEPS || strlen(value) >= sizeof m->sweep_text[0])
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "too many sweeps, or one too long");
        snprintf(m->sweep_text[m->nsweeps++], sizeof m->sweep_text[0], "%s", value);
    }
    return BOIDS_OK;
}

boids_status boids_exp_manifest_parse(const char *dir, boids_experiment *e)
{
    char path[4200];
    path_in(path, sizeof path, dir, "manifest.ini");
    static boids_scenario sc;
    static manifest_ctx m;
    memset(&m, 0, sizeof m);
    memset(e, 0, sizeof *e);
    e->shard = e->shards = 1;
    m.e = e;
    boids_scenario_extras extras = {manifest_owns, manifest_set, &m};
    boids_status st = boids_scenario_load_extras(path, 0, &extras, &sc);
    if (st != BOIDS_OK) return st;
    if (!m.has_runs || !m.has_version || !m.has_backend || !sc.given[BOIDS_SET_STEPS])
        return boids_fail_file(BOIDS_E_SCENARIO_KEY, path, 0,
                               "not an experiment's manifest (runs, version, backend "
                               "and steps are missing)");
    if (e->field && !e->metrics_every)
        return boids_fail_file(BOIDS_E_SCENARIO_VALUE, path, 0,
                               "field: the field measures are columns of metrics.csv, and "
                               "metrics_every = 0 writes none");
    const boids_backend backend = e->def.backend;
    e->def = sc.def;
    e->def.backend = backend;
    e->def.gl = NULL;
    boids_world_def_resolve_size(&e->def); /* (the default world, where none was written) */
    e->world_given = sc.given[BOIDS_SET_WORLD];
    e->dims = sc.dims;
    e->seed = sc.def.seed;
    e->steps = sc.steps;
    if (sc.obstacle_count) {
        e->obstacles = malloc(sizeof *e->obstacles * sc.obstacle_count);
        if (!e->obstacles) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
        memcpy(e->obstacles, sc.obstacles, sizeof *e->obstacles * sc.obstacle_count);
        e->def.obstacles = e->obstacles;
        e->def.obstacle_count = sc.obstacle_count;
    }
    e->combos = 1;
    e->nsweeps = m.nsweeps;
    for (int k = 0; k < m.nsweeps; ++k) {
        if (boids_experiment_parse_sweep(m.sweep_text[k], e->def.model, &e->def.params,
                                         &e->sweeps[k]) != BOIDS_OK)
            return boids_fail_file(BOIDS_E_SCENARIO_VALUE, path, 0, "sweep: %s",
                                   boids_last_error());
        e->combos *= e->sweeps[k].count;
    }
    return BOIDS_OK;
}

boids_status boids_exp_manifest_read(const char *dir, boids_experiment *e)
{
    boids_status st = boids_exp_manifest_parse(dir, e);
    if (st != BOIDS_OK) return st;
    char path[4200];
    path_in(path, sizeof path, dir, "manifest.ini");
    /* every manifest this program writes has one: without it nothing would tell an edit (a
     * resume once mixed nearest:5 and nearest:6 runs in one table with the line deleted) */
    if (!e->fingerprint[0])
        return boids_fail_file(BOIDS_E_SCENARIO_KEY, path, 0,
                               "has no fingerprint, which every experiment's manifest ends with: "
                               "it was edited, so whether the finished runs used these settings "
                               "cannot be told; start a new experiment in another directory");
    char fp[24];
    fingerprint_of(e, fp);
    if (fp[0] && strcmp(fp, e->fingerprint) != 0)
        return boids_fail_file(BOIDS_E_SCENARIO_VALUE, path, 0,
                               "was edited after the experiment started (its fingerprint is %s, "
                               "what it says now gives %s): the finished runs used other "
                               "settings, so they cannot be finished with these; start a new "
                               "experiment in another directory",
                               e->fingerprint, fp);
    return BOIDS_OK;
}

/* ---- the lock -------------------------------------------------------------------------------- */

/* Whether fd is still the file at path (a writer that let go removed it: a lock on that file
 * keeps no one out, and the one at path is to be taken instead). */
static bool still_at(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

boids_status boids_exp_lock_take(boids_exp_lock *l, const char *dir, bool shared)
{
    char *path = l->path;
    path_in(path, sizeof l->path, dir, ".lock");
    l->exclusive = false;
again:
    l->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (l->fd < 0 && shared)
        l->fd = open(path, O_RDONLY | O_CLOEXEC);                /* a shard we may only read */
    if (l->fd < 0 && shared && errno == ENOENT) return BOIDS_OK; /* nobody ever held it */
    if (l->fd < 0)
        return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0, "cannot make its lock file: %s",
                               strerror(errno));
    const int got = flock(l->fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB);
    if (got == 0 && !still_at(l->fd, path)) { /* removed as we took it: the next one */
        close(l->fd);
        goto again;
    }
    if (got != 0) {
        char pid[32] = "";
        ssize_t n = pread(l->fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        close(l->fd);
        l->fd = -1;
        return boids_fail_file(
            BOIDS_E_USAGE, dir, 0,
            "is in use by another boids experiment (process %s): one process at a time holds "
            "an experiment's directory; wait for it, or stop it first",
            pid[0] ? pid : "unknown");
    }
    if (shared) return BOIDS_OK;
    l->exclusive = true;
    remove_stale_temps(dir);
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(l->fd, 0) != 0 ||
        pwrite(l->fd, pid, (size_t)n, 0) != n) { /* only a note for the next one */
    }
    return BOIDS_OK;
}

void boids_exp_lock_release(boids_exp_lock *l)
{
    /* the writer removes the file before it lets go (while it holds it, nobody else does; a
     * process that opened it in between finds it gone, still_at, and takes the new one) */
    if (l->fd >= 0 && l->exclusive) unlink(l->path);
    if (l->fd >= 0) close(l->fd); /* closing drops the lock */
    l->fd = -1;
    l->exclusive = false;
}

/* ---- the tables: reading and checking ------------------------------------------------------- */

static const char *const table_names[3] = {"runs.csv", "events.csv", "metrics.csv"};
enum { RUNS, EVENTS, METRICS };
static const unsigned table_columns[3] = {11, 5, 11}; /* after run,seed,<sweeps> */
enum { FIELD_COLUMNS = 4 }; /* BOIDS_FIELD_COLUMNS, after those of runs.csv and metrics.csv */

/* The columns of a table after run,seed,<sweeps>: its own, and the field measures' with --field. */
static unsigned columns_of(const boids_experiment *e, int table)
{
    return table_columns[table] + (e->field && table != EVENTS ? FIELD_COLUMNS : 0);
}

/* Whether `name` is one of the comma-separated `columns`. */
static bool has_column(const char *columns, const char *name)
{
    const size_t len = strlen(name);
    for (const char *c = columns; c; c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL)
        if (strncmp(c, name, len) == 0 && (c[len] == ',' || c[len] == '\0')) return true;
    return false;
}

static void header_text(const boids_experiment *e, int table, char *buf, size_t size)
{
    const char *own = table == RUNS     ? BOIDS_EXP_RUNS_COLUMNS
                      : table == EVENTS ? BOIDS_CATCH_COLUMNS
                                        : BOIDS_METRICS_COLUMNS;
    char fixed[512]; /* the table's own columns, then the field measures' with --field */
    snprintf(fixed, sizeof fixed, "%s%s", own,
             e->field && table != EVENTS ? "," BOIDS_FIELD_COLUMNS : "");
    size_t n = (size_t)snprintf(buf, size, "run,seed");
    /* a swept parameter's column is its key, or param_KEY where the table has a column of that
     * name (max_speed and min_speed are metrics too): no two columns share a name */
    for (int k = 0; k < e->nsweeps && n < size; ++k)
        n +=
            (size_t)snprintf(buf + n, size - n, ",%s%s",
                             has_column(fixed, e->sweeps[k].key) ? "param_" : "", e->sweeps[k].key);
    if (n < size) snprintf(buf + n, size - n, ",%s", fixed);
}

/* A table's lines (complete ones: a last line without its newline was cut off), header first. */
typedef struct lines {
    char *text;
    char **line;
    size_t count;
} lines;

static void lines_free(lines *l)
{
    free(l->text);
    free(l->line);
    memset(l, 0, sizeof *l);
}

static boids_status lines_read(const char *path, lines *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) return boids_fail_file(BOIDS_E_FILE_READ, path, 0, "cannot read: %s", strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap + 1);
    for (size_t got; text && (got = fread(text + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            char *more = realloc(text, (cap *= 2) + 1);
            if (!more) free(text);
            text = more;
        }
    }
    fclose(f);
    if (!text) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %s", path);
    size_t count = 0;
    for (size_t i = 0; i < len; ++i) count += text[i] == '\n';
    out->line = malloc(sizeof *out->line * (count + 1));
    if (!out->line) {
        free(text);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %s", path);
    }
    out->text = text;
    char *p = text;
    for (size_t i = 0; i < count; ++i) {
        char *nl = memchr(p, '\n', len - (size_t)(p - text));
        *nl = '\0';
        out->line[out->count++] = p;
        p = nl + 1;
    }
    return BOIDS_OK;
}

/* The run a data line is about (its first field), or UINT64_MAX. */
static uint64_t run_of(const char *line)
{
    char *end;
    errno = 0;
    unsigned long long r = strtoull(line, &end, 10);
    return (end == line || *end != ',' || errno || line[0] == '-' || line[0] == '+') ? UINT64_MAX
                                                                                     : (uint64_t)r;
}

/* The fields of a line, split at commas in place into f[]; how many (at most max). */
static size_t split_fields(char *line, char **f, size_t max)
{
    size_t n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c) break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* Whether the columns after the prefix hold what the table's writer writes, for a run of n boids
 * (its combination's: a sweep of boids changes it). */
static bool values_fit(int table, char **f, const boids_experiment *e, uint32_t n)
{
    uint64_t u64;
    uint32_t u;
    float x;
    if (table == RUNS) {
        if (!boids_parse_u64(f[0], &u64) || u64 > e->steps) return false;
        if (strcmp(f[1], "catches") != 0 && strcmp(f[1], "steps") != 0) return false;
        /* catches, alive and groups count boids of the world: never more than it has */
        if (!boids_parse_u32(f[2], n, &u) || !boids_parse_u32(f[3], n, &u)) return false;
        for (int k = 4; k < 9; ++k)
            if (!boids_parse_float(f[k], &x)) return false;
        return boids_parse_u32(f[9], n, &u) && boids_parse_float(f[10], &x) && x >= 0 && x <= 1;
    }
    if (!boids_parse_u64(f[0], &u64) || !boids_parse_float(f[1], &x)) return false; /* step, time */
    if (table == EVENTS) /* boid, age, predator */
        return boids_parse_u32(f[2], UINT32_MAX, &u) && boids_parse_float(f[3], &x) &&
               boids_parse_u32(f[4], UINT32_MAX, &u);
    for (int k = 2; k < 11; ++k) /* alive .. catches, milling */
        if (!boids_parse_float(f[k], &x) || ((k == 2 || k == 8 || k == 9) && !(x >= 0 && x <= n)) ||
            (k == 10 && !(x >= 0 && x <= 1)))
            return false;
    return true;
}

/* Whether the field measures' columns hold what boids_field_csv_row writes: xi and xi_speed,
 * lengths (px), n_c, a rank, and diameter, a length. */
static bool field_fits(char **f)
{
    float x;
    uint32_t u;
    return boids_parse_float(f[0], &x) && x >= 0 && boids_parse_float(f[1], &x) && x >= 0 &&
           boids_parse_u32(f[2], BOIDS_FIELD_RANKS, &u) && boids_parse_float(f[3], &x) && x >= 0;
}

/* A data line of `table` checked against the experiment and the slice [first, end): its run.
 * counts: the boids of each combination. */
static boids_status check_row(const char *path, size_t lineno, const char *line, int table,
                              const boids_experiment *e, uint64_t first, uint64_t end,
                              const uint32_t *counts, uint64_t *run)
{
    *run = run_of(line);
    if (*run == UINT64_MAX || *run < first || *run >= end)
        return boids_fail_file(BOIDS_E_CSV_ROW, path, (long)lineno,
                               "not a row of run %llu..%llu of this %s", (unsigned long long)first,
                               (unsigned long long)(end ? end - 1 : 0),
                               e->shards > 1 ? "shard" : "experiment");
    char prefix[1024];
    boids_experiment_row_prefix(e, *run, prefix, sizeof prefix);
    const size_t plen = strlen(prefix);
    if (strncmp(line, prefix, plen) != 0 || line[plen] != ',')
        return boids_fail_file(BOIDS_E_CSV_ROW, path, (long)lineno,
                               "run %llu's seed and sweep values are not the manifest's (%s)",
                               (unsigned long long)*run, prefix);
    char copy[4096], *f[16];
    if (strlen(line + plen + 1) >= sizeof copy)
        return boids_fail_file(BOIDS_E_CSV_ROW, path, (long)lineno, "too long");
    snprintf(copy, sizeof copy, "%s", line + plen + 1);
    size_t n = split_fields(copy, f, 16);
    if (n != columns_of(e, table))
        return boids_fail_file(BOIDS_E_CSV_ROW, path, (long)lineno,
                               "not a row of %s: %zu columns after run,seed%s, expected %u as the "
                               "header says",
                               table_names[table], n, e->nsweeps ? " and the sweeps" : "",
                               columns_of(e, table));
    const uint32_t boids = counts[*run / e->runs];
    if (!values_fit(table, f, e, boids) ||
        (n > table_columns[table] && !field_fits(f + table_columns[table])))
        return boids_fail_file(BOIDS_E_CSV_ROW, path, (long)lineno,
                               "not a row of %s: a number that %s does not write for run %llu "
                               "(%u boids: alive, catches and groups at most that)",
                               table_names[table], table_names[table], (unsigned long long)*run,
                               boids);
    return BOIDS_OK;
}

/* The rows a table holds for each run: per run, where its rows start and how many (in file order).
 */
typedef struct table_rows {
    lines l;
    uint32_t *count;  /* per run */
    long *first_line; /* per run: its first row's line (1-based), 0 if none */
} table_rows;

static void table_rows_free(table_rows *t)
{
    lines_free(&t->l);
    free(t->count);
    free(t->first_line);
}

/* Reads DIR/table, checking the header and every row against the experiment and the slice; of
 * events.csv and metrics.csv only the rows of runs that runs.csv has (`runs`: its counts), since
 * the others are dropped anyway (a run a crash cut short). bare: an empty file is a table
 * without rows (a resume's where every table is empty), not a table without its header. */
static boids_status table_load(const char *dir, int table, const boids_experiment *e,
                               uint64_t first, uint64_t end, const uint32_t *runs, bool bare,
                               table_rows *out)
{
    memset(out, 0, sizeof *out);
    char path[4200], head[16384];
    path_in(path, sizeof path, dir, table_names[table]);
    boids_status st = lines_read(path, &out->l);
    if (st != BOIDS_OK) return st;
    const uint64_t total = boids_experiment_total(e);
    out->count = calloc(total ? total : 1, sizeof *out->count);
    out->first_line = calloc(total ? total : 1, sizeof *out->first_line);
    if (!out->count || !out->first_line)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %s", path);
    if (bare && out->l.count == 0) return BOIDS_OK;
    header_text(e, table, head, sizeof head);
    if (out->l.count == 0 || strcmp(out->l.line[0], head) != 0)
        return boids_fail_file(BOIDS_E_CSV_HEADER, path, 1,
                               "%s, where the manifest's experiment writes '%s'",
                               out->l.count ? "another header" : "no header", head);
    uint32_t *counts = malloc(sizeof *counts * (e->combos ? e->combos : 1));
    if (!counts) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %s", path);
    for (uint32_t c = 0; c < e->combos; ++c) counts[c] = boids_experiment_count(e, c);
    for (size_t i = 1; i < out->l.count && st == BOIDS_OK; ++i) {
        uint64_t run = run_of(out->l.line[i]);
        if (runs && run >= first && run < end && !runs[run]) continue; /* not done: dropped */
        st = check_row(path, i + 1, out->l.line[i], table, e, first, end, counts, &run);
        if (st != BOIDS_OK) break;
        if (table == RUNS && out->count[run])
            st = boids_fail_file(BOIDS_E_CSV_ROW, path, (long)i + 1,
                                 "run %llu again (first on line %ld)", (unsigned long long)run,
                                 out->first_line[run]);
        else if (!out->count[run]++)
            out->first_line[run] = (long)i + 1;
    }
    free(counts);
    return st;
}

/* The field k (0-based, after the prefix) of a runs.csv row, as a number. */
static uint64_t runs_field(const boids_experiment *e, const char *line, int k)
{
    const char *p = line;
    for (int c = 0; c < 2 + e->nsweeps + k && p; ++c)
        p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    return p ? strtoull(p, NULL, 10) : 0;
}

/* The metrics rows a run that ended at step `end` has: step 0, every multiple of K up to end, and
 * end itself. */
static uint64_t metrics_rows_of(uint64_t end, uint32_t k) { return end / k + 1 + (end % k != 0); }

/* Which runs are done: those with a runs.csv row whose catches and metrics rows are all there
 * (a run whose rows a failed write cut short runs again, said). */
static void mark_done(const boids_experiment *e, table_rows *t, bool *done, uint64_t *done_count,
                      bool say)
{
    const uint64_t total = boids_experiment_total(e);
    for (uint64_t r = 0; r < total; ++r) {
        if (!t[RUNS].count[r]) continue;
        const char *row = t[RUNS].l.line[t[RUNS].first_line[r] - 1];
        const uint64_t steps = runs_field(e, row, 0), catches = runs_field(e, row, 2);
        bool whole =
            t[EVENTS].count[r] == catches &&
            (!e->metrics_every || t[METRICS].count[r] == metrics_rows_of(steps, e->metrics_every));
        if (!whole && say)
            fprintf(stderr,
                    "boids experiment: run %llu's rows were cut short (%u of %llu catches, %u "
                    "metrics rows): "
                    "it runs again\n",
                    (unsigned long long)r, t[EVENTS].count[r], (unsigned long long)catches,
                    e->metrics_every ? t[METRICS].count[r] : 0);
        if (whole && !done[r]) done[r] = true, ++*done_count;
    }
}

/* ---- the tables: writing -------------------------------------------------------------------- */

typedef struct keyed {
    uint64_t run;
    size_t order;
    const char *line;
} keyed;

static int by_run(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->run != y->run) return x->run < y->run ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Writes `path` anew through a temporary file: the header, then the data lines of the runs marked
 * in `keep` (NULL: all), sorted by run (a run's lines keep their order). */
static boids_status rewrite_sorted(const char *path, const char *head, const lines *const *src,
                                   int nsrc, const bool *keep, uint64_t total)
{
    size_t n = 0;
    for (int s = 0; s < nsrc; ++s) n += src[s]->count;
    keyed *k = malloc(sizeof *k * (n + 1));
    if (!k) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory sorting %s", path);
    size_t m = 0;
    for (int s = 0; s < nsrc; ++s)
        for (size_t i = 1; i < src[s]->count; ++i) {
            uint64_t r = run_of(src[s]->line[i]);
            if (r >= total || (keep && !keep[r])) continue; /* a run not finished: left out */
            k[m] = (keyed){r, m, src[s]->line[i]};
            ++m;
        }
    qsort(k, m, sizeof *k, by_run);
    boids_output_file o;
    boids_status st = boids_output_open(&o, path);
    if (st == BOIDS_OK) {
        fprintf(o.f, "%s\n", head);
        for (size_t i = 0; i < m; ++i) fprintf(o.f, "%s\n", k[i].line);
        st = boids_output_commit(&o);
    }
    free(k);
    return st;
}

/* --resume: the tables checked, the rows of the runs not done dropped, the rest kept sorted. */
static boids_status resume_tables(boids_exp_tables *t, const char *dir, const boids_experiment *e,
                                  int tables)
{
    uint64_t first, end;
    boids_experiment_slice(e, &first, &end);
    table_rows rows[3];
    memset(rows, 0, sizeof rows);
    /* every table empty: what a process killed as it made them left (no run was done); one empty
     * beside others with rows is no such state, and is refused */
    bool bare = true;
    for (int k = 0; k < tables; ++k) {
        char path[4200];
        struct stat sb;
        path_in(path, sizeof path, dir, table_names[k]);
        bare = bare && stat(path, &sb) == 0 && sb.st_size == 0;
    }
    boids_status st = BOIDS_OK;
    for (int k = 0; k < 3 && st == BOIDS_OK; ++k)
        if (k < tables)
            st = table_load(dir, k, e, first, end, k == RUNS ? NULL : rows[RUNS].count, bare,
                            &rows[k]);
        else
            rows[k].count = calloc(boids_experiment_total(e) + 1, sizeof *rows[k].count);
    if (st == BOIDS_OK) mark_done(e, rows, t->done, &t->done_count, true);
    for (int k = 0; k < tables && st == BOIDS_OK; ++k) {
        char path[4200], head[16384];
        path_in(path, sizeof path, dir, table_names[k]);
        header_text(e, k, head, sizeof head);
        const lines *src[1] = {&rows[k].l};
        st = rewrite_sorted(path, head, src, 1, t->done, boids_experiment_total(e));
    }
    for (int k = 0; k < 3; ++k) table_rows_free(&rows[k]);
    return st;
}

/* A file's buffered rows out and on disk. errno is cleared first, so that a failure the stream
 * noted earlier (ferror) is not reported with some other call's errno: a full disk once read
 * "Inappropriate ioctl for device", left by a terminal check. */
static bool sync_file(FILE *f)
{
    errno = 0;
    return !f || (fflush(f) == 0 && fsync(fileno(f)) == 0 && !ferror(f));
}

/* What a failed write says: its errno, or, where the stream failed earlier, that. */
static const char *write_failure(void)
{
    return errno ? strerror(errno) : "a write failed earlier (is the disk full?)";
}

boids_status boids_exp_tables_open(boids_exp_tables *t, const char *dir, const boids_experiment *e,
                                   bool resume)
{
    memset(t, 0, sizeof *t);
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    t->e = e;
    const uint64_t total = boids_experiment_total(e);
    if (total > BOIDS_EXP_MAX_RUNS)
        return boids_fail(BOIDS_E_USAGE, "%llu runs: at most %u in one experiment",
                          (unsigned long long)total, BOIDS_EXP_MAX_RUNS);
    t->done = calloc(total ? total : 1, sizeof *t->done);
    if (!t->done)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %llu runs",
                          (unsigned long long)total);
    const int tables = e->metrics_every ? 3 : 2;
    boids_status st = resume ? resume_tables(t, dir, e, tables) : BOIDS_OK;
    FILE **files[3] = {&t->runs, &t->events, &t->metrics};
    for (int k = 0; st == BOIDS_OK && k < tables; ++k) {
        char path[4200], head[16384];
        path_in(path, sizeof path, dir, table_names[k]);
        *files[k] = fopen(path, resume ? "a" : "w");
        if (!*files[k])
            st = boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write: %s", strerror(errno));
        else if (!resume) { /* on disk at once: a process killed before its first run's sync
                             * leaves tables with their headers, which --resume reads */
            header_text(e, k, head, sizeof head), fprintf(*files[k], "%s\n", head);
            if (!sync_file(*files[k]))
                st = boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write: %s",
                                     write_failure());
        }
    }
    t->synced_at = boids_clock_seconds();
    if (st != BOIDS_OK) { /* nothing was written but the headers of new tables: let go of it all */
        for (int k = 0; k < 3; ++k)
            if (*files[k]) fclose(*files[k]), *files[k] = NULL;
        free(t->done);
        t->done = NULL;
    }
    return st;
}

/* The events and metrics rows synced, then the pending runs.csv rows after them, synced too. */
static boids_status sync_tables(boids_exp_tables *t)
{
    if (!sync_file(t->events) || !sync_file(t->metrics))
        return boids_fail_file(BOIDS_E_FILE_WRITE, t->dir, 0, "writing the tables failed: %s",
                               write_failure());
    errno = 0;
    if (t->pending_len && fwrite(t->pending, 1, t->pending_len, t->runs) != t->pending_len)
        return boids_fail_file(BOIDS_E_FILE_WRITE, t->dir, 0, "writing runs.csv failed: %s",
                               write_failure());
    if (!sync_file(t->runs))
        return boids_fail_file(BOIDS_E_FILE_WRITE, t->dir, 0, "writing runs.csv failed: %s",
                               write_failure());
    t->pending_len = 0;
    t->synced_at = boids_clock_seconds();
    return BOIDS_OK;
}

boids_status boids_exp_tables_append(boids_exp_tables *t, uint64_t run, const char *events,
                                     size_t events_len, const char *metrics, size_t metrics_len,
                                     const char *runs_row)
{
    /* the run's row last, once the others are on disk: a run is done once runs.csv has it */
    errno = 0;
    if ((events_len && fwrite(events, 1, events_len, t->events) != events_len) ||
        (metrics_len && t->metrics && fwrite(metrics, 1, metrics_len, t->metrics) != metrics_len) ||
        fflush(t->events) != 0 || (t->metrics && fflush(t->metrics) != 0))
        return boids_fail_file(BOIDS_E_FILE_WRITE, t->dir, 0, "writing the tables failed: %s",
                               write_failure());
    const size_t len = strlen(runs_row);
    if (t->pending_len + len > t->pending_cap) {
        size_t cap = (t->pending_len + len) * 2 + 4096;
        char *more = realloc(t->pending, cap);
        if (!more) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
        t->pending = more, t->pending_cap = cap;
    }
    memcpy(t->pending + t->pending_len, runs_row, len);
    t->pending_len += len;
    t->done[run] = true;
    t->done_count++;
    return boids_clock_seconds() - t->synced_at >= 0.25 ? sync_tables(t) : BOIDS_OK;
}

boids_status boids_exp_tables_finish(boids_exp_tables *t)
{
    boids_status st = t->runs ? sync_tables(t) : BOIDS_OK;
    FILE **files[3] = {&t->runs, &t->events, &t->metrics};
    for (int k = 0; k < 3; ++k) {
        if (!*files[k]) continue;
        if (fclose(*files[k]) != 0 && st == BOIDS_OK)
            st =
                boids_fail_file(BOIDS_E_FILE_WRITE, t->dir, 0, "writing %s failed", table_names[k]);
        *files[k] = NULL;
        char path[4200], head[16384];
        path_in(path, sizeof path, t->dir, table_names[k]);
        header_text(t->e, k, head, sizeof head);
        lines l;
        if (st == BOIDS_OK) st = lines_read(path, &l);
        if (st == BOIDS_OK) {
            const lines *src[1] = {&l};
            st = rewrite_sorted(path, head, src, 1, NULL, UINT64_MAX);
            lines_free(&l);
        }
    }
    free(t->done);
    free(t->pending);
    t->done = NULL;
    t->pending = NULL;
    return st;
}

/* ---- merge ---------------------------------------------------------------------------------- */

/* The shards' manifests: one experiment, each shard once; *first gets the first's. */
static int merge_manifests(char **dirs, int ndirs, boids_experiment *first)
{
    static boids_experiment other;
    if (boids_exp_manifest_read(dirs[0], first) != BOIDS_OK) {
        fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
        return BOIDS_EXIT_USAGE;
    }
    char *want = bare_manifest(first);
    bool *seen = calloc(first->shards + 1, 1);
    int code = want && seen ? BOIDS_EXIT_OK : BOIDS_EXIT_RUNTIME;
    for (int d = 0; d < ndirs && code == BOIDS_EXIT_OK; ++d) {
        boids_experiment *x = d == 0 ? first : &other;
        if (d > 0 && boids_exp_manifest_read(dirs[d], x) != BOIDS_OK) {
            fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
            code = BOIDS_EXIT_USAGE;
            break;
        }
        char *have = bare_manifest(x);
        if (!have || strcmp(have, want) != 0 || x->shards != first->shards) {
            fprintf(stderr,
                    "boids experiment-merge: %s is not a shard of the experiment in %s (their "
                    "manifests "
                    "differ beyond shard, command and renderer)\n",
                    dirs[d], dirs[0]);
            code = BOIDS_EXIT_USAGE;
        } else if (seen[x->shard]) {
            fprintf(
                stderr,
                "boids experiment-merge: %s is shard %u/%u, which an earlier directory is too\n",
                dirs[d], x->shard, x->shards);
            code = BOIDS_EXIT_USAGE;
        }
        if (code == BOIDS_EXIT_OK) seen[x->shard] = true;
        free(have);
        if (d > 0) free(other.obstacles);
    }
    free(want);
    free(seen);
    return code;
}

/* Every shard's tables, each checked against its own slice of the runs; runs done counted. */
static int merge_read(char **dirs, int ndirs, const boids_experiment *e, table_rows *all,
                      bool *done, uint64_t *have)
{
    static boids_experiment shard;
    for (int d = 0; d < ndirs; ++d) {
        if (boids_exp_manifest_read(dirs[d], &shard) != BOIDS_OK) return BOIDS_EXIT_USAGE;
        free(shard.obstacles);
        uint64_t first, end;
        boids_experiment_slice(&shard, &first, &end);
        const int tables = e->metrics_every ? 3 : 2;
        for (int k = 0; k < 3; ++k) {
            boids_status st =
                k < tables ? table_load(dirs[d], k, e, first, end,
                                        k == RUNS ? NULL : all[d * 3].count, false, &all[d * 3 + k])
                           : BOIDS_OK;
            if (k >= tables)
                all[d * 3 + k].count = calloc(boids_experiment_total(e) + 1, sizeof(uint32_t));
            if (st != BOIDS_OK) {
                fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
                return BOIDS_EXIT_USAGE;
            }
        }
        mark_done(e, &all[d * 3], done, have, false);
    }
    return BOIDS_EXIT_OK;
}

/* The merged directory, written whole under a temporary name beside OUT and renamed into place:
 * a merge that fails or is interrupted leaves no OUT. */
static int merge_write(const char *out, const char *tmp, boids_experiment *e, table_rows *all,
                       int ndirs, const bool *done)
{
    e->shard = e->shards = 1;
    boids_status st = boids_exp_manifest_write(tmp, e);
    const int tables = e->metrics_every ? 3 : 2;
    for (int k = 0; st == BOIDS_OK && k < tables && !boids_interrupted(); ++k) {
        const lines **src = malloc(sizeof *src * (size_t)ndirs);
        if (!src) {
            st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
            break;
        }
        for (int d = 0; d < ndirs; ++d) src[d] = &all[d * 3 + k].l;
        char path[4200], head[16384];
        path_in(path, sizeof path, tmp, table_names[k]);
        header_text(e, k, head, sizeof head);
        st = rewrite_sorted(path, head, src, ndirs, done, boids_experiment_total(e));
        free(src);
    }
    char lock[4200];
    path_in(lock, sizeof lock, out, ".lock");
    unlink(lock); /* an empty OUT may hold a lock file from a refused start */
    if (st == BOIDS_OK && !boids_interrupted() && rmdir(out) != 0 && errno != ENOENT)
        st = boids_fail_file(BOIDS_E_FILE_WRITE, out, 0, "cannot replace it: %s", strerror(errno));
    if (st == BOIDS_OK && !boids_interrupted() && rename(tmp, out) != 0)
        st = boids_fail_file(BOIDS_E_FILE_WRITE, out, 0,
                             "cannot rename the merged directory into place: %s", strerror(errno));
    if (st != BOIDS_OK || boids_interrupted()) {
        for (int k = 0; k < 3; ++k) {
            char path[4200];
            path_in(path, sizeof path, tmp, table_names[k]);
            unlink(path);
        }
        char path[4200];
        path_in(path, sizeof path, tmp, "manifest.ini");
        unlink(path);
        rmdir(tmp);
    }
    if (st != BOIDS_OK) {
        fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
        return BOIDS_EXIT_RUNTIME;
    }
    return boids_interrupted() ? boids_interrupt_exit_code() : BOIDS_EXIT_OK;
}

int boids_exp_merge(const char *out, char **dirs, int ndirs)
{
    static boids_experiment first;
    int code = merge_manifests(dirs, ndirs, &first);
    if (code == BOIDS_EXIT_OK &&
        boids_exp_dir_new(out, false) != BOIDS_OK) { /* checked, left as it was */
        fprintf(stderr, "boids experiment-merge: OUT: %s\n", boids_last_error());
        code = BOIDS_EXIT_USAGE;
    }
    boids_exp_lock *locks =
        calloc((size_t)ndirs, sizeof *locks); /* no shard written while it is read */
    for (int d = 0; code == BOIDS_EXIT_OK && locks && d < ndirs; ++d) {
        locks[d].fd = -1;
        if (boids_exp_lock_take(&locks[d], dirs[d], true) != BOIDS_OK) {
            fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
            code = BOIDS_EXIT_USAGE;
        }
    }
    if (code != BOIDS_EXIT_OK || !locks) {
        for (int d = 0; locks && d < ndirs; ++d) boids_exp_lock_release(&locks[d]);
        free(locks);
        return code == BOIDS_EXIT_OK ? BOIDS_EXIT_RUNTIME : code;
    }
    const uint64_t total = boids_experiment_total(&first);
    bool *done = calloc(total ? total : 1, 1);
    table_rows *all = calloc((size_t)ndirs * 3, sizeof *all);
    uint64_t have = 0;
    code = done && all ? merge_read(dirs, ndirs, &first, all, done, &have) : BOIDS_EXIT_RUNTIME;
    char tmp[4200];
    const char *slash = strrchr(out, '/'); /* beside OUT, hidden: .boids-tmp-XXXXXX */
    snprintf(tmp, sizeof tmp, "%.*s%sXXXXXX", slash ? (int)(slash - out + 1) : 0, out,
             BOIDS_TEMP_PREFIX);
    if (code == BOIDS_EXIT_OK && !mkdtemp(tmp)) {
        fprintf(stderr, "boids experiment-merge: cannot make a directory beside %s: %s\n", out,
                strerror(errno));
        code = BOIDS_EXIT_RUNTIME;
    }
    if (code == BOIDS_EXIT_OK) code = merge_write(out, tmp, &first, all, ndirs, done);
    for (int i = 0; all && i < ndirs * 3; ++i) table_rows_free(&all[i]);
    for (int d = 0; d < ndirs; ++d) boids_exp_lock_release(&locks[d]);
    free(locks);
    free(all);
    free(done);
    if (code == BOIDS_EXIT_OK) {
        printf("boids experiment-merge: %d director%s into %s: %llu of %llu runs\n", ndirs,
               ndirs == 1 ? "y" : "ies", out, (unsigned long long)have, (unsigned long long)total);
        if (have < total) {
            fprintf(stderr,
                    "boids experiment-merge: %llu runs are missing (a shard did not finish): "
                    "`boids experiment --resume %s` runs them\n",
                    (unsigned long long)(total - have), out);
            code = BOIDS_EXIT_RUNTIME;
        } else if (boids_exp_plot(out, &first) != BOIDS_OK) {
            fprintf(stderr, "boids experiment-merge: plots: %s\n", boids_last_error());
            code = BOIDS_EXIT_RUNTIME;
        }
    }
    free(first.obstacles);
    return code;
}
