/* The hybrid model's oracle (docs/models.md (hybrid)): Adams' separation (the raw offsets within
 * r_p, every swarm) weighted, Reynolds' alignment and cohesion (desired velocity at v_max minus v)
 * weighted and unclamped, the sum truncated to F_max once, then the external forces and the
 * speed limits. */
#include "models/oracle.h"

static boids_boid hybrid_step(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_params *p = w->params;
    const boids_hybrid_params *h = &p->hybrid;
    const boids_oracle_sums s =
        boids_oracle_reynolds_sums(w, i, h->sep_radius, h->align_radius, h->cohesion_radius, true);
    const double vmax = p->base.max_speed;
    const boids_d3 v = boids_oracle_velocity(&w->boids[i]);
    boids_d3 f = boids_d3_mul(s.sep, h->sep_weight);
    if (s.na)
        f = boids_d3_add(f,
                         boids_d3_mul(boids_d3_sub(boids_d3_at(s.ali, vmax), v), h->align_weight));
    if (s.nc)
        f = boids_d3_add(
            f, boids_d3_mul(boids_d3_sub(boids_d3_at(s.coh, vmax), v), h->cohesion_weight));
    f = boids_d3_add(boids_d3_trunc(f, h->max_force), boids_oracle_external(w, i));
    if (near) *near = false;
    return boids_oracle_move(
        w, i, boids_d3_limits(boids_d3_add(v, boids_d3_mul(f, w->dt)), p->base.min_speed, vmax));
}

/* The same everywhere: no random draw, no preferred direction. */
const boids_oracle boids_oracle_HYBRID = {.step = hybrid_step, .external = true};
