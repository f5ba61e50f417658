/* What an experiment is (its manifest says all of it): the world of every run, the sweeps, the
 * runs per combination, the seeds and the shard; and the plan that follows from it. A run is
 * numbered combination x runs + repetition; its seed is seed + repetition. A sweep varies a model
 * parameter or a world setting (the boids, the world's size, its dimension, the neighbour rule,
 * ...): a combination's world is the one the experiment's command line with `--KEY VALUE` added
 * for each swept setting would make (a model's own world follows the boids at its density). */
#ifndef BOIDS_APP_EXPERIMENT_DESIGN_H
#define BOIDS_APP_EXPERIMENT_DESIGN_H

#include "boids.h"

#define BOIDS_EXP_MAX_SWEEPS 8
#define BOIDS_EXP_MAX_VALUES 1024
#define BOIDS_EXP_MAX_RUNS 10000000u /* runs in one experiment (their done flags are in memory) */
#define BOIDS_EXP_VALUE_TEXT 48      /* a value's text: "1e-05", "nearest:7", "13333x7500x400" */

/* One swept parameter or world setting and its values, as text: a parameter's as the shortest
 * text of its float, a setting's as given (each checked). They are the column of the tables. */
typedef struct boids_sweep {
    char key[64];
    bool setting; /* a world setting (boids, world, dims, neighbours, ...), not a parameter */
    uint32_t count;
    char values[BOIDS_EXP_MAX_VALUES][BOIDS_EXP_VALUE_TEXT];
} boids_sweep;

/* What an experiment is: its manifest says all of it. */
typedef struct boids_experiment {
    boids_world_def def;       /* the world of every run, before the sweeps and the seed */
    boids_obstacle *obstacles; /* def's explicit obstacles (owned) */
    uint32_t runs;             /* runs per combination */
    uint64_t seed;             /* the first run's seed */
    uint32_t steps;            /* most steps per run (a run also ends on its stop condition) */
    uint32_t metrics_every;    /* steps between rows of metrics.csv; 0: no metrics.csv */
    bool field;                /* --field: xi, xi_speed, n_c in metrics.csv's and runs.csv's rows */
    boids_field_options field_options; /* --field R[,BINS[,RANKS]] (the manifest's field line) */
    uint32_t shard, shards;            /* this directory holds slice shard of shards (1-based) */
    bool world_given; /* the world's size was given (not the model's own or the default world):
                         a swept count keeps it rather than scaling it */
    uint32_t dims;    /* `dims` as given: 0 (not given), 2 or 3 */
    boids_sweep sweeps[BOIDS_EXP_MAX_SWEEPS];
    int nsweeps;
    uint32_t combos;      /* combinations of the sweeps' values (1 without sweeps) */
    char version[32];     /* the boids that wrote it */
    char renderer[256];   /* the GL renderer (GPU) or "CPU reference" */
    char command[8192];   /* the command line that started it */
    char fingerprint[24]; /* the manifest's, as read ("" where none: written before 0.2.1) */
} boids_experiment;

/* Runs in all, and this shard's [first, end). */
uint64_t boids_experiment_total(const boids_experiment *e);
void boids_experiment_slice(const boids_experiment *e, uint64_t *first, uint64_t *end);
/* Combination c's value of sweep k, as text. */
const char *boids_experiment_value(const boids_experiment *e, uint32_t combo, int k);
/* Whether a world setting is swept (the manifest then says which world keys were given). */
bool boids_experiment_sweeps_settings(const boids_experiment *e);
/* Combination c as "key = value, key = value" ("" without sweeps). */
void boids_experiment_label(const boids_experiment *e, uint32_t combo, char *buf, size_t size);
/* --sweep KEY=A:B:COUNT or KEY=v1,v2,... for the model: KEY a parameter (each value checked as
 * --set would) or a world setting (boids, swarms, world, dims, dt, layout, neighbours, cell_size;
 * each value checked as its flag would; a range only for a number). */
boids_status boids_experiment_parse_sweep(const char *spec, boids_model model,
                                          const boids_params *base, boids_sweep *out);
/* The world of combination `combo` with the given seed: def with the sweeps' values set, checked
 * as a world's definition. */
boids_status boids_experiment_world(const boids_experiment *e, uint32_t combo, uint64_t seed,
                                    boids_world_def *out);
/* The boids in combination `combo`'s world (a swept count, or the experiment's). */
uint32_t boids_experiment_count(const boids_experiment *e, uint32_t combo);
/* The leading columns of every table's row of a run: "run,seed,<value of each sweep>". */
void boids_experiment_row_prefix(const boids_experiment *e, uint64_t run, char *buf, size_t size);

#endif
