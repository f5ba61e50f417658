/* The GPU backend, and its internals for tests (they pass boids_world_backend(world)). */
#ifndef BOIDS_GPU_BACKEND_H
#define BOIDS_GPU_BACKEND_H

#include "core/backend.h"
#include "gpu/gl.h"

boids_status boids_gpu_backend_create(const boids_sim *sim, const boids_backend_ops **ops,
                                      void **impl, const char **renderer, const char **device,
                                      int *threads);

/* Reads the grid of the last step back (tests only): cells' counts (from the starts) and exclusive
 * starts (grid.w * grid.h each), the id in each sorted slot (count), and how many words of the
 * histogram the step left non-zero (0: the scan zeroed it for the next step, as it must). */
boids_status boids_gpu_backend_read_grid(void *impl, uint32_t *cell_count, uint32_t *cell_start,
                                         uint32_t *sorted_ids, uint32_t *counts_left);

/* Overrides the per-invocation loop limit (tests: to reach it with a small flock). */
void boids_gpu_backend_set_loop_limit(void *impl, uint32_t limit);

/* Number of levels of the last scan hierarchy (1 when one workgroup scans all cells). */
uint32_t boids_gpu_backend_scan_levels(const void *impl);

#endif
