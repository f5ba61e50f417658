/* `boids experiment`: many runs of one world, over seeds and parameter sweeps, written as tidy
 * tables into a directory (runs.csv, events.csv, metrics.csv, manifest.ini, plots), resumable,
 * and sliceable into shards that `boids experiment-merge` joins.
 *
 *   design.c      what an experiment is: its world, sweeps, runs, seeds and shards
 *   experiment.c  the command lines and the runs (CPU jobs in parallel; GPU runs batched as
 *                 replicas of one world), progress and Ctrl-C
 *   files.c       the directory, the manifest, the tables (append, resume, finish, merge)
 *   plots.c       the figures, drawn with PLplot
 *
 * A run is numbered combination x runs + repetition; its seed is seed + repetition (the same
 * seeds for every combination of the sweeps), and its result depends on nothing else: not the
 * jobs, the batch, the order or the shard. */
#ifndef BOIDS_APP_EXPERIMENT_EXPERIMENT_H
#define BOIDS_APP_EXPERIMENT_EXPERIMENT_H

int boids_experiment_main(int argc, char **argv);
int boids_experiment_merge_main(int argc, char **argv);

#endif
