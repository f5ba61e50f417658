/* kit (docs/models.md (kit)): the boids' rules of Bruschke & Golks. One source for both backends
 * (rules/lang.h); the walks over flockmates and predators are each backend's own (its view field
 * is not the Reynolds walk's: src/models/kit/walk.c, src/models/kit/walk.glsl).
 *
 *   individuality (eq. 7-9): a = (age - 0.5)^2; R = view_radius - c_view_radius a,
 *     alpha = view_angle - c_view_angle a, v_max = max_speed - c_maxspeed a
 *   view field V: other boids at distance <= R whose offset is within alpha of the heading
 *   F_c = c_c (mean offset to V)              eq. 1 (minimum image: the mean position - x)
 *   F_a = c_a (mean velocity of V - v)        eq. 2
 *   F_s = -c_s sum (x_n - x)/|x_n - x|        eq. 3, every boid within R_S, seen or not
 *   F_pa = -c_pa sum (p_n - x)/|p_n - x|      eq. 6, every predator within R_P
 *   F_oa = -c_oa sum (o_n - x)/|o_n - x|      eq. 4, through the external-force hook
 *   v' = v + F_tot (no dt: eq. 10), cut to [v_min, v_max(age)] (eq. 11), x' = x + dt v' (eq. 12),
 *   wrapped (a torus).
 *
 * Dead boids (caught) and the boids of a stopped replica do not move (the walks leave them
 * standing); dead boids are in the grid's graveyard, so nobody sees them. Distances are
 * inclusive (<=), as in the authors' code; a neighbour at distance 0 has no direction and counts
 * in no sum; a boid at rest sees all around and stays at rest. The view cone test compares
 * squares (in_view). */
#ifndef BOIDS_RULES_KIT_H
#define BOIDS_RULES_KIT_H

#include "rules/common.h"

/* A boid's individuality (eq. 7-9) from its age: its squared view radius R^2, cos(alpha) and
 * v_max. */
RULES_STRUCT(kit_view) { lane_f R2, cos_view, vmax; }
RULES_STRUCT_END(kit_view)

RULES_FN kit_view kit_individuality(RULES_CTX lane_f age)
{
    lane_f a = (age - 0.5f) * (age - 0.5f);
    lane_f R = PARAM(kit.view_radius) - PARAM(kit.c_view_radius) * a;
    kit_view v;
    v.R2 = R * R;
    v.cos_view = cos_deg(PARAM(kit.view_angle) - PARAM(kit.c_view_angle) * a);
    v.vmax = PARAM(base.max_speed) - PARAM(kit.c_maxspeed) * a;
    return v;
}

/* What a boid's walks gather: eq. 3's sum over R_S; the sums over its view field V and their
 * count; eq. 6's sum over the predators within R_P. */
RULES_STRUCT(kit_sums)
{
    lane_f sep_x, sep_y, coh_x, coh_y, ali_x, ali_y;
    lane_u n;
    lane_f flee_x, flee_y;
    lane_f sep_z, coh_z, ali_z, flee_z; /* 0 in a flat world */
}
RULES_STRUCT_END(kit_sums)

/* A living boid's step from its sums: the forces, eq. 10's update, the speed limits. */
RULES_FN rules_boid kit_steer(RULES_CTX kit_sums m, rules_boid b)
{
    lane_f vmax = kit_individuality(RULES_PASS b.attr[BOIDS_ATTR_AGE]).vmax;
    /* precise: a sum of two products is fused into a multiply-add here by Mesa's compiler, which
     * the CPU (built with -ffp-contract=off) does not do */
    PRECISE lane_f fx =
        m.sep_x * PARAM(kit.separation_factor) + m.flee_x * PARAM(kit.predator_factor);
    PRECISE lane_f fy =
        m.sep_y * PARAM(kit.separation_factor) + m.flee_y * PARAM(kit.predator_factor);
    lane_m any = m.n > 0u;
    lane_f fn = SELECT(any, LANE_TO_F(m.n), LANE_F(1.0f));
    lane_f cf = PARAM(kit.cohesion_factor), af = PARAM(kit.alignment_factor);
    fx = SELECT(any, fx + (DIV(m.coh_x, fn) * cf + (DIV(m.ali_x, fn) - b.vx) * af), fx);
    fy = SELECT(any, fy + (DIV(m.coh_y, fn) * cf + (DIV(m.ali_y, fn) - b.vy) * af), fy);
#if BOIDS_DIMS == 3
    PRECISE lane_f fz =
        m.sep_z * PARAM(kit.separation_factor) + m.flee_z * PARAM(kit.predator_factor);
    fz = SELECT(any, fz + (DIV(m.coh_z, fn) * cf + (DIV(m.ali_z, fn) - b.vz) * af), fz);
#endif
    /* eq. 10: v += F, no dt; the obstacles (eq. 4) and the mouse tool are the external forces */
    lane_vec v = VEC(b.vx + (fx + b.ex), b.vy + (fy + b.ey), b.vz + (fz + b.ez));
    return with_velocity(b, speed_limits(v, PARAM(base.min_speed), vmax));
}

#endif
