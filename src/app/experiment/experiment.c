#define _GNU_SOURCE /* open_memstream */
#include "app/experiment/experiment.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "app/metrics_log.h"
#include "app/progress.h"
#include "app/experiment/files.h"
#include "app/experiment/plots.h"
#include "base/clock.h"
#include "base/environment.h"
#include "base/interrupt.h"
#include "base/error.h"
#include "base/parse.h"

/* ---- running ------------------------------------------------------------------------------- */

/* Where finished runs go: the tables, the progress line. Shared by the CPU jobs (locked). */
typedef struct sink {
    pthread_mutex_t lock;
    boids_exp_tables *tables;
    boids_status status; /* the first failure (a write, a run): every job stops taking runs */
    uint64_t todo, finished;
    boids_progress progress;
    bool batched;
    bool noted; /* the cost note said (once, for the first world) */
} sink;

/* Whether the jobs go on: no failure, no signal. */
static bool going_on(sink *k)
{
    pthread_mutex_lock(&k->lock);
    bool on = k->status == BOIDS_OK && !boids_interrupted();
    pthread_mutex_unlock(&k->lock);
    return on;
}

/* One run's rows while it runs. */
typedef struct run_rows {
    uint64_t run;
    FILE *ev, *me; /* open_memstream over the two buffers */
    char *ev_buf, *me_buf;
    size_t ev_len, me_len;
    uint64_t last_row; /* the step of its last metrics row (UINT64_MAX: none) */
    bool done;
} run_rows;

/* A metrics.csv row of the run at `step`: its metrics, and its field measures where --field
 * asks for them (f, else NULL). */
static void row_metrics(const boids_experiment *e, run_rows *r, const boids_metrics *m,
                        const boids_field *f, uint64_t step, float dt)
{
    if (!e->metrics_every || r->last_row == step) return;
    char prefix[1024];
    boids_experiment_row_prefix(e, r->run, prefix, sizeof prefix);
    boids_metrics at = *m;
    at.step = step;
    fprintf(r->me, "%s,", prefix);
    boids_metrics_csv_row(r->me, &at, dt);
    if (f) fputc(',', r->me), boids_field_csv_row(r->me, f);
    fputc('\n', r->me);
    r->last_row = step;
}

/* Hands a finished run to the tables: its runs.csv row, of its last state's metrics and (f, where
 * --field asks for them) field measures. */
static void finish_run(const boids_experiment *e, sink *k, run_rows *r, const boids_metrics *m,
                       const boids_field *f, uint64_t steps, bool stopped)
{
    fflush(r->ev);
    fflush(r->me);
    char prefix[1024], row[2048];
    boids_experiment_row_prefix(e, r->run, prefix, sizeof prefix);
    int n = snprintf(row, sizeof row, "%s,%llu,%s,%u,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%u,%.9g", prefix,
                     (unsigned long long)steps, stopped ? "catches" : "steps", m->catches, m->alive,
                     m->polarization, m->mean_nn, m->mean_speed, m->min_speed, m->max_speed,
                     m->groups, m->milling);
    if (f) /* boids_field_csv_row's columns (the prefix is under 1024 bytes: the row fits) */
        n += snprintf(row + n, sizeof row - (size_t)n, ",%.9g,%.9g,%u,%.9g", f->xi, f->xi_speed,
                      f->n_c, f->diameter);
    snprintf(row + n, sizeof row - (size_t)n, "\n");
    pthread_mutex_lock(&k->lock);
    if (k->status == BOIDS_OK) {
        k->status = boids_exp_tables_append(k->tables, r->run, r->ev_buf, r->ev_len, r->me_buf,
                                            r->me_len, row);
        if (k->status == BOIDS_OK) k->finished++;
    }
    boids_progress_update(&k->progress, k->finished);
    pthread_mutex_unlock(&k->lock);
    r->done = true;
}

/* The world of runs [first, first + n) of one combination, as its replicas; the explicit
 * obstacles stand in every replica. */
static boids_status batch_world(const boids_experiment *e, boids_backend backend, boids_gl *gl,
                                uint64_t first, uint32_t n, boids_world **w)
{
    const uint32_t combo = (uint32_t)(first / e->runs);
    boids_world_def d;
    boids_status st = boids_experiment_world(e, combo, e->seed + first % e->runs, &d);
    if (st != BOIDS_OK) return st;
    d.backend = backend;
    d.gl = gl;
    d.threads = 1;
    d.replicas = n;
    d.count *= n; /* (the combination's count: boids may be swept) */
    d.event_mask = 1u << BOIDS_EVENT_CATCH;
    boids_obstacle *obs = NULL;
    if (e->def.obstacle_count) {
        obs = malloc(sizeof *obs * e->def.obstacle_count * n);
        if (!obs) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for obstacles");
        for (uint32_t r = 0; r < n; ++r)
            for (uint32_t i = 0; i < e->def.obstacle_count; ++i) {
                obs[r * e->def.obstacle_count + i] = e->def.obstacles[i];
                obs[r * e->def.obstacle_count + i].replica = r;
            }
        d.obstacles = obs;
        d.obstacle_count = e->def.obstacle_count * n;
    }
    boids_app_warn_floats(&d); /* (the first run of a process says it) */
    st = boids_world_create(&d, w);
    free(obs);
    return st;
}

/* A batch in flight: its world, and each run's rows, metrics, field measures and state. */
typedef struct batch {
    const boids_experiment *e;
    boids_world *w;
    boids_world_info info;
    uint32_t n, open_runs;
    run_rows *rows;
    boids_metrics *m;
    boids_field *f; /* with --field, else NULL */
    boids_replica_status *rs;
} batch;

static boids_status batch_open(batch *b, uint64_t first)
{
    const uint32_t n = b->n;
    b->open_runs = n;
    b->rows = calloc(n, sizeof *b->rows);
    b->m = malloc(sizeof *b->m * n);
    b->rs = malloc(sizeof *b->rs * n);
    b->f = b->e->field ? malloc(sizeof *b->f * n) : NULL;
    if (!b->rows || !b->m || !b->rs || (b->e->field && !b->f))
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u runs", n);
    for (uint32_t r = 0; r < n; ++r) {
        run_rows *rr = &b->rows[r];
        rr->run = first + r;
        rr->last_row = UINT64_MAX;
        rr->ev = open_memstream(&rr->ev_buf, &rr->ev_len);
        rr->me = open_memstream(&rr->me_buf, &rr->me_len);
        if (!rr->ev || !rr->me)
            return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u runs", n);
    }
    return BOIDS_OK;
}

static void batch_close(batch *b)
{
    for (uint32_t r = 0; b->rows && r < b->n; ++r) {
        if (b->rows[r].ev) fclose(b->rows[r].ev);
        if (b->rows[r].me) fclose(b->rows[r].me);
        free(b->rows[r].ev_buf);
        free(b->rows[r].me_buf);
    }
    free(b->rows), free(b->m), free(b->rs), free(b->f);
    boids_world_destroy(b->w);
}

/* Every run's metrics now, and with --field its field measures. */
static boids_status batch_measure(batch *b)
{
    boids_status st = boids_world_metrics(b->w, b->m, b->n);
    if (st == BOIDS_OK && b->f) st = boids_world_field(b->w, &b->e->field_options, b->f, b->n);
    return st;
}

/* Run r's field measures, or NULL without --field. */
static const boids_field *field_of(const batch *b, uint32_t r) { return b->f ? &b->f[r] : NULL; }

/* The catches of the steps just taken, each into its run's events. */
static boids_status batch_events(batch *b)
{
    const uint32_t per = b->info.count / b->n, pred_per = b->info.predators / b->n;
    boids_events ev;
    boids_status st = boids_world_take_events(b->w, &ev);
    for (size_t i = 0; st == BOIDS_OK && i < ev.count; ++i) {
        const boids_event *x = &ev.events[i];
        if (x->kind != BOIDS_EVENT_CATCH) continue;
        run_rows *r = &b->rows[x->subject / per];
        char prefix[1024];
        boids_experiment_row_prefix(b->e, r->run, prefix, sizeof prefix);
        fprintf(r->ev, "%s,", prefix);
        boids_catch_csv_row(r->ev, x, b->info.dt, x->subject % per,
                            pred_per ? x->other % pred_per : x->other);
        fputc('\n', r->ev);
    }
    return st;
}

/* After `count` steps: the metrics rows due, and the runs that ended (their replica stopped, or
 * the last step) handed to the tables. */
static boids_status batch_rows(batch *b, sink *k, uint64_t count)
{
    const boids_experiment *e = b->e;
    const uint32_t K = e->metrics_every;
    boids_status st = boids_world_replicas(b->w, b->rs, b->n, NULL);
    bool due = K && count % K == 0, ending = count >= e->steps, newly_stopped = false;
    for (uint32_t r = 0; st == BOIDS_OK && r < b->n; ++r)
        newly_stopped |= !b->rows[r].done && b->rs[r].stopped;
    if (st == BOIDS_OK && (due || ending || newly_stopped)) st = batch_measure(b);
    for (uint32_t r = 0; st == BOIDS_OK && r < b->n; ++r) {
        if (b->rows[r].done) continue;
        /* a stopped replica stands still from the step after its last catch on */
        const uint64_t end = b->rs[r].stopped ? b->rs[r].stop_step + 1 : e->steps;
        const boids_field *f = field_of(b, r);
        if (due && count <= end) row_metrics(e, &b->rows[r], &b->m[r], f, count, b->info.dt);
        if (b->rs[r].stopped || ending) {
            row_metrics(e, &b->rows[r], &b->m[r], f, end, b->info.dt);
            finish_run(e, k, &b->rows[r], &b->m[r], f, end, b->rs[r].stopped);
            b->open_runs--;
        }
    }
    return st;
}

/* Steps `steps` steps in pieces growing from one while a piece takes under a twentieth of a
 * second, each waited for, so a signal is seen within about a second however slow a step (kit at
 * 100 000 boids once went on for minutes after Ctrl-C). *done: the steps taken, fewer than asked
 * where the jobs stopped. The rows do not depend on it: they are made where run_batch's pieces
 * end. */
static boids_status step_watching(boids_world *w, uint32_t steps, sink *k, uint32_t *done)
{
    uint32_t piece = 1;
    *done = 0;
    while (*done < steps && going_on(k)) {
        const uint32_t now = piece < steps - *done ? piece : steps - *done;
        const double t0 = boids_clock_seconds();
        boids_status st = boids_world_step(w, now); /* (Ctrl-C inside it: run_batch's) */
        if (st != BOIDS_OK) return st;
        boids_world_finish(w);
        *done += now;
        if (boids_clock_seconds() - t0 < 0.05 && piece < 32) piece *= 2;
    }
    return BOIDS_OK;
}

/* Runs [first, first + n) of one combination as the replicas of one world (n = 1 on the CPU):
 * steps in pieces ending at every 32nd step (to see which replicas stopped) and every
 * metrics_every-th; a replica's rows depend only on its own steps, so they are the same in any
 * batch. Stops early (its runs left unfinished) when interrupted. */
static boids_status run_batch(const boids_experiment *e, boids_backend backend, boids_gl *gl,
                              uint64_t first, uint32_t n, sink *k)
{
    batch b = {.e = e, .n = n};
    boids_status st = batch_world(e, backend, gl, first, n, &b.w);
    if (st == BOIDS_OK) {
        pthread_mutex_lock(&k->lock);
        const bool note = !k->noted;
        k->noted = true;
        pthread_mutex_unlock(&k->lock);
        if (note) boids_app_cost_note(b.w, "boids experiment"); /* before the wait */
        boids_world_get_info(b.w, &b.info);
        st = batch_open(&b, first);
    }
    const uint32_t K = e->metrics_every;
    if (st == BOIDS_OK && K) {
        st = batch_measure(&b);
        for (uint32_t r = 0; st == BOIDS_OK && r < n; ++r)
            row_metrics(e, &b.rows[r], &b.m[r], field_of(&b, r), 0, b.info.dt);
    }
    uint64_t count = 0;
    while (st == BOIDS_OK && b.open_runs && going_on(k)) {
        uint64_t step = e->steps - count;
        if (step > 32 - count % 32) step = 32 - count % 32;
        if (K && step > K - count % K) step = K - count % K;
        uint32_t done = 0;
        if (step > 0) st = step_watching(b.w, (uint32_t)step, k, &done);
        if (done < step) break; /* a signal or a failure: its runs left unfinished */
        count += step;
        if (st == BOIDS_OK) st = batch_events(&b);
        if (st == BOIDS_OK) st = batch_rows(&b, k, count);
        if (st == BOIDS_OK && step == 0) break; /* steps = 0: measured and done */
    }
    batch_close(&b);
    /* a step or the metrics a signal stopped (the CPU backend and core/metrics.c look at it
     * too): the runs stay unfinished, as when it comes between two steps; not a failure */
    if (st == BOIDS_ERR_INTERRUPTED && boids_interrupted()) st = BOIDS_OK;
    return st;
}

/* The CPU's runs: `jobs` threads, each taking the next run not yet done. */
typedef struct cpu_jobs {
    const boids_experiment *e;
    sink *k;
    const bool *done;
    uint64_t next, end;
    pthread_mutex_t lock;
    boids_status status;
} cpu_jobs;

static void *cpu_worker(void *arg)
{
    cpu_jobs *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        while (j->next < j->end && j->done[j->next]) j->next++;
        uint64_t run =
            j->next < j->end && j->status == BOIDS_OK && going_on(j->k) ? j->next++ : UINT64_MAX;
        pthread_mutex_unlock(&j->lock);
        if (run == UINT64_MAX) return NULL;
        boids_status st = run_batch(j->e, BOIDS_BACKEND_CPU, NULL, run, 1, j->k);
        if (st != BOIDS_OK) {
            pthread_mutex_lock(&j->lock);
            if (j->status == BOIDS_OK) {
                j->status = st;
                fprintf(stderr, "boids experiment: run %llu: %s\n", (unsigned long long)run,
                        boids_last_error());
            }
            pthread_mutex_unlock(&j->lock);
        }
    }
}

static boids_status run_cpu(const boids_experiment *e, sink *k, const bool *done, uint64_t first,
                            uint64_t end, uint32_t jobs)
{
    cpu_jobs j = {e, k, done, first, end, PTHREAD_MUTEX_INITIALIZER, BOIDS_OK};
    pthread_t *threads = malloc(sizeof *threads * jobs);
    if (!threads) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u jobs", jobs);
    uint32_t started = 0;
    for (; started < jobs; ++started)
        if (pthread_create(&threads[started], NULL, cpu_worker, &j) != 0) break;
    if (started == 0) cpu_worker(&j);
    for (uint32_t i = 0; i < started; ++i) pthread_join(threads[i], NULL);
    free(threads);
    return j.status;
}

/* Replicas in one world of `count` boids: `batch` where given, else about 2^20 boids in all. */
static uint32_t batch_size(uint32_t batch, uint32_t count)
{
    if (batch) return batch;
    batch = (1u << 20) / (count ? count : 1);
    return batch < 1 ? 1 : batch > BOIDS_MAX_REPLICAS ? BOIDS_MAX_REPLICAS : batch;
}

/* The GPU's runs: batches of consecutive runs of one combination not yet done, as replicas. */
static boids_status run_gpu(const boids_experiment *e, sink *k, const bool *done, uint64_t first,
                            uint64_t end, uint32_t batch)
{
    boids_gl *gl;
    boids_status st = boids_gl_create_headless(&gl);
    if (st != BOIDS_OK) return st;
    for (uint64_t r = first; r < end && st == BOIDS_OK && going_on(k);) {
        if (done[r]) {
            ++r;
            continue;
        }
        const uint64_t combo_end = (r / e->runs + 1) * e->runs;
        boids_world_def d; /* (checked before any run) */
        st = boids_experiment_world(e, (uint32_t)(r / e->runs), e->seed, &d);
        const uint32_t most = batch_size(batch, d.count);
        uint32_t n = 0;
        while (st == BOIDS_OK && r + n < end && r + n < combo_end && n < most && !done[r + n]) ++n;
        st = run_batch(e, BOIDS_BACKEND_GPU, gl, r, n, k);
        r += n;
    }
    boids_gl_destroy(gl);
    return st;
}

/* ---- the command lines ---------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: boids experiment SCENARIO.ini --runs R --out DIR [options]\n"
        "       boids experiment --resume DIR [--jobs J] [--batch B]\n"
        "       boids experiment-merge OUT DIR1 DIR2 ...\n"
        "Runs a world R times (seeds S .. S+R-1) for every combination of the sweeps and writes\n"
        "DIR/runs.csv, events.csv, metrics.csv (with --metrics-every), manifest.ini and plots. A "
        "run\n"
        "counts as done once its rows are on disk; Ctrl-C keeps every finished run, and --resume\n"
        "runs the rest. One process at a time holds DIR.\n\n");
    boids_options_print(f, BOIDS_IN_EXPERIMENT);
}

static int fail(const char *what)
{
    fprintf(stderr, "boids experiment: %s%s%s\n", what ? what : "", what ? ": " : "",
            boids_last_error());
    return BOIDS_EXIT_USAGE;
}

static uint32_t cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1;
}

/* The command line as the manifest records it. Control characters (a newline in a name) would
 * break the manifest's lines, and are refused with the rest of the bad input. */
static boids_status record_command(int argc, char **argv, boids_experiment *e)
{
    int n = snprintf(e->command, sizeof e->command, "boids");
    for (int i = 0; i < argc; ++i) {
        for (const char *c = argv[i]; *c; ++c)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                return boids_fail(BOIDS_E_USAGE,
                                  "argument %d ('%.40s...') holds a control character, which an "
                                  "experiment's manifest cannot record",
                                  i, argv[i]);
        if (n > 0 && (size_t)n < sizeof e->command)
            n += snprintf(e->command + n, sizeof e->command - (size_t)n, " %s", argv[i]);
    }
    if (n < 0 || (size_t)n >= sizeof e->command)
        return boids_fail(BOIDS_E_USAGE, "the command line is longer than %zu characters",
                          sizeof e->command - 1);
    return BOIDS_OK;
}

/* --resume DIR [--jobs J] [--batch B]: the rest is the manifest's. */
static int prepare_resume(const boids_cli *cli, boids_experiment *e)
{
    for (int o = 0; o < BOIDS_OPTION_COUNT; ++o)
        if (cli->given[o] && o != BOIDS_OPT_RESUME && o != BOIDS_OPT_JOBS && o != BOIDS_OPT_BATCH) {
            fprintf(
                stderr,
                "boids experiment: --resume takes only --jobs and --batch (not %s): the rest is in "
                "%s/manifest.ini\n",
                cli->given[o], cli->resume);
            return BOIDS_EXIT_USAGE;
        }
    if (cli->scenario_path) {
        fprintf(stderr,
                "boids experiment: --resume takes no scenario: the world is in %s/manifest.ini\n",
                cli->resume);
        return BOIDS_EXIT_USAGE;
    }
    char manifest[4200];
    struct stat sb;
    snprintf(manifest, sizeof manifest, "%s/manifest.ini", cli->resume);
    if (stat(cli->resume, &sb) == 0 && S_ISDIR(sb.st_mode) && stat(manifest, &sb) != 0 &&
        errno == ENOENT) { /* stopped before its manifest was written: nothing to go on from */
        fprintf(stderr,
                "boids experiment: --resume: %s has no manifest.ini: no experiment was started "
                "there (one stopped before it wrote it); start it again with --out %s\n",
                cli->resume, cli->resume);
        return BOIDS_EXIT_USAGE;
    }
    if (boids_exp_manifest_read(cli->resume, e) != BOIDS_OK) return fail("--resume");
    if (strcmp(e->version, BOIDS_VERSION_STRING) != 0) {
        fprintf(stderr,
                "boids experiment: --resume: %s was written by boids %s, this is %s: its runs "
                "would not "
                "be comparable; start it again\n",
                cli->resume, e->version, BOIDS_VERSION_STRING);
        return BOIDS_EXIT_USAGE;
    }
    return BOIDS_EXIT_OK;
}

/* The sweeps of the command line, each value checked, and their combinations. */
static int parse_sweeps(const boids_cli *cli, boids_experiment *e)
{
    e->combos = 1;
    e->nsweeps = cli->nsweeps;
    for (int k = 0; k < cli->nsweeps; ++k) {
        if (boids_experiment_parse_sweep(cli->sweeps[k], e->def.model, &e->def.params,
                                         &e->sweeps[k]) != BOIDS_OK)
            return fail(NULL);
        for (int j = 0; j < k; ++j)
            if (strcmp(e->sweeps[j].key, e->sweeps[k].key) == 0) {
                fprintf(stderr, "boids experiment: --sweep %s: %s is swept twice\n", cli->sweeps[k],
                        e->sweeps[k].key);
                return BOIDS_EXIT_USAGE;
            }
        if ((uint64_t)e->combos * e->sweeps[k].count * e->runs > BOIDS_EXP_MAX_RUNS) {
            fprintf(stderr,
                    "boids experiment: --sweep: more than %u runs in all (--runs %u times the "
                    "combinations of the sweeps)\n",
                    BOIDS_EXP_MAX_RUNS, e->runs);
            return BOIDS_EXIT_USAGE;
        }
        e->combos *= e->sweeps[k].count;
    }
    /* every combination's world must be one the library takes: checked before anything is made
     * (millions of them take a while: a progress line on a terminal, Ctrl-C stops) */
    boids_progress progress;
    boids_progress_start(&progress, e->combos, "combinations");
    snprintf(progress.note, sizeof progress.note, "checked before any run");
    for (uint32_t c = 0; c < e->combos && !boids_interrupted(); ++c) {
        boids_world_def d;
        if (boids_experiment_world(e, c, e->seed, &d) != BOIDS_OK) {
            boids_progress_end(&progress);
            char label[512];
            boids_experiment_label(e, c, label, sizeof label);
            fprintf(stderr, "boids experiment: --sweep: %s: %s\n", label, boids_last_error());
            return BOIDS_EXIT_USAGE;
        }
        if (c % 4096 == 0) boids_progress_update(&progress, c);
    }
    boids_progress_end(&progress);
    return boids_interrupted() ? boids_interrupt_exit_code() : BOIDS_EXIT_OK;
}

/* A new experiment from the command line: everything checked before DIR is made. */
static int prepare_new(const boids_cli *cli, boids_experiment *e)
{
    if (!cli->given[BOIDS_OPT_RUNS] || !cli->out) {
        fprintf(stderr, "boids experiment: %s is required (boids experiment --help)\n",
                !cli->given[BOIDS_OPT_RUNS] ? "--runs R" : "--out DIR");
        return BOIDS_EXIT_USAGE;
    }
    e->def = cli->def;
    e->def.gl = NULL;
    e->world_given = cli->world_given;
    e->dims = cli->scenario.dims;
    boids_world_def_resolve_size(&e->def); /* a run's world, as a world of its own has it */
    if (e->def.obstacle_count) {
        e->obstacles = malloc(sizeof *e->obstacles * e->def.obstacle_count);
        if (!e->obstacles) return fail("out of memory");
        memcpy(e->obstacles, e->def.obstacles, sizeof *e->obstacles * e->def.obstacle_count);
        e->def.obstacles = e->obstacles;
    }
    e->runs = cli->runs;
    e->seed = cli->def.seed;
    e->steps = cli->steps;
    e->metrics_every = cli->given[BOIDS_OPT_METRICS_EVERY] ? cli->metrics_every : 0;
    if (cli->field && !e->metrics_every) {
        fprintf(stderr, "boids experiment: --field adds its columns to the rows of metrics.csv, "
                        "and this experiment writes none: give --metrics-every K\n");
        return BOIDS_EXIT_USAGE;
    }
    e->field = cli->field;
    e->field_options = cli->field_options;
    e->shard = cli->shard, e->shards = cli->shards;
    snprintf(e->version, sizeof e->version, "%s", BOIDS_VERSION_STRING);
    int code = parse_sweeps(cli, e);
    if (code != BOIDS_EXIT_OK) return code;
    if (boids_exp_dir_new(cli->out, true) != BOIDS_OK) return fail("--out");
    return BOIDS_EXIT_OK;
}

/* The renderer for the manifest (the CPU's name for the CPU), and a clear error without GL. */
static int name_renderer(boids_experiment *e, bool resume, const char *out)
{
    if (e->def.backend != BOIDS_BACKEND_GPU) {
        snprintf(e->renderer, sizeof e->renderer, "CPU reference");
        return BOIDS_EXIT_OK;
    }
    boids_gl *probe = NULL;
    if (boids_gl_create_headless(&probe) != BOIDS_OK)
        return boids_app_gl_error("boids experiment", "try --backend cpu");
    if (resume && strcmp(e->renderer, boids_gl_renderer(probe)) != 0)
        fprintf(stderr, "boids experiment: note: %s ran on %s, this machine has %s\n", out,
                e->renderer, boids_gl_renderer(probe));
    snprintf(e->renderer, sizeof e->renderer, "%s", boids_gl_renderer(probe));
    boids_gl_destroy(probe);
    return BOIDS_EXIT_OK;
}

/* Runs this shard's runs not yet done into the open tables; prints what happened. */
static int run_all(const boids_experiment *e, boids_exp_tables *t, const char *out, uint32_t jobs,
                   uint32_t batch)
{
    uint64_t first, end;
    boids_experiment_slice(e, &first, &end);
    sink k = {PTHREAD_MUTEX_INITIALIZER,           t,    BOIDS_OK, 0, 0, {0},
              e->def.backend == BOIDS_BACKEND_GPU, false};
    for (uint64_t r = first; r < end; ++r) k.todo += !t->done[r];
    bool count_swept = false;
    for (int s = 0; s < e->nsweeps; ++s) count_swept |= !strcmp(e->sweeps[s].key, "boids");
    char boids[32] = "swept boids";
    if (!count_swept) snprintf(boids, sizeof boids, "%u boids", e->def.count);
    printf("boids %s experiment: %llu run%s of %s (%u combination%s x %u), ", BOIDS_VERSION_STRING,
           (unsigned long long)boids_experiment_total(e), boids_experiment_total(e) == 1 ? "" : "s",
           boids, e->combos, e->combos == 1 ? "" : "s", e->runs);
    if (end > first)
        printf("runs %llu..%llu", (unsigned long long)first, (unsigned long long)(end - 1));
    else
        printf("no runs");
    printf(" in this shard %u/%u, %llu to do, on %s (%s)\n", e->shard, e->shards,
           (unsigned long long)k.todo, e->def.backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu",
           e->renderer);
    fflush(stdout);
    boids_progress_start(&k.progress, k.todo, "runs");
    boids_status st = e->def.backend == BOIDS_BACKEND_GPU
                          ? run_gpu(e, &k, t->done, first, end, batch)
                          : run_cpu(e, &k, t->done, first, end, jobs);
    boids_progress_end(&k.progress);
    if (st == BOIDS_OK) st = k.status;
    boids_status fin = boids_exp_tables_finish(t);
    double wall = boids_clock_seconds() - k.progress.t0;
    if (st != BOIDS_OK || fin != BOIDS_OK) {
        fprintf(stderr,
                "boids experiment: %s (the runs finished before it are kept: boids experiment "
                "--resume %s)\n",
                boids_last_error(), out);
        return BOIDS_EXIT_RUNTIME;
    }
    if (boids_interrupted()) {
        fprintf(
            stderr,
            "boids experiment: interrupted after %llu of %llu runs (%.1f s); their rows are in %s: "
            "boids experiment --resume %s runs the rest\n",
            (unsigned long long)k.finished, (unsigned long long)k.todo, wall, out, out);
        return boids_interrupt_exit_code();
    }
    if (k.todo == 0) /* a resume of a finished experiment ("0 runs in 0.00 s" said nothing) */
        printf("  every run was done already: %s/runs.csv, events.csv%s are whole\n", out,
               e->metrics_every ? ", metrics.csv" : "");
    else
        printf("  %llu runs in %.2f s (%.1f ms a run): %s/runs.csv, events.csv%s\n",
               (unsigned long long)k.finished, wall,
               k.finished ? wall * 1e3 / (double)k.finished : 0.0, out,
               e->metrics_every ? ", metrics.csv" : "");
    if (e->shards == 1 && boids_exp_plot(out, e) != BOIDS_OK) {
        fprintf(stderr, "boids experiment: plots: %s\n", boids_last_error());
        return BOIDS_EXIT_RUNTIME;
    }
    return BOIDS_EXIT_OK;
}

int boids_experiment_main(int argc, char **argv)
{
    static boids_experiment e;
    static boids_cli cli;
    memset(&e, 0, sizeof e);
    if (boids_cli_parse_command(argc, argv, BOIDS_IN_EXPERIMENT, &cli) != BOIDS_OK)
        return boids_app_error(&cli, NULL);
    if (cli.help) {
        usage(stdout);
        return BOIDS_EXIT_OK;
    }
    if (boids_environment_check() != BOIDS_OK) return fail(NULL); /* whatever the backend */
    if (record_command(argc, argv, &e) != BOIDS_OK) return fail(NULL);
    const char *out = cli.resume ? cli.resume : cli.out;
    int code = BOIDS_EXIT_OK;
    if (cli.resume) {
        code = prepare_resume(&cli, &e);
    } else {
        boids_cli_resolve_backend(&cli);
        code = prepare_new(&cli, &e);
    }
    boids_exp_lock lock = {.fd = -1};
    if (code == BOIDS_EXIT_OK && boids_exp_lock_take(&lock, out, false) != BOIDS_OK)
        code = fail(cli.resume ? "--resume" : "--out");
    if (code == BOIDS_EXIT_OK) code = name_renderer(&e, cli.resume != NULL, out);
    if (code == BOIDS_EXIT_OK && !cli.resume && boids_exp_manifest_write(out, &e) != BOIDS_OK)
        code = fail("--out");
    boids_exp_tables t = {0};
    if (code == BOIDS_EXIT_OK && boids_exp_tables_open(&t, out, &e, cli.resume != NULL) != BOIDS_OK)
        code = fail(cli.resume ? "--resume" : "--out");
    if (code == BOIDS_EXIT_OK)
        code = run_all(&e, &t, out, cli.jobs ? cli.jobs : cores(), cli.batch);
    boids_exp_lock_release(&lock);
    free(e.obstacles);
    return code;
}

int boids_experiment_merge_main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return BOIDS_EXIT_OK;
    }
    if (argc < 3) {
        fprintf(stderr,
                "boids experiment-merge: usage: boids experiment-merge OUT DIR1 DIR2 ...\n");
        return BOIDS_EXIT_USAGE;
    }
    return boids_exp_merge(argv[1], argv + 2, argc - 2);
}
