/* hybrid (docs/models.md (hybrid)): Adams' raw separation with Shiffman's alignment and cohesion.
 * One source for both backends (rules/lang.h).
 *
 *   f_sep = sum over N_p(i) of (p_i - p_j)            raw offsets (Model A), every swarm
 *   f_ali = (normalize(mean v_j) v_max - v) w_ali      same swarm, no truncation
 *   f_coh = (normalize(mean offset) v_max - v) w_coh   same swarm, no truncation
 *   F = truncate(f_sep w_sep + f_ali + f_coh, F_max)   one clamp, on the total
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * Neighbours at distance 0 add nothing to f_sep and are left out of the averages (as in the
 * Shiffman models); normalising zero gives zero. */
#ifndef BOIDS_RULES_HYBRID_H
#define BOIDS_RULES_HYBRID_H

#include "rules/common.h"

RULES_FN reynolds_radii hybrid_radii(RULES_CTX_ONLY)
{
    return reynolds_radii_of(UNIFORM(hybrid.sep_radius), UNIFORM(hybrid.align_radius),
                             UNIFORM(hybrid.cohesion_radius), true); /* Adams' separation */
}

RULES_FN rules_boid hybrid_steer(RULES_CTX reynolds_sums m, rules_boid b)
{
    lane_f vmax = PARAM(base.max_speed), ws = PARAM(hybrid.sep_weight);
    lane_vec v = boid_velocity(b);
    lane_vec f = VEC(m.sep_x * ws, m.sep_y * ws, m.sep_z * ws);
    lane_m ali_on = m.ali_n > 0u, coh_on = m.coh_n > 0u;
    lane_f n = SELECT(ali_on, LANE_TO_F(m.ali_n), LANE_F(1.0f));
    lane_vec u = set_length(mean_of(VEC(m.ali_x, m.ali_y, m.ali_z), n), vmax);
    f = add_weighted(ali_on, PARAM(hybrid.align_weight), vsub(u, v), f);
    n = SELECT(coh_on, LANE_TO_F(m.coh_n), LANE_F(1.0f));
    u = set_length(mean_of(VEC(m.coh_x, m.coh_y, m.coh_z), n), vmax);
    f = add_weighted(coh_on, PARAM(hybrid.cohesion_weight), vsub(u, v), f);
    return with_velocity(b, integrate_force(RULES_PASS v, limit_length(f, PARAM(hybrid.max_force)),
                                            boid_external(b)));
}

#endif
