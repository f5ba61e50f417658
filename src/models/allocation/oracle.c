/* Priority and mean allocation's oracle (Reynolds 1987; docs/models.md (priority, mean)): vector 3
 * (separation: the sum of (p - p_j) / d^2 within the difference radius, every swarm), vector 2
 * (the mean velocity minus v) and vector 1 (towards the mean position), weighted, within the
 * neighbourhood (its own swarm); priority allocates the maximum acceleration to them in that
 * order, mean sets (or truncates) their sum to it. Obstacles are part of vector 3 in these models
 * (their own rule), which this oracle leaves out: the tests give it none. */
#include "models/oracle.h"

/* The priority allocation of x, y, z in that order within m: each whole while the sum stays
 * within m, the first that does not fit scaled by the alpha of |a + alpha n| = m. */
static boids_d3 allocate(boids_d3 x, boids_d3 y, boids_d3 z, double m)
{
    if (boids_d3_len(x) > m) return boids_d3_at(x, m);
    boids_d3 a = x;
    const boids_d3 next[2] = {y, z};
    for (int k = 0; k < 2; ++k) {
        const boids_d3 n = next[k];
        const double n2 = boids_d3_dot(n, n);
        if (!(n2 > 0)) continue;
        if (boids_d3_len(boids_d3_add(a, n)) <= m) {
            a = boids_d3_add(a, n);
            continue;
        }
        const double an = boids_d3_dot(a, n), a2 = boids_d3_dot(a, a);
        const double alpha = (-an + sqrt(fmax(an * an + n2 * (m * m - a2), 0))) / n2;
        return boids_d3_add(a, boids_d3_mul(n, alpha));
    }
    return a;
}

static boids_boid allocation_step(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_params *p = w->params;
    const boids_allocation_params *q = &p->allocation;
    const boids_oracle_sums s = boids_oracle_reynolds_sums(w, i, q->sep_radius, q->neighbor_radius,
                                                           q->neighbor_radius, false);
    const boids_d3 v = boids_oracle_velocity(&w->boids[i]), zero = boids_d3_of(0, 0, 0);
    const boids_d3 v3 = boids_d3_mul(s.sep, q->sep_weight);
    const boids_d3 v2 =
        s.na ? boids_d3_mul(boids_d3_sub(boids_d3_mul(s.ali, 1.0 / s.na), v), q->align_weight)
             : zero;
    const boids_d3 v1 = s.na ? boids_d3_mul(s.coh, q->cohesion_weight / s.na) : zero;
    const double amax = q->max_accel;
    boids_d3 a = boids_d3_add(boids_d3_add(v3, v2), v1);
    if (w->model == BOIDS_MODEL_PRIORITY)
        a = allocate(v3, v2, v1, amax);
    else
        a = q->mean_set_length != 0 ? boids_d3_at(a, amax) : boids_d3_trunc(a, amax);
    a = boids_d3_add(a, boids_oracle_external(w, i)); /* (the tool: its obstacles are its own) */
    if (near) *near = false;
    return boids_oracle_move(w, i,
                             boids_d3_limits(boids_d3_add(v, boids_d3_mul(a, w->dt)),
                                             p->base.min_speed, p->base.max_speed));
}

/* The same everywhere: no random draw, no preferred direction. */
const boids_oracle boids_oracle_PRIORITY = {.step = allocation_step};
const boids_oracle boids_oracle_MEAN = {.step = allocation_step};
