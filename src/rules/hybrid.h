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
    lane_f vmax = PARAM(base.max_speed);
    lane_f fx = m.sep_x * PARAM(hybrid.sep_weight), fy = m.sep_y * PARAM(hybrid.sep_weight);
    lane_m ali_on = m.ali_n > 0u, coh_on = m.coh_n > 0u;
    lane_f n = SELECT(ali_on, LANE_TO_F(m.ali_n), LANE_F(1.0f));
    lane_v2 u = set_length(LANE_V2(DIV(m.ali_x, n), DIV(m.ali_y, n)), vmax);
    fx = SELECT(ali_on, MAD(u.x - b.vx, PARAM(hybrid.align_weight), fx), fx);
    fy = SELECT(ali_on, MAD(u.y - b.vy, PARAM(hybrid.align_weight), fy), fy);
    n = SELECT(coh_on, LANE_TO_F(m.coh_n), LANE_F(1.0f));
    u = set_length(LANE_V2(DIV(m.coh_x, n), DIV(m.coh_y, n)), vmax);
    fx = SELECT(coh_on, MAD(u.x - b.vx, PARAM(hybrid.cohesion_weight), fx), fx);
    fy = SELECT(coh_on, MAD(u.y - b.vy, PARAM(hybrid.cohesion_weight), fy), fy);
    lane_v2 v = integrate_force(RULES_PASS LANE_V2(b.vx, b.vy),
                                limit_length(LANE_V2(fx, fy), PARAM(hybrid.max_force)),
                                LANE_V2(b.ex, b.ey));
    b.vx = v.x;
    b.vy = v.y;
    return b;
}

#endif
