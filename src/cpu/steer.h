/* What a CPU rules file sees for one step: the state at step t (read only) and where step t+1
 * goes. Synchronous update: every boid reads step t and writes step t+1.
 *
 * Neighbour candidates come as slot ranges into step->cand: the cells of the block around the boid
 * in the canonical order (cells next to each other in memory merged into one range), or every
 * boid for brute force. Rules files loop over them the way the shaders do, so both backends add
 * neighbours up in the same order. */
#ifndef BOIDS_CPU_STEER_H
#define BOIDS_CPU_STEER_H

#include <math.h>

#include "cpu/grid.h"

/* Step t in structure-of-arrays form, in the order the candidates are walked: sorted by cell for
 * the grid, id order for brute force. */
typedef struct boids_cpu_soa {
    float *x, *y, *vx, *vy;
    uint32_t *swarm, *id;
} boids_cpu_soa;

typedef struct boids_cpu_step {
    const boids_world_def *def;
    const boids_cpu_grid *grid;
    const boids_boid *cur;    /* step t, id order */
    boids_cpu_soa cand;       /* step t, candidate order */
    boids_boid *next;         /* step t+1, id order */
    const boids_tool *tool;   /* the mouse tool's force field */
    bool brute;
    bool wrap;                /* distances are minimum-image (edges == BOIDS_EDGES_WRAP) */
    unsigned edges;           /* BOIDS_EDGES_* */
    float dt;                 /* s for per-second models, 1 for frame-based ones */
    float half_w, half_h;     /* world size / 2 where it wraps, +infinity elsewhere */
} boids_cpu_step;

/* Offset from a to b: minimum-image on a torus, plain otherwise: where the world does not wrap
 * the backend sets half_w and half_h to +infinity, so boids_min_image() never shifts (no branch
 * on the edges in the neighbour loop; the shaders do the same with frame.half_w). */
static inline float boids_offset(float a, float b, float size, float half)
{
    return boids_min_image(a, b, size, half);
}

/* Offset from (x, y) to candidate k of step->cand, by the world's edges. */
static inline void boids_cand_offset(const boids_cpu_step *s, float x, float y, uint32_t k, float *dx, float *dy)
{
    *dx = boids_offset(x, s->cand.x[k], s->def->width, s->half_w);
    *dy = boids_offset(y, s->cand.y[k], s->def->height, s->half_h);
}

/* The candidate ranges [begin[r], end[r]) of one boid, r < count. */
typedef struct boids_cpu_ranges {
    uint32_t count;
    uint32_t begin[9], end[9];
} boids_cpu_ranges;

void boids_cpu_candidates(const boids_cpu_step *s, uint32_t id, boids_cpu_ranges *r);

/* One rules function per model: computes next[id] for the boids in candidate slots [begin, end). */
typedef void (*boids_cpu_rules_fn)(const boids_cpu_step *s, uint32_t begin, uint32_t end);

void boids_cpu_rules_shiffman(const boids_cpu_step *s, uint32_t begin, uint32_t end);
void boids_cpu_rules_adams(const boids_cpu_step *s, uint32_t begin, uint32_t end);
void boids_cpu_rules_hybrid(const boids_cpu_step *s, uint32_t begin, uint32_t end);
void boids_cpu_rules_allocation(const boids_cpu_step *s, uint32_t begin, uint32_t end);

/* Priority allocation (priority-allocation.md): adds the weighted vectors x (highest priority),
 * y, z in that order, each in full while the sum stays within m, the last one in the part alpha
 * that brings the sum's length to exactly m. x alone longer than m is rescaled to m. */
void boids_priority_allocate(const float x[2], const float y[2], const float z[2], float m, float out[2]);

/* (x, y) scaled to length len, as Processing's normalize() then mult(len): divide by the length,
 * then multiply. (0, 0) stays (0, 0) (PVector leaves a zero vector alone). Where the squares
 * overflow (|x| above ~1.8e19) or underflow (below ~1e-19), the vector is first divided by its
 * largest component, so the direction survives instead of becoming inf/inf or 0. */
static inline void boids_set_length(float *x, float *y, float len)
{
    float m2 = *x * *x + *y * *y;
    if (m2 > 0.0f && m2 < INFINITY) {
        float m = sqrtf(m2);
        *x = *x / m * len;
        *y = *y / m * len;
    } else if (*x != 0.0f || *y != 0.0f) {
        float s = fmaxf(fabsf(*x), fabsf(*y));
        float ux = *x / s, uy = *y / s;
        float m = sqrtf(ux * ux + uy * uy);
        *x = ux / m * len;
        *y = uy / m * len;
    }
}

/* Truncates (x, y) to length m (Processing's PVector.limit). */
static inline void boids_limit(float *x, float *y, float m)
{
    float m2 = *x * *x + *y * *y;
    if (m2 > m * m) boids_set_length(x, y, m);
}

/* The mouse tool's force on a boid at (x, y) (see boids_tool in boids_shared.h). */
static inline void boids_tool_force(const boids_cpu_step *s, float x, float y, float *fx, float *fy)
{
    const boids_tool *t = s->tool;
    *fx = *fy = 0.0f;
    if (t->kind == BOIDS_TOOL_NONE) return;
    float dx = boids_offset(x, t->x, s->def->width, s->half_w);
    float dy = boids_offset(y, t->y, s->def->height, s->half_h);
    float d2 = dx * dx + dy * dy;
    if (!(d2 > 0.0f && d2 < t->radius * t->radius)) return;
    boids_set_length(&dx, &dy, t->strength);
    *fx = t->kind == BOIDS_TOOL_REPEL ? -dx : dx;
    *fy = t->kind == BOIDS_TOOL_REPEL ? -dy : dy;
}

/* x where keep is 1, +0.0 where it is 0, without a branch. Adding a masked +0 to a sum leaves its
 * bits unchanged, so masked sums equal the branchy ones (and the shaders') bit for bit. */
static inline float boids_mask(float x, int keep)
{
    union {
        float f;
        uint32_t u;
    } v = {x};
    v.u &= 0u - (uint32_t)keep;
    return v.f;
}

#endif
