/* priority and mean (docs/models.md (priority, mean)): Reynolds 1987's acceleration arbitration.
 * One source for both backends (rules/lang.h). Three vectors, weighted:
 *
 *   vector 3 (priority 1): sum over neighbours within sep_radius of (p_i - p_j) / d^2: the
 *                          separation (the paper's "weighted sum of differences"; we weight
 *                          each by 1/d^2, i.e. a unit vector / d, so closer counts more)
 *   vector 2 (priority 2): mean velocity of the neighbours within neighbor_radius - v
 *   vector 1 (priority 3): mean position of those neighbours - p (mean offset; across a wrap)
 *
 *   mean:     a = w3 v3 + w2 v2 + w1 v1, truncated to max_accel (mean_set_length = 1: its
 *             length set to max_accel; the text's "rescaled" reads either way)
 *   priority: priority_allocate(w3 v3, w2 v2, w1 v1, max_accel)
 *   v' = v + a dt within [min_speed, max_speed] (ours: the paper has no speed limits; the
 *   presets keep min_speed = 0); p' = p + v' dt
 *
 * Separation counts every swarm, vectors 1 and 2 the boid's own swarm (as in the other models).
 * Obstacles join vector 3, as the paper's "differences from stationary objects": obstacle_factor
 * times the sum of (p - o)/d^2 over the obstacle centres within obstacle_radius (the manifest's
 * BOIDS_FEATURE_OBSTACLE_RULE: the backend hands them over as rules_boid's ox, oy, and the
 * external-force hook leaves them out). */
#ifndef BOIDS_RULES_ALLOCATION_H
#define BOIDS_RULES_ALLOCATION_H

#include "rules/common.h"

RULES_FN reynolds_radii allocation_radii(RULES_CTX_ONLY)
{
    /* alignment and cohesion share one radius */
    return reynolds_radii_of(UNIFORM(allocation.sep_radius), UNIFORM(allocation.neighbor_radius),
                             UNIFORM(allocation.neighbor_radius), false);
}

/* One vector of the allocation added to a (where not `done`): whole while the sum stays within
 * m (m2 = m^2), else the part alpha that brings the sum's length to exactly m, which ends it. */
RULES_FN lane_vec allocate_next(lane_vec a, lane_vec n, lane_f m2, INOUT(lane_m, done))
{
    lane_f n2 = length2(n);
    lane_m live = AND(NOT(OUT(done)), n2 > 0.0f); /* a zero vector adds nothing */
    if (!ANY(live)) return a; /* no square root or division where no lane takes them */
    lane_f xy = vdot(a, n), x2 = length2(a);
    lane_f disc = (2.0f * xy) * (2.0f * xy) + 4.0f * n2 * (m2 - x2);
    lane_f alpha = DIV(-2.0f * xy + SQRT(MAX(disc, LANE_F(0.0f))), 2.0f * n2);
    lane_m whole = alpha > 1.0f; /* all of it fits */
    OUT(done) = OR(OUT(done), AND(live, NOT(whole)));
    return vselect(
        live,
        vselect(whole, vadd(a, n), VEC(a.x + alpha * n.x, a.y + alpha * n.y, a.z + alpha * n.z)),
        a);
}

/* Priority allocation: x (the highest priority), y, z in that order, each in full while the sum
 * stays within m, the last one in the part alpha that brings the sum's length to exactly m. x
 * alone longer than m is rescaled to m. */
RULES_FN lane_vec priority_allocate(lane_vec x, lane_vec y, lane_vec z, lane_f m)
{
    lane_f m2 = m * m;
    lane_m over = length2(x) > m2; /* the highest priority alone exceeds the maximum */
    lane_m done = over;
    lane_vec a = allocate_next(x, y, m2, REF(done));
    a = allocate_next(a, z, m2, REF(done));
    if (!ANY(over)) return a;
    return vselect(over, set_length_where(x, m, over), a);
}

RULES_FN rules_boid allocation_steer(RULES_CTX reynolds_sums m, rules_boid b)
{
    /* vector 3, with the "differences from stationary objects" */
    lane_f of = PARAM(obstacles.obstacle_factor), sw = PARAM(allocation.sep_weight);
    lane_vec v3 = VEC(m.sep_x * sw + b.ox * of, m.sep_y * sw + b.oy * of, m.sep_z * sw + b.oz * of);
    lane_m any = m.ali_n > 0u;
    lane_f fn = SELECT(any, LANE_TO_F(m.ali_n), LANE_F(1.0f));
    lane_f aw = PARAM(allocation.align_weight), cw = PARAM(allocation.cohesion_weight);
    lane_vec v2 =
        VEC(MASK((DIV(m.ali_x, fn) - b.vx) * aw, any), MASK((DIV(m.ali_y, fn) - b.vy) * aw, any),
            MASK((DIV(m.ali_z, fn) - b.vz) * aw, any));
    lane_vec v1 = VEC(MASK(DIV(m.coh_x, fn) * cw, any), MASK(DIV(m.coh_y, fn) * cw, any),
                      MASK(DIV(m.coh_z, fn) * cw, any));
    lane_f amax = PARAM(allocation.max_accel);
    lane_vec a;
    if (RULES_MODEL == BOIDS_MODEL_PRIORITY) {
        a = priority_allocate(v3, v2, v1, amax);
    } else {
        a = vadd(vadd(v3, v2), v1);
        a = UNIFORM(allocation.mean_set_length) != 0.0f ? set_length(a, amax)
                                                        : limit_length(a, amax);
    }
    return with_velocity(b, integrate_force(RULES_PASS boid_velocity(b), a, boid_external(b)));
}

#endif
