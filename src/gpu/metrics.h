/* The metrics on the device (boids_world_metrics for a GPU world): a sort of the current state of
 * its own (so the step's buffers and the renderer's are untouched, and stopped replicas keep
 * their cells), then metrics_nn.comp, metrics_link.comp and metrics_reduce.comp; only the sums,
 * 48 bytes per replica, are read back. Created on first use. */
#ifndef BOIDS_GPU_METRICS_H
#define BOIDS_GPU_METRICS_H

#include "core/metrics.h"
#include "gpu/sort.h"

typedef struct boids_gpu_metrics {
    GLuint prog_nn, prog_link, prog_reduce;
    GLint u_radius;
    boids_gpu_grid grid;
    boids_gpu_hot sorted;              /* the state in the metrics' cell order */
    GLuint slot, slot_z, parent, sums; /* slot_z: a 3D world's heading z (else 0) */
    uint32_t count, replicas;
    int dims; /* the world's dimension: 3 keeps (z, vz) and the heading's z in buffers of their
                 own (set before the first call) */
} boids_gpu_metrics;

/* The sums of every replica of a world of `count` boids in `cells` cells (the frame's grid, whose
 * uniform block, report, attribute and replica buffers must be bound) from its state `state`. */
boids_status boids_gpu_metrics_compute(boids_gpu_metrics *m, const boids_gpu_sorter *sorter,
                                       boids_gpu_hot state, uint32_t count, uint32_t cells,
                                       uint32_t replicas, uint32_t cells_per_replica,
                                       float group_radius, boids_metric_sums *out);
void boids_gpu_metrics_free(boids_gpu_metrics *m);
/* The bytes of the metrics' buffers (0 before the first call), asked of the driver. */
uint64_t boids_gpu_metrics_bytes(const boids_gpu_metrics *m);

#endif
