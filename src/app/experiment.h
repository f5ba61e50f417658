/* `boids experiment`: many runs of one world, over seeds and parameter sweeps, written as tidy
 * tables into a directory (runs.csv, events.csv, metrics.csv, manifest.ini, plots), resumable,
 * and sliceable into shards that `boids experiment-merge` joins.
 *
 *   experiment.c        the command lines, the plan, the runs (CPU jobs in parallel; GPU runs
 *                       batched as replicas of one world), progress and Ctrl-C
 *   experiment_files.c  the directory, the manifest, the tables (append, resume, finish, merge)
 *   plot.c              the figures, drawn with PLplot
 *
 * A run is numbered combination x runs + repetition; its seed is seed + repetition (the same
 * seeds for every combination of the sweeps), and its result depends on nothing else: not the
 * jobs, the batch, the order or the shard. */
#ifndef BOIDS_APP_EXPERIMENT_H
#define BOIDS_APP_EXPERIMENT_H

#include <stdio.h>

#include "boids.h"

#define BOIDS_EXP_MAX_SWEEPS 8
#define BOIDS_EXP_MAX_VALUES 1024
#define BOIDS_EXP_MAX_RUNS 10000000u /* runs in one experiment (their done flags are in memory) */

/* One swept parameter and its values. */
typedef struct boids_sweep {
    char key[64];
    uint32_t count;
    float values[BOIDS_EXP_MAX_VALUES];
} boids_sweep;

/* What an experiment is: its manifest says all of it. */
typedef struct boids_experiment {
    boids_world_def def;     /* the world of every run, before the sweeps and the seed */
    boids_obstacle *obstacles; /* def's explicit obstacles (owned) */
    uint32_t runs;           /* runs per combination */
    uint64_t seed;           /* the first run's seed */
    uint32_t steps;          /* most steps per run (a run also ends on its stop condition) */
    uint32_t metrics_every;  /* steps between rows of metrics.csv; 0: no metrics.csv */
    uint32_t shard, shards;  /* this directory holds slice shard of shards (1-based) */
    boids_sweep sweeps[BOIDS_EXP_MAX_SWEEPS];
    int nsweeps;
    uint32_t combos;         /* combinations of the sweeps' values (1 without sweeps) */
    char version[32];        /* the boids that wrote it */
    char renderer[256];      /* the GL renderer (GPU) or "CPU reference" */
    char command[8192];      /* the command line that started it */
} boids_experiment;

/* Runs in all, and this shard's [first, end). */
uint64_t boids_experiment_total(const boids_experiment *e);
void boids_experiment_slice(const boids_experiment *e, uint64_t *first, uint64_t *end);
/* Combination c's value of sweep k. */
float boids_experiment_value(const boids_experiment *e, uint32_t combo, int k);
/* Combination c as "key = value, key = value" ("" without sweeps). */
void boids_experiment_label(const boids_experiment *e, uint32_t combo, char *buf, size_t size);
/* --sweep KEY=A:B:COUNT or KEY=v1,v2,... for the model, each value checked as --set would be. */
boids_status boids_experiment_parse_sweep(const char *spec, boids_model model, const boids_params *base,
                                          boids_sweep *out);
/* The leading columns of every table's row of a run: "run,seed,<value of each sweep>". */
void boids_experiment_row_prefix(const boids_experiment *e, uint64_t run, char *buf, size_t size);

/* ---- experiment_files.c ---- */

/* The tables' headers (after run,seed,<sweep keys>). */
#define BOIDS_EXP_RUNS_COLUMNS "steps,stop,catches,alive,polarization,mean_nn,mean_speed,min_speed,max_speed,groups"

/* An experiment's directory is a small database that never lies:
 * - a run counts as done only once all its rows are durably written: its events and metrics rows
 *   are appended and synced first, its runs.csv row after them (rows of several runs are synced
 *   together, at most a quarter of a second apart), so a crash or a full disk leaves at worst
 *   runs without their runs.csv row, which --resume runs again;
 * - --resume and experiment-merge check every row they keep: the header, the number of columns,
 *   the run, its seed and sweep values against the manifest, the numbers, each run once, a done
 *   run's metrics and catches all there; a row that does not belong is refused (exit 2, FILE:LINE);
 * - one process at a time holds a directory (boids_exp_lock_take);
 * - whatever signal comes, the directory stays resumable: tables are rewritten through temporary
 *   files, and --resume removes those a killed process left. */
typedef struct boids_exp_tables {
    char dir[4096];
    const boids_experiment *e;
    FILE *runs, *events, *metrics;
    bool *done;              /* per run of the experiment: its row is in runs.csv */
    uint64_t done_count;
    char *pending;           /* runs.csv rows whose other rows are written but not yet synced */
    size_t pending_len, pending_cap;
    double synced_at;        /* when the tables were last synced */
} boids_exp_tables;

/* A directory held by this process: DIR/.lock, locked (flock) while the process lives. */
typedef struct boids_exp_lock {
    int fd;
} boids_exp_lock;

/* Takes the lock of DIR (shared: a reader's, which only a writer excludes); BOIDS_E_USAGE naming
 * the process that holds it. */
boids_status boids_exp_lock_take(boids_exp_lock *l, const char *dir, bool shared);
void boids_exp_lock_release(boids_exp_lock *l);
/* DIR for a new experiment: created if missing (and `create`); refused (exit 2 messages naming
 * --out) if it holds an experiment or anything else. */
boids_status boids_exp_dir_new(const char *dir, bool create);
/* Writes DIR/manifest.ini. */
boids_status boids_exp_manifest_write(const char *dir, const boids_experiment *e);
/* Reads DIR/manifest.ini into *e (e->def.gl NULL). */
boids_status boids_exp_manifest_read(const char *dir, boids_experiment *e);
/* Opens the tables of DIR: new ones with their headers, or (resume) the existing ones, checked
 * row by row, keeping the rows of the runs that are done. */
boids_status boids_exp_tables_open(boids_exp_tables *t, const char *dir, const boids_experiment *e, bool resume);
/* Appends one finished run's rows (text lines, each ending in a newline). */
boids_status boids_exp_tables_append(boids_exp_tables *t, uint64_t run, const char *events, size_t events_len,
                                     const char *metrics, size_t metrics_len, const char *runs_row);
/* Syncs and closes the tables, each sorted by run (rows of a run keep their order). */
boids_status boids_exp_tables_finish(boids_exp_tables *t);
/* boids experiment-merge OUT DIR...: exit status. */
int boids_exp_merge(const char *out, char **dirs, int ndirs);

/* ---- plot.c ---- */

/* The figures of a finished directory from its tables: ages.png (the histogram of caught ages,
 * 10 bins, one panel per combination) where catches have ages, metrics.png (the mean over the
 * runs against time with a band of one standard deviation, one line per combination) where
 * there is a metrics.csv. Prints the names of what it wrote. */
boids_status boids_exp_plot(const char *dir, const boids_experiment *e);

/* ---- experiment.c ---- */
int boids_experiment_main(int argc, char **argv);
int boids_experiment_merge_main(int argc, char **argv);

#endif
