/* What a CPU rules file sees for one step: the state at step t (read only) and where step t+1
 * goes. Synchronous update: every boid reads step t and writes step t+1.
 *
 * Neighbour candidates come as up to 9 index ranges into `cand` (with `cand_id` giving each
 * candidate's id): the cells of the block around the boid in the canonical order, or one range
 * over every boid for brute force. Rules files loop over them the same way the shaders do, so
 * both backends add neighbours up in the same order. */
#ifndef BOIDS_CPU_STEER_H
#define BOIDS_CPU_STEER_H

#include "cpu/grid.h"

typedef struct boids_cpu_step {
    const boids_world_def *def;
    const boids_cpu_grid *grid;
    const boids_boid *cur;    /* step t, id order */
    const boids_boid *sorted; /* step t, sorted by cell (grid->order) */
    boids_boid *next;         /* step t+1, id order */
    bool brute;
    float half_w, half_h;     /* world size / 2 */
} boids_cpu_step;

typedef struct boids_cpu_ranges {
    const boids_boid *cand;   /* candidates */
    const uint32_t *cand_id;  /* id of cand[k]; NULL: the id is k */
    uint32_t count;
    uint32_t begin[9], end[9];
} boids_cpu_ranges;

static inline void boids_cpu_candidates(const boids_cpu_step *s, uint32_t id, boids_cpu_ranges *r)
{
    if (s->brute) {
        r->cand = s->cur;
        r->cand_id = NULL;
        r->count = 1;
        r->begin[0] = 0;
        r->end[0] = s->def->count;
        return;
    }
    const boids_cpu_grid *g = s->grid;
    uint32_t c = g->cell_of[id], cells[9];
    r->cand = s->sorted;
    r->cand_id = g->order;
    r->count = boids_cpu_grid_block(&g->dims, c % g->dims.w, c / g->dims.w, cells);
    for (uint32_t k = 0; k < r->count; ++k) {
        r->begin[k] = g->cell_start[cells[k]];
        r->end[k] = g->cell_start[cells[k] + 1];
    }
}

/* One rules function per model: computes next[id] for the boids in sorted slots [begin, end). */
typedef void (*boids_cpu_rules_fn)(const boids_cpu_step *s, uint32_t begin, uint32_t end);

void boids_cpu_rules_shiffman_per_second(const boids_cpu_step *s, uint32_t begin, uint32_t end);

/* Truncates (x, y) to length m (Processing's PVector.limit: normalise, then scale). */
static inline void boids_limit(float *x, float *y, float m)
{
    float m2 = *x * *x + *y * *y;
    if (m2 > m * m) {
        float mag = sqrtf(m2);
        *x = *x / mag * m;
        *y = *y / mag * m;
    }
}

#endif
