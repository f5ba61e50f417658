/* Where a boid's candidates are: the slot ranges of the block of cells around it, on the boids'
 * grid, the predators' or the obstacles'. As the candidate walk of steer_common.glsl. */
#include "cpu/steer.h"

void boids_cpu_ranges_near(const boids_grid_dims *dims, const uint32_t *cell_start, uint32_t cell,
                           boids_cpu_ranges *r)
{
    r->count = 0;
    if (cell >= boids_grid_cells(dims)) return; /* the graveyard: a dead boid has no neighbours */
    uint32_t cells[9];
    uint32_t n = boids_grid_block(dims, cell, cells);
    /* Cells next to each other in memory become one range (the order is unchanged). */
    for (uint32_t k = 0; k < n; ++k) {
        if (k > 0 && cells[k] == cells[k - 1] + 1) {
            r->end[r->count - 1] = cell_start[cells[k] + 1];
        } else {
            r->begin[r->count] = cell_start[cells[k]];
            r->end[r->count] = cell_start[cells[k] + 1];
            r->count++;
        }
    }
}

void boids_cpu_candidates(const boids_cpu_step *s, uint32_t id, boids_cpu_ranges *r)
{
    boids_cpu_ranges_near(&s->grid->dims, s->grid->cell_start, s->grid->cell_of[id], r);
}

void boids_cpu_obstacle_push(const boids_cpu_step *s, uint32_t replica, float x, float y, float reach,
                             float *px, float *py)
{
    const boids_obstacle_grid *og = &s->sim->obstacle_grid;
    const float r2 = reach * reach;
    float sx = 0.0f, sy = 0.0f;
    boids_cpu_ranges r;
    boids_cpu_ranges_near(&s->sim->grid, og->cell_start, boids_cell_of(&s->sim->grid, replica, x, y), &r);
    for (uint32_t q = 0; q < r.count; ++q)
        for (uint32_t k = r.begin[q]; k < r.end[q]; ++k) {
            float dx = boids_min_image(x, og->sorted[4 * k], s->sim->def.width, s->sim->half_w);
            float dy = boids_min_image(y, og->sorted[4 * k + 1], s->sim->def.height, s->sim->half_h);
            float d2 = dx * dx + dy * dy;
            if (!(d2 > 0.0f && d2 <= r2)) continue;
            float d = sqrtf(d2);
            sx -= dx / d;
            sy -= dy / d;
        }
    *px = sx;
    *py = sy;
}
