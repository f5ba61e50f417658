/* An experiment's directory: the lock, the manifest, the tables (append, resume, finish) and
 * experiment-merge. */
#ifndef BOIDS_APP_EXPERIMENT_FILES_H
#define BOIDS_APP_EXPERIMENT_FILES_H

#include <stdio.h>

#include "app/experiment/design.h"

/* The tables' headers (after run,seed and a column per swept parameter: its key, or param_KEY
 * where the table has a column of that name). */
#define BOIDS_EXP_RUNS_COLUMNS                                                                     \
    "steps,stop,catches,alive,polarization,mean_nn,mean_speed,min_speed,max_speed,groups,milling"

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
    bool *done; /* per run of the experiment: its row is in runs.csv */
    uint64_t done_count;
    char *pending; /* runs.csv rows whose other rows are written but not yet synced */
    size_t pending_len, pending_cap;
    double synced_at; /* when the tables were last synced */
} boids_exp_tables;

/* A directory held by this process: DIR/.lock, locked (flock) while the process holds it; the
 * writer removes it as it lets go, so a finished experiment leaves none. */
typedef struct boids_exp_lock {
    int fd;
    bool exclusive;
    char path[4200];
} boids_exp_lock;

/* Takes the lock of DIR (shared: a reader's, which only a writer excludes); BOIDS_E_USAGE naming
 * the process that holds it. A writer's removes the temporary files a killed one left there. */
boids_status boids_exp_lock_take(boids_exp_lock *l, const char *dir, bool shared);
void boids_exp_lock_release(boids_exp_lock *l);
/* DIR for a new experiment: created if missing (and `create`); refused (exit 2 messages naming
 * --out) if it holds an experiment or anything else. */
boids_status boids_exp_dir_new(const char *dir, bool create);
/* Writes DIR/manifest.ini. */
boids_status boids_exp_manifest_write(const char *dir, const boids_experiment *e);
/* Reads DIR/manifest.ini into *e (e->def.gl NULL), refusing one without its fingerprint or whose
 * fingerprint does not match what it says (edited since the start). */
boids_status boids_exp_manifest_read(const char *dir, boids_experiment *e);
/* The same without the fingerprint's checks: for a manifest written by hand (the fuzzer's), which
 * boids_exp_manifest_write then writes whole. */
boids_status boids_exp_manifest_parse(const char *dir, boids_experiment *e);
/* Opens the tables of DIR: new ones with their headers, or (resume) the existing ones, checked
 * row by row, keeping the rows of the runs that are done. */
boids_status boids_exp_tables_open(boids_exp_tables *t, const char *dir, const boids_experiment *e,
                                   bool resume);
/* Appends one finished run's rows (text lines, each ending in a newline). */
boids_status boids_exp_tables_append(boids_exp_tables *t, uint64_t run, const char *events,
                                     size_t events_len, const char *metrics, size_t metrics_len,
                                     const char *runs_row);
/* Syncs and closes the tables, each sorted by run (rows of a run keep their order). */
boids_status boids_exp_tables_finish(boids_exp_tables *t);
/* boids experiment-merge OUT DIR...: exit status. */
int boids_exp_merge(const char *out, char **dirs, int ndirs);

#endif
