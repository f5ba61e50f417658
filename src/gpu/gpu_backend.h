/* The GPU backend, and its internals for tests (they pass boids_world_backend(world)). */
#ifndef BOIDS_GPU_BACKEND_H
#define BOIDS_GPU_BACKEND_H

#include "core/backend.h"
#include "gl/gl.h"

boids_status boids_gpu_backend_create(const boids_sim *sim, const boids_backend_ops **ops,
                                      void **impl, const char **renderer, const char **device,
                                      int *threads);

/* Reads the grid of the last step back (tests only): cells' counts (from the starts) and exclusive
 * starts (grid.w * grid.h each), the id in each sorted slot (count), and the histogram as the step
 * left it (grid.w * grid.h): zeros where the next step's grid pass makes it (a model with
 * predators), else the state's own counts, which the steering made for the next step. */
boids_status boids_gpu_backend_read_grid(void *impl, uint32_t *cell_count, uint32_t *cell_start,
                                         uint32_t *sorted_ids, uint32_t *histogram);

/* Overrides the per-invocation loop limit (tests: to reach it with a small flock). */
void boids_gpu_backend_set_loop_limit(void *impl, uint32_t limit);

/* The blocks of BOIDS_SCAN_BLOCK counts the boids' grid's scan takes (its workgroups: more than
 * BOIDS_SCAN_BLOCK, and the last one scans their totals in several chunks). */
uint32_t boids_gpu_backend_scan_blocks(const void *impl);

#endif
