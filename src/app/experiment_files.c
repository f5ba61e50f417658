/* An experiment's directory: the manifest (a scenario file of the world with the experiment's own
 * keys, read back by the scenario reader), the three tables, resume and merge. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/app.h"
#include "app/experiment.h"
#include "app/metrics_log.h"
#include "core/error.h"
#include "core/output_file.h"
#include "core/parse.h"
#include "core/scenario.h"

/* Most runs an experiment may have (its done flags are kept in memory). */
#define MAX_RUNS 10000000u

static void path_in(char *buf, size_t size, const char *dir, const char *name) { snprintf(buf, size, "%s/%s", dir, name); }

boids_status boids_exp_dir_new(const char *dir)
{
    struct stat sb;
    char manifest[4200];
    path_in(manifest, sizeof manifest, dir, "manifest.ini");
    if (stat(dir, &sb) != 0) {
        if (mkdir(dir, 0777) != 0) return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0, "cannot create it: %s", strerror(errno));
        return BOIDS_OK;
    }
    if (!S_ISDIR(sb.st_mode)) return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0, "is not a directory");
    if (stat(manifest, &sb) == 0)
        return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0,
                               "holds an experiment already (manifest.ini): `boids experiment --resume %s` finishes "
                               "it; a new one needs another directory", dir);
    DIR *d = opendir(dir);
    if (!d) return boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0, "cannot read it: %s", strerror(errno));
    struct dirent *ent;
    const char *other = NULL;
    while ((ent = readdir(d)) != NULL)
        if (strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0) {
            other = ent->d_name;
            break;
        }
    boids_status st = other ? boids_fail_file(BOIDS_E_FILE_WRITE, dir, 0,
                                              "is not empty (it holds %s): an experiment needs a directory of its own",
                                              other)
                            : BOIDS_OK;
    closedir(d);
    return st;
}

/* ---- the manifest -------------------------------------------------------------------------- */

/* The manifest's text; `bare`: without the lines that may differ between the shards of one
 * experiment (shard, command, renderer), for comparing them. */
static void manifest_text(FILE *f, const boids_experiment *e, bool bare)
{
    char v[32];
    if (!bare) {
        fprintf(f, "; An experiment of boids (boids experiment --help). `boids experiment --resume DIR` reads this\n"
                   "; file to finish the runs; the world below, with the seed and the sweeps, reproduces them.\n");
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
    for (int k = 0; k < e->nsweeps; ++k) {
        fprintf(f, "sweep = %s=", e->sweeps[k].key);
        for (uint32_t i = 0; i < e->sweeps[k].count; ++i)
            fprintf(f, "%s%s", i ? "," : "", boids_float_text(e->sweeps[k].values[i], v));
        fputc('\n', f);
    }
    boids_scenario_write(f, &e->def);
}

boids_status boids_exp_manifest_write(const char *dir, const boids_experiment *e)
{
    char path[4200];
    path_in(path, sizeof path, dir, "manifest.ini");
    boids_output_file o;
    boids_status st = boids_output_open(&o, path);
    if (st != BOIDS_OK) return st;
    manifest_text(o.f, e, false);
    return boids_output_commit(&o);
}

typedef struct manifest_ctx {
    boids_experiment *e;
    char sweep_text[BOIDS_EXP_MAX_SWEEPS][16384];
    int nsweeps;
    bool has_runs, has_version, has_backend;
} manifest_ctx;

static bool manifest_owns(void *ctx, const char *key)
{
    (void)ctx;
    static const char *const keys[] = {"command", "renderer", "shard", "version", "backend", "runs", "metrics_every",
                                       "sweep"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i)
        if (strcmp(key, keys[i]) == 0) return true;
    return false;
}

static boids_status manifest_set(void *ctx, const char *key, const char *value)
{
    manifest_ctx *m = ctx;
    boids_experiment *e = m->e;
    if (!strcmp(key, "command")) snprintf(e->command, sizeof e->command, "%s", value);
    else if (!strcmp(key, "renderer")) snprintf(e->renderer, sizeof e->renderer, "%s", value);
    else if (!strcmp(key, "version")) snprintf(e->version, sizeof e->version, "%s", value), m->has_version = true;
    else if (!strcmp(key, "backend")) {
        if (!strcmp(value, "gpu")) e->def.backend = BOIDS_BACKEND_GPU;
        else if (!strcmp(value, "cpu")) e->def.backend = BOIDS_BACKEND_CPU;
        else return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not gpu or cpu", value);
        m->has_backend = true;
    } else if (!strcmp(key, "runs")) {
        if (!boids_parse_u32(value, 100000000, &e->runs) || e->runs == 0)
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not a whole number in [1, 10^8]", value);
        m->has_runs = true;
    } else if (!strcmp(key, "metrics_every")) {
        if (!boids_parse_u32(value, UINT32_MAX, &e->metrics_every))
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not a whole number", value);
    } else if (!strcmp(key, "shard")) {
        const char *slash = strchr(value, '/');
        char a[32] = "";
        if (slash && (size_t)(slash - value) < sizeof a) snprintf(a, sizeof a, "%.*s", (int)(slash - value), value);
        if (!slash || !boids_parse_u32(a, 1000000, &e->shard) || !boids_parse_u32(slash + 1, 1000000, &e->shards) ||
            e->shard < 1 || e->shard > e->shards)
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "'%s' is not I/K with 1 <= I <= K", value);
    } else if (!strcmp(key, "sweep")) {
        if (m->nsweeps == BOIDS_EXP_MAX_SWEEPS || strlen(value) >= sizeof m->sweep_text[0])
            return boids_fail_key(BOIDS_E_SCENARIO_VALUE, key, "too many sweeps, or one too long");
        snprintf(m->sweep_text[m->nsweeps++], sizeof m->sweep_text[0], "%s", value);
    }
    return BOIDS_OK;
}

boids_status boids_exp_manifest_read(const char *dir, boids_experiment *e)
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
    if (!m.has_runs || !m.has_version || !m.has_backend || !sc.has_steps)
        return boids_fail_file(BOIDS_E_SCENARIO_KEY, path, 0, "not an experiment's manifest (runs, version, backend "
                               "and steps are missing)");
    const boids_backend backend = e->def.backend;
    e->def = sc.def;
    e->def.backend = backend;
    e->def.gl = NULL;
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
        if (boids_experiment_parse_sweep(m.sweep_text[k], e->def.model, &e->def.params, &e->sweeps[k]) != BOIDS_OK)
            return boids_fail_file(BOIDS_E_SCENARIO_VALUE, path, 0, "sweep: %s", boids_last_error());
        e->combos *= e->sweeps[k].count;
    }
    return BOIDS_OK;
}

/* ---- the tables ---------------------------------------------------------------------------- */

static const char *const table_names[3] = {"runs.csv", "events.csv", "metrics.csv"};

static void header(FILE *f, const boids_experiment *e, int table)
{
    fputs("run,seed", f);
    for (int k = 0; k < e->nsweeps; ++k) fprintf(f, ",%s", e->sweeps[k].key);
    fprintf(f, ",%s\n", table == 0 ? BOIDS_EXP_RUNS_COLUMNS : table == 1 ? BOIDS_CATCH_COLUMNS : BOIDS_METRICS_COLUMNS);
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
    return (end == line || *end != ',' || errno) ? UINT64_MAX : (uint64_t)r;
}

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

/* Writes `path` anew: its header, then the data lines of the runs marked in `keep` (NULL: all),
 * sorted by run (a run's lines keep their order). */
static boids_status rewrite_sorted(const char *path, const char *head, const lines *const *src, int nsrc,
                                   const bool *keep, uint64_t total)
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

boids_status boids_exp_tables_open(boids_exp_tables *t, const char *dir, const boids_experiment *e, bool resume)
{
    memset(t, 0, sizeof *t);
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    const uint64_t total = boids_experiment_total(e);
    if (total > MAX_RUNS)
        return boids_fail(BOIDS_E_USAGE, "%llu runs: at most %u in one experiment", (unsigned long long)total, MAX_RUNS);
    t->done = calloc(total ? total : 1, sizeof *t->done);
    if (!t->done) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %llu runs", (unsigned long long)total);
    const int tables = e->metrics_every ? 3 : 2;
    FILE **files[3] = {&t->runs, &t->events, &t->metrics};
    boids_status st = BOIDS_OK;
    if (resume) { /* the runs runs.csv holds are done; the rest of the other tables goes */
        lines l;
        char path[4200];
        path_in(path, sizeof path, dir, table_names[0]);
        st = lines_read(path, &l);
        for (size_t i = 1; st == BOIDS_OK && i < l.count; ++i) {
            uint64_t r = run_of(l.line[i]);
            if (r < total && !t->done[r]) t->done[r] = true, t->done_count++;
        }
        lines_free(&l);
        for (int k = 0; st == BOIDS_OK && k < tables; ++k) {
            path_in(path, sizeof path, dir, table_names[k]);
            if ((st = lines_read(path, &l)) != BOIDS_OK) break;
            const lines *src[1] = {&l};
            char head[8192];
            snprintf(head, sizeof head, "%s", l.count ? l.line[0] : "");
            st = rewrite_sorted(path, head, src, 1, t->done, total);
            lines_free(&l);
        }
    }
    for (int k = 0; st == BOIDS_OK && k < tables; ++k) {
        char path[4200];
        path_in(path, sizeof path, dir, table_names[k]);
        *files[k] = fopen(path, resume ? "a" : "w");
        if (!*files[k]) st = boids_fail_file(BOIDS_E_FILE_WRITE, path, 0, "cannot write: %s", strerror(errno));
        else if (!resume) header(*files[k], e, k), fflush(*files[k]);
    }
    return st;
}

boids_status boids_exp_tables_append(boids_exp_tables *t, uint64_t run, const char *events, size_t events_len,
                                     const char *metrics, size_t metrics_len, const char *runs_row)
{
    /* the run's row last: a run is done once runs.csv has it */
    if (events_len) fwrite(events, 1, events_len, t->events);
    if (metrics_len && t->metrics) fwrite(metrics, 1, metrics_len, t->metrics);
    fflush(t->events);
    if (t->metrics) fflush(t->metrics);
    fputs(runs_row, t->runs);
    fflush(t->runs);
    if (ferror(t->runs) || ferror(t->events) || (t->metrics && ferror(t->metrics)))
        return boids_fail_file(BOIDS_E_FILE_WRITE, t->dir, 0, "writing the tables failed: %s", strerror(errno));
    t->done[run] = true;
    t->done_count++;
    return BOIDS_OK;
}

boids_status boids_exp_tables_finish(boids_exp_tables *t)
{
    boids_status st = BOIDS_OK;
    FILE **files[3] = {&t->runs, &t->events, &t->metrics};
    for (int k = 0; k < 3; ++k) {
        if (!*files[k]) continue;
        if (fclose(*files[k]) != 0 && st == BOIDS_OK)
            st = boids_fail_file(BOIDS_E_FILE_WRITE, t->dir, 0, "writing %s failed", table_names[k]);
        *files[k] = NULL;
        char path[4200];
        path_in(path, sizeof path, t->dir, table_names[k]);
        lines l;
        if (st == BOIDS_OK) st = lines_read(path, &l);
        if (st == BOIDS_OK) {
            const lines *src[1] = {&l};
            char head[8192];
            snprintf(head, sizeof head, "%s", l.count ? l.line[0] : "");
            st = rewrite_sorted(path, head, src, 1, NULL, UINT64_MAX);
            lines_free(&l);
        }
    }
    free(t->done);
    t->done = NULL;
    return st;
}

/* ---- merge --------------------------------------------------------------------------------- */

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

int boids_exp_merge(const char *out, char **dirs, int ndirs)
{
    static boids_experiment first, other;
    int code = BOIDS_EXIT_OK;
    if (boids_exp_manifest_read(dirs[0], &first) != BOIDS_OK) {
        fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
        return BOIDS_EXIT_USAGE;
    }
    char *want = bare_manifest(&first);
    bool *seen_shard = calloc(first.shards + 1, 1);
    if (!want || !seen_shard) {
        fprintf(stderr, "boids experiment-merge: out of memory\n");
        return BOIDS_EXIT_RUNTIME;
    }
    for (int d = 0; d < ndirs && code == BOIDS_EXIT_OK; ++d) {
        boids_experiment *x = d == 0 ? &first : &other;
        if (d > 0 && boids_exp_manifest_read(dirs[d], x) != BOIDS_OK) {
            fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
            code = BOIDS_EXIT_USAGE;
            break;
        }
        char *have = bare_manifest(x);
        if (!have || strcmp(have, want) != 0 || x->shards != first.shards) {
            fprintf(stderr, "boids experiment-merge: %s is not a shard of the experiment in %s (their manifests "
                            "differ beyond shard, command and renderer)\n", dirs[d], dirs[0]);
            code = BOIDS_EXIT_USAGE;
        } else if (seen_shard[x->shard]) {
            fprintf(stderr, "boids experiment-merge: %s is shard %u/%u, which an earlier directory is too\n", dirs[d],
                    x->shard, x->shards);
            code = BOIDS_EXIT_USAGE;
        }
        seen_shard[x->shard] = true;
        free(have);
        if (d > 0) free(other.obstacles);
    }
    free(want);
    free(seen_shard);
    if (code == BOIDS_EXIT_OK && boids_exp_dir_new(out) != BOIDS_OK) {
        fprintf(stderr, "boids experiment-merge: OUT: %s\n", boids_last_error());
        code = BOIDS_EXIT_USAGE;
    }
    const uint64_t total = boids_experiment_total(&first);
    bool *done = code == BOIDS_EXIT_OK ? calloc(total ? total : 1, 1) : NULL;
    if (code == BOIDS_EXIT_OK && !done) code = BOIDS_EXIT_RUNTIME;
    lines *all = code == BOIDS_EXIT_OK ? calloc((size_t)ndirs * 3, sizeof *all) : NULL;
    boids_status st = all ? BOIDS_OK : BOIDS_ERR_NO_MEMORY;
    const int tables = first.metrics_every ? 3 : 2;
    for (int d = 0; code == BOIDS_EXIT_OK && st == BOIDS_OK && d < ndirs; ++d)
        for (int k = 0; st == BOIDS_OK && k < tables; ++k) {
            char path[4200];
            path_in(path, sizeof path, dirs[d], table_names[k]);
            st = lines_read(path, &all[d * 3 + k]);
        }
    uint64_t have = 0;
    for (int d = 0; code == BOIDS_EXIT_OK && st == BOIDS_OK && d < ndirs; ++d)
        for (size_t i = 1; i < all[d * 3].count; ++i) {
            uint64_t r = run_of(all[d * 3].line[i]);
            if (r < total && !done[r]) done[r] = true, have++;
        }
    if (code == BOIDS_EXIT_OK && st == BOIDS_OK) {
        first.shard = first.shards = 1;
        st = boids_exp_manifest_write(out, &first);
    }
    for (int k = 0; code == BOIDS_EXIT_OK && st == BOIDS_OK && k < tables; ++k) {
        const lines **src = malloc(sizeof *src * (size_t)ndirs);
        if (!src) {
            st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
            break;
        }
        for (int d = 0; d < ndirs; ++d) src[d] = &all[d * 3 + k];
        char path[4200];
        path_in(path, sizeof path, out, table_names[k]);
        st = rewrite_sorted(path, all[k].count ? all[k].line[0] : "", src, ndirs, done, total);
        free(src);
    }
    for (int i = 0; all && i < ndirs * 3; ++i) lines_free(&all[i]);
    free(all);
    free(done);
    if (code == BOIDS_EXIT_OK && st != BOIDS_OK) {
        fprintf(stderr, "boids experiment-merge: %s\n", boids_last_error());
        code = BOIDS_EXIT_RUNTIME;
    }
    if (code == BOIDS_EXIT_OK) {
        printf("boids experiment-merge: %d director%s into %s: %llu of %llu runs\n", ndirs, ndirs == 1 ? "y" : "ies",
               out, (unsigned long long)have, (unsigned long long)total);
        if (have < total) {
            fprintf(stderr, "boids experiment-merge: %llu runs are missing (a shard did not finish): "
                            "`boids experiment --resume %s` runs them\n", (unsigned long long)(total - have), out);
            code = BOIDS_EXIT_RUNTIME;
        } else if (boids_exp_plot(out, &first) != BOIDS_OK) {
            fprintf(stderr, "boids experiment-merge: plots: %s\n", boids_last_error());
            code = BOIDS_EXIT_RUNTIME;
        }
    }
    free(first.obstacles);
    return code;
}
