/* The Shiffman models: shiffman-per-second (docs/models.md (shiffman-per-second)) and the
 * frame-based shiffman-processing and shiffman-noc (§2, tables 2.6 and 2.7), which are the same
 * rules with dt = 1 frame, no v_min (0) and Processing's borders(). One source for both backends
 * (rules/lang.h).
 *
 *   separation: s = mean over N_p(i) of (p_i - p_j) / d^2   (unit vector / d), every swarm
 *   alignment:  mean velocity of same-swarm neighbours within r_ali
 *   cohesion:   mean offset to same-swarm neighbours within r_coh (minimum image)
 *   each: f = truncate(normalize(desired) * v_max - v, f_max); F = w_s f_s + w_a f_a + w_c f_c
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * Degenerate cases follow Processing's PVector, which the model comes from: neighbours at
 * distance 0 are ignored (Shiffman's `d > 0`); normalising a zero vector gives zero, so a zero
 * mean velocity steers towards rest (desired = 0); separation steers only when |s| > 0; a boid
 * with exactly zero velocity has no direction to be raised to v_min along and keeps v = 0. */
#ifndef BOIDS_RULES_SHIFFMAN_H
#define BOIDS_RULES_SHIFFMAN_H

#include "rules/common.h"

RULES_FN reynolds_radii shiffman_radii(RULES_CTX_ONLY)
{
    return reynolds_radii_of(UNIFORM(reynolds.sep_radius), UNIFORM(reynolds.align_radius),
                             UNIFORM(reynolds.cohesion_radius), false);
}

/* Reynolds steering towards a direction at full speed: truncate(normalize(dir) v_max - v, f_max).
 * A zero direction gives desired = 0. */
RULES_FN lane_vec seek_dir(lane_vec dir, lane_vec v, lane_f vmax, lane_f fmax)
{
    return limit_length(vsub(set_length(dir, vmax), v), fmax);
}

RULES_FN rules_boid shiffman_steer(RULES_CTX reynolds_sums m, rules_boid b)
{
    lane_vec v = boid_velocity(b);
    lane_f vmax = PARAM(base.max_speed), fmax = PARAM(reynolds.max_force);
    /* the means, of lanes with neighbours (the others divide by 1, and take nothing) */
    lane_m sep_any = m.sep_n > 0u, ali_on = m.ali_n > 0u, coh_on = m.coh_n > 0u;
    lane_f sep_n = SELECT(sep_any, LANE_TO_F(m.sep_n), LANE_F(1.0f));
    lane_f ali_n = SELECT(ali_on, LANE_TO_F(m.ali_n), LANE_F(1.0f));
    lane_f coh_n = SELECT(coh_on, LANE_TO_F(m.coh_n), LANE_F(1.0f));
    lane_vec s = mean_of(VEC(m.sep_x, m.sep_y, m.sep_z), sep_n);
    lane_m sep_on = AND(sep_any, nonzero(s)); /* steers only when |s| > 0 */
    lane_vec f = VEC(LANE_F(0.0f), LANE_F(0.0f), LANE_F(0.0f));
    f = add_weighted(sep_on, PARAM(reynolds.sep_weight), seek_dir(s, v, vmax, fmax), f);
    f = add_weighted(ali_on, PARAM(reynolds.align_weight),
                     seek_dir(mean_of(VEC(m.ali_x, m.ali_y, m.ali_z), ali_n), v, vmax, fmax), f);
    f = add_weighted(coh_on, PARAM(reynolds.cohesion_weight),
                     seek_dir(mean_of(VEC(m.coh_x, m.coh_y, m.coh_z), coh_n), v, vmax, fmax), f);
    return with_velocity(b, integrate_force(RULES_PASS v, f, boid_external(b)));
}

#endif
