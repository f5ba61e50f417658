/* drag (examples/drag/model.h): Reynolds' three sums with a linear drag. One source for both
 * backends (src/rules/lang.h).
 *
 *   F = truncate(f_sep w_sep + f_ali w_ali + f_coh w_coh, F_max) - c_d v
 *   f_sep = sum of (p_i - p_j) over N_sep(i)     raw offsets, every swarm
 *   f_ali = mean v_j - v                         same swarm
 *   f_coh = mean (p_j - p_i)                     same swarm
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * The drag comes after the truncation: it is friction, not steering. */
#ifndef BOIDS_RULES_DRAG_H
#define BOIDS_RULES_DRAG_H

#include "rules/common.h"

/* What the Reynolds walk gathers: the separation's raw offsets within sep_radius (true), the
 * alignment's and cohesion's sums within theirs. */
RULES_FN reynolds_radii drag_radii(RULES_CTX_ONLY)
{
    return reynolds_radii_of(UNIFORM(reynolds.sep_radius), UNIFORM(reynolds.align_radius),
                             UNIFORM(reynolds.cohesion_radius), true);
}

/* One boid's step from its sums: the force, then the shared integration. */
RULES_FN rules_boid drag_steer(RULES_CTX reynolds_sums m, rules_boid b)
{
    lane_f fx = m.sep_x * PARAM(reynolds.sep_weight), fy = m.sep_y * PARAM(reynolds.sep_weight);
    lane_m ali = m.ali_n > 0u, coh = m.coh_n > 0u; /* a mean needs a neighbour */
    lane_f na = SELECT(ali, LANE_TO_F(m.ali_n), LANE_F(1.0f));
    lane_f nc = SELECT(coh, LANE_TO_F(m.coh_n), LANE_F(1.0f));
    fx += MASK((DIV(m.ali_x, na) - b.vx) * PARAM(reynolds.align_weight), ali);
    fy += MASK((DIV(m.ali_y, na) - b.vy) * PARAM(reynolds.align_weight), ali);
    fx += MASK(DIV(m.coh_x, nc) * PARAM(reynolds.cohesion_weight), coh);
    fy += MASK(DIV(m.coh_y, nc) * PARAM(reynolds.cohesion_weight), coh);
    lane_v2 f = limit_length(LANE_V2(fx, fy), PARAM(reynolds.max_force));
    lane_f drag = PARAM(drag.drag);
    f = LANE_V2(f.x - drag * b.vx, f.y - drag * b.vy);
    lane_v2 v = integrate_force(RULES_PASS LANE_V2(b.vx, b.vy), f, LANE_V2(b.ex, b.ey));
    b.vx = v.x;
    b.vy = v.y;
    return b;
}

#endif
