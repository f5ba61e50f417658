#include "cpu/steer.h"

void boids_cpu_candidates(const boids_cpu_step *s, uint32_t id, boids_cpu_ranges *r)
{
    if (s->brute) {
        r->count = 1;
        r->begin[0] = 0;
        r->end[0] = s->sim->def.count;
        return;
    }
    const boids_cpu_grid *g = s->grid;
    uint32_t c = g->cell_of[id], cells[9];
    uint32_t n = boids_grid_block(&g->dims, c % g->dims.w, c / g->dims.w, cells);
    /* Cells next to each other in memory become one range (the order is unchanged). */
    r->count = 0;
    for (uint32_t k = 0; k < n; ++k) {
        if (k > 0 && cells[k] == cells[k - 1] + 1) {
            r->end[r->count - 1] = g->cell_start[cells[k] + 1];
        } else {
            r->begin[r->count] = g->cell_start[cells[k]];
            r->end[r->count] = g->cell_start[cells[k] + 1];
            r->count++;
        }
    }
}
