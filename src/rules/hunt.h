/* The predators of models with predators, one source for both backends (rules/lang.h): the catch
 * of a boid, and the predators' steering (kit: eq. 5 of the kit paper, with separation and
 * obstacle avoidance); the walks that find what they take are each backend's (cpu/hunt.c's
 * boids_cpu_catch and boids_cpu_hunt, shaders/catch.comp and hunt.comp).
 *
 *   F = c_att (nearest boid in view - p) / |...|        the attack, where one is in view
 *     + c_sep sum over the other predators within R_sep of (p - p_n) / |p - p_n|
 *     + c_obs sum over the obstacles within R_obs of (p - o) / |p - o|   (where there are any)
 *   v' = v + F (no dt, as the boids' eq. 10), within [v_min, v_max] of the predators */
#ifndef BOIDS_RULES_HUNT_H
#define BOIDS_RULES_HUNT_H

#include "rules/common.h"

/* ---- the catches --------------------------------------------------------------------------- */

/* The catches at the start of a step (cpu/hunt.c's boids_cpu_catch, shaders/catch.comp): a living
 * boid of a running replica is caught by a predator within boid_size + predator_size of it
 * (minimum image; in 3D where the world is), by the lowest predator id within that reach. The
 * reach's square: */
RULES_FN float catch_reach2(RULES_CTX_ONLY)
{
    float reach = UNIFORM(predators.boid_size) + UNIFORM(predators.predator_size);
    return reach * reach;
}

/* Whether the boid, d2 from predator `pred` (squared), is caught by it rather than by `best`, the
 * predator that caught it among those walked before (0xffffffffu: none). */
RULES_FN bool caught_by(float d2, float reach2, uint pred, uint best)
{
    return d2 <= reach2 && pred < best;
}

/* ---- the predators' steering ------------------------------------------------------------------
 */

/* What a predator's walks found. */
RULES_STRUCT(hunt_sums)
{
    lane_f near_x, near_y, near_d2; /* the offset to the nearest boid in view, its square; near_d2
                                       +infinity where none is */
    lane_f sep_x, sep_y;            /* the unit vectors away from the other predators */
    lane_f obs_x, obs_y;            /* and from the obstacles (0 where the world has none) */
    lane_f near_z, sep_z, obs_z;    /* 0 in a flat world */
}
RULES_STRUCT_END(hunt_sums)

RULES_FN lane_vec hunt_velocity(RULES_CTX hunt_sums m, lane_vec v)
{
    lane_m found = m.near_d2 <= 3.40282347e+38f;
    lane_f d = SQRT(SELECT(found, m.near_d2, LANE_F(1.0f)));
    /* precise: no fused multiply-adds, as the CPU (-ffp-contract=off) */
    PRECISE lane_f fx = MASK(DIV(m.near_x, d) * PARAM(predators.attack_factor), found);
    PRECISE lane_f fy = MASK(DIV(m.near_y, d) * PARAM(predators.attack_factor), found);
    fx += m.sep_x * PARAM(predators.pred_sep_factor);
    fy += m.sep_y * PARAM(predators.pred_sep_factor);
#if BOIDS_DIMS == 3
    PRECISE lane_f fz = MASK(DIV(m.near_z, d) * PARAM(predators.attack_factor), found);
    fz += m.sep_z * PARAM(predators.pred_sep_factor);
#endif
    if (RULES_OBSTACLES > 0u) {
        fx += m.obs_x * PARAM(predators.pred_obstacle_factor);
        fy += m.obs_y * PARAM(predators.pred_obstacle_factor);
#if BOIDS_DIMS == 3
        fz += m.obs_z * PARAM(predators.pred_obstacle_factor);
#endif
    }
    return speed_limits(VEC(v.x + fx, v.y + fy, v.z + fz), PARAM(predators.pred_min_speed),
                        PARAM(predators.pred_max_speed));
}

#endif
