/* --metrics FILE.csv [--metrics-every K]: a run's observables over time, one row every K steps
 * (and one for the last state), computed where the world lives (boids_world_metrics: on the GPU
 * for a GPU world). The rows (and the catches' rows) are shared with an experiment's tables. */
#ifndef BOIDS_APP_METRICS_LOG_H
#define BOIDS_APP_METRICS_LOG_H

#include <stdio.h>

#include "boids.h"
#include "base/output_file.h"

/* The columns after any leading ones of the caller's: step,time,alive,polarization,mean_nn,
 * mean_speed,min_speed,max_speed,groups,catches,milling. */
#define BOIDS_METRICS_COLUMNS                                                                      \
    "step,time,alive,polarization,mean_nn,mean_speed,min_speed,max_speed,groups,catches,milling"
/* One row of those columns (no newline); time = step x dt. */
void boids_metrics_csv_row(FILE *f, const boids_metrics *m, double dt);

/* The field measures' columns, after those where they are asked for (--field), and their row. */
#define BOIDS_FIELD_COLUMNS "xi,xi_speed,n_c,diameter"
void boids_field_csv_row(FILE *f, const boids_field *m);

/* A field measure's profiles, as --field-profile writes them: rows step,measure,x,value, the
 * measures c_velocity, c_speed (x the bin's centre, px; the bins holding pairs), pairs (every
 * bin) and gamma (x = n). */
#define BOIDS_FIELD_PROFILE_COLUMNS "step,measure,x,value"
void boids_field_profile_csv(FILE *f, const boids_field *m);

/* A catch (BOIDS_EVENT_CATCH), as --events and an experiment's events.csv write it:
 * step,time,boid,age,predator (no newline), with the boid's and predator's ids given. */
#define BOIDS_CATCH_COLUMNS "step,time,boid,age,predator"
void boids_catch_csv_row(FILE *f, const boids_event *e, double dt, uint32_t boid,
                         uint32_t predator);

typedef struct boids_metrics_log {
    boids_output_file out;
    uint32_t every; /* steps between rows */
    float dt;       /* seconds per step */
    bool open;
    uint64_t last; /* the step of the last row (UINT64_MAX: none yet) */
    uint64_t rows;
    bool field; /* the field measures' columns, of field_options */
    boids_field_options field_options;
} boids_metrics_log;

/* Opens path (written to a temporary name, renamed into place by close) and writes the header
 * and the row of the world's current state; field (NULL: none) adds the field measures' columns. */
boids_status boids_metrics_log_open(boids_metrics_log *l, const char *path, uint32_t every,
                                    const boids_field_options *field, boids_world *w);
/* Steps the world n steps (in pieces that end on every multiple of `every`, each followed by a
 * row). */
boids_status boids_metrics_log_step(boids_metrics_log *l, boids_world *w, uint32_t n);
/* A row of the world's state now, unless its step has one already; then the file into place
 * (commit) or removed. */
boids_status boids_metrics_log_close(boids_metrics_log *l, boids_world *w, bool commit);

#endif
