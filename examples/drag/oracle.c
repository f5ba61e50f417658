/* The drag model's oracle: its formulas (rules.h) in double precision, brute force over every
 * pair, registered as boids_oracle_DRAG (src/models/oracle.h says what an oracle declares). The
 * tests hold both backends to it (test_dims, for every registered model). */
#include "models/oracle.h"

static boids_boid drag_step(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_params *p = w->params;
    const boids_reynolds_params *r = &p->reynolds;
    const boids_oracle_sums s =
        boids_oracle_reynolds_sums(w, i, r->sep_radius, r->align_radius, r->cohesion_radius, true);
    const boids_d3 v = boids_oracle_velocity(&w->boids[i]);
    boids_d3 f = boids_d3_mul(s.sep, r->sep_weight); /* the raw offsets away */
    if (s.na)                                        /* towards the mean velocity */
        f = boids_d3_add(
            f, boids_d3_mul(boids_d3_sub(boids_d3_mul(s.ali, 1.0 / s.na), v), r->align_weight));
    if (s.nc) /* towards the centre */
        f = boids_d3_add(f, boids_d3_mul(s.coh, r->cohesion_weight / s.nc));
    f = boids_d3_sub(boids_d3_trunc(f, r->max_force), boids_d3_mul(v, p->drag.drag)); /* drag */
    f = boids_d3_add(f, boids_oracle_external(w, i));
    if (near) *near = false;
    return boids_oracle_move(w, i,
                             boids_d3_limits(boids_d3_add(v, boids_d3_mul(f, w->dt)),
                                             p->base.min_speed, p->base.max_speed));
}

/* No random draw, no preferred direction: nothing to declare beyond its step. */
const boids_oracle boids_oracle_DRAG = {.step = drag_step, .external = true};
