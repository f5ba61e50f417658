/* drag (model.h beside it): Reynolds' three sums with a linear drag. One source for both
 * backends (src/rules/lang.h).
 *
 *   F = truncate(f_sep w_sep + f_ali w_ali + f_coh w_coh, F_max) - c_d v
 *   f_sep = sum of (p_i - p_j) over N_sep(i)     raw offsets, every swarm
 *   f_ali = mean v_j - v                         same swarm
 *   f_coh = mean (p_j - p_i)                     same swarm
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * The drag comes after the truncation: it is friction, not steering. */
#ifndef BOIDS_MODELS_DRAG_RULES_H
#define BOIDS_MODELS_DRAG_RULES_H

#include "rules/common.h"

/* What the Reynolds walk gathers: the separation's raw offsets within sep_radius (true), the
 * alignment's and cohesion's sums within theirs. */
RULES_FN reynolds_radii drag_radii(RULES_CTX_ONLY)
{
    return reynolds_radii_of(UNIFORM(reynolds.sep_radius), UNIFORM(reynolds.align_radius),
                             UNIFORM(reynolds.cohesion_radius), true);
}

/* One boid's step from its sums: the force, then the shared integration. Written with the
 * vectors of rules/common.h, it serves flat and 3D worlds alike. */
RULES_FN rules_boid drag_steer(RULES_CTX reynolds_sums m, rules_boid b)
{
    lane_vec v = boid_velocity(b);
    lane_f ws = PARAM(reynolds.sep_weight);
    lane_vec f = VEC(m.sep_x * ws, m.sep_y * ws, m.sep_z * ws);
    lane_m ali = m.ali_n > 0u, coh = m.coh_n > 0u; /* a mean needs a neighbour */
    lane_f na = SELECT(ali, LANE_TO_F(m.ali_n), LANE_F(1.0f));
    lane_f nc = SELECT(coh, LANE_TO_F(m.coh_n), LANE_F(1.0f));
    lane_vec to_mean_v = vsub(mean_of(VEC(m.ali_x, m.ali_y, m.ali_z), na), v);
    f = add_weighted(ali, PARAM(reynolds.align_weight), to_mean_v, f);
    f = add_weighted(coh, PARAM(reynolds.cohesion_weight),
                     mean_of(VEC(m.coh_x, m.coh_y, m.coh_z), nc), f);
    f = limit_length(f, PARAM(reynolds.max_force));
    lane_f drag = PARAM(drag.drag);
    f = VEC(f.x - drag * v.x, f.y - drag * v.y, f.z - drag * v.z);
    return with_velocity(b, integrate_force(RULES_PASS v, f, boid_external(b)));
}

#endif
