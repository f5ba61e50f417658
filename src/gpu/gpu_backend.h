/* Internal access to the GPU backend for tests and, later, the renderer. */
#ifndef BOIDS_GPU_BACKEND_H
#define BOIDS_GPU_BACKEND_H

#include "core/world.h"
#include "gpu/gl.h"

/* Reads the grid of the last step back (tests only): cells' counts and exclusive starts
 * (grid.w * grid.h each) and the id in each sorted slot (count). */
boids_status boids_gpu_backend_read_grid(boids_world *w, uint32_t *cell_count,
                                         uint32_t *cell_start, uint32_t *sorted_ids);

/* Overrides the per-invocation loop limit (tests: to reach it with a small flock). */
void boids_gpu_backend_set_loop_limit(boids_world *w, uint32_t limit);

/* Number of levels of the last scan hierarchy (1 when one workgroup scans all cells). */
uint32_t boids_gpu_backend_scan_levels(const boids_world *w);

#endif
