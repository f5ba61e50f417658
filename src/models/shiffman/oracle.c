/* The Shiffman models' oracle (docs/models.md (shiffman-per-second), §3): each behaviour steers
 * towards its desired velocity at v_max, the steering truncated to f_max and weighted; the three
 * add up with the external forces, and the velocity keeps within the speed limits. The three
 * variants differ in their values and time base only. */
#include "models/oracle.h"

static boids_boid shiffman_step(const boids_oracle_world *w, uint32_t i, bool *near)
{
    const boids_params *p = w->params;
    const boids_reynolds_params *r = &p->reynolds;
    const boids_oracle_sums s =
        boids_oracle_reynolds_sums(w, i, r->sep_radius, r->align_radius, r->cohesion_radius, false);
    const double vmax = p->base.max_speed, fmax_ = r->max_force;
    const boids_d3 v = boids_oracle_velocity(&w->boids[i]);
    boids_d3 f = boids_d3_of(0, 0, 0);
    /* §3.1: the mean of the unit vectors away over d (their sum over d^2 is the same way) */
    const boids_d3 away = boids_d3_mul(s.sep, s.ns ? 1.0 / s.ns : 0);
    if (s.ns && boids_d3_len(away) > 0)
        f = boids_d3_add(
            f, boids_d3_mul(boids_d3_trunc(boids_d3_sub(boids_d3_at(away, vmax), v), fmax_),
                            r->sep_weight));
    if (s.na) /* §3.2: the mean velocity */
        f = boids_d3_add(
            f, boids_d3_mul(boids_d3_trunc(boids_d3_sub(boids_d3_at(s.ali, vmax), v), fmax_),
                            r->align_weight));
    if (s.nc) /* §3.3: towards the centre */
        f = boids_d3_add(
            f, boids_d3_mul(boids_d3_trunc(boids_d3_sub(boids_d3_at(s.coh, vmax), v), fmax_),
                            r->cohesion_weight));
    f = boids_d3_add(f, boids_oracle_external(w, i)); /* §3.4: no clamp of the sum */
    if (near) *near = false;
    return boids_oracle_move(
        w, i, boids_d3_limits(boids_d3_add(v, boids_d3_mul(f, w->dt)), p->base.min_speed, vmax));
}

/* The same everywhere: no random draw, no preferred direction. */
const boids_oracle boids_oracle_SHIFFMAN_PER_SECOND = {.step = shiffman_step, .external = true};
const boids_oracle boids_oracle_SHIFFMAN_PROCESSING = {.step = shiffman_step, .external = true};
const boids_oracle boids_oracle_SHIFFMAN_NOC = {.step = shiffman_step, .external = true};
