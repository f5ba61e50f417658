/* boids-bench's rows and its plot (bench_plot.c). */
#ifndef BOIDS_BENCH_H
#define BOIDS_BENCH_H

#include <stdint.h>

#include "boids.h"

typedef struct bench_row {
    const char *model;
    const char *backend; /* gpu, gpu+draw, cpu-1, cpu, cpu-brute */
    const char *start;   /* random, steady */
    int threads;
    uint32_t boids;
    float width, height;
    float depth;    /* 0: a flat world */
    uint32_t steps; /* per repeat */
    int repeats;
    double ns_median, ns_min, ns_max; /* ns per boid-step over the repeats */
    double pass_ms[BOIDS_PASS_COUNT]; /* the world's profile: mean ms per step (per draw) */
    double metrics_ms; /* one boids_world_metrics() of the state the runs left (every replica) */
    uint32_t nearest;  /* the world's nearest:K (0: metric neighbours) */
    uint32_t cells;    /* cells per largest radius: 1, or 2 (--cells) */
    /* the state the runs left, counted on the host (boids_world_census): per living boid, the
     * candidates its walk reads and its neighbours within the model's largest radius */
    double candidates, neighbours;
    /* the GPU's GL commands a step (the profile's; 0 on the CPU) */
    double dispatches, barriers, clears;
    /* the bytes of the GPU's buffers the world held, all of them (the census's; 0 on the CPU) */
    uint64_t device_bytes;
    /* the CPU's: the process's resident set at its peak while the world was made, stepped and
     * summed up (boids_world_metrics), above what it held before (0 on the GPU, or where the
     * system does not say) */
    uint64_t host_bytes;
} bench_row;

/* Draws ns per boid-step against N, log-log, one line per backend (the median; the marks are
 * the runs' range), a panel per start, for `model`; PNG at path (PLplot, cairo). 0 on success. */
int bench_plot(const char *path, const bench_row *rows, int nrows, const char *model,
               const char *title);

#endif
