/* kit (docs/models.md (kit)): the boids' rules of Bruschke & Golks. One source for both backends
 * (rules/lang.h): what one flockmate adds (kit_pair) and one predator (kit_flee_pair), and a
 * boid's step from the sums. The GPU gathers the sums on the shared pair walk
 * (shaders/walk_pairs.glsl, with the hooks below: zones from each boid's age, the predators'
 * walk); the CPU on lane groups of its own (walk.c beside it: several times faster than the CPU's
 * pair walk, docs/bench.md), calling the same two functions, so the sums are the same bits.
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

/* clang-format off */
#define kit_sums_fields(F, U, Z)                                                                   \
    F(sep_x) F(sep_y) F(coh_x) F(coh_y) F(ali_x) F(ali_y) U(n) F(flee_x) F(flee_y)                 \
    Z(sep_z) Z(coh_z) Z(ali_z) Z(flee_z)
/* clang-format on */

/* What the pair rule compares with: R_S^2 and R_P^2 for every boid, the walks' reaches, and a
 * boid's own view (kit_zones_at: R^2 and cos(alpha) from its age). Distances are inclusive: a
 * reach a millionth beyond the largest radius lets every boid at the radius in (the walk's test
 * is d2 < reach2), and the rule's own tests (<=) leave out those beyond it. Every boid's R is at
 * most view_radius (eq. 7 only takes away). */
RULES_STRUCT(kit_zones)
{
    float rs2, rp2, reach2, flee_reach2;
    lane_f R2, cos_view;
}
RULES_STRUCT_END(kit_zones)

RULES_FN kit_zones kit_zones_of(RULES_CTX_ONLY)
{
    kit_zones z;
    z.rs2 = UNIFORM(kit.sep_radius) * UNIFORM(kit.sep_radius);
    z.rp2 = UNIFORM(kit.predator_radius) * UNIFORM(kit.predator_radius);
    float view2 = UNIFORM(kit.view_radius) * UNIFORM(kit.view_radius);
    z.reach2 = (view2 > z.rs2 ? view2 : z.rs2) * 1.000001f;
    z.flee_reach2 = z.rp2 * 1.000001f;
    z.R2 = LANE_F(view2);
    z.cos_view = LANE_F(1.0f);
    return z;
}

/* The zones of the boid(s) b: its view from its age. */
RULES_FN kit_zones kit_zones_at(RULES_CTX kit_zones z, rules_boid b)
{
    kit_view view = kit_individuality(RULES_PASS b.attr[BOIDS_ATTR_AGE]);
    z.R2 = view.R2;
    z.cos_view = view.cos_view;
    return z;
}

RULES_FN rules_pair_reach kit_reach(kit_zones z)
{
    return pair_reach(z.reach2, 0.0f, false, -1.0f);
}

/* What one other boid adds: within R_S (eq. 3) the unit vector away from it, every boid, seen or
 * not; within R and the view cone (the view field) its offset and velocity, and a count. (One
 * division, two products: d (-1/d) is -(d/d) bit for bit, the sign being exact; a lane outside
 * R_S divides by 1, never by 0.) */
RULES_FN kit_sums kit_pair(RULES_CTX kit_zones z, rules_pair p, uint phase)
{
    RULES_CTX_UNUSED;
    RULES_UNUSED(phase); /* (metric only: kit has no nearest:K reading) */
    lane_m sep = p.d2 <= z.rs2;
    lane_m flock = AND(p.d2 <= z.R2, in_view(p.me, p.d, p.d2, z.cos_view));
    lane_f away = LANE_F(0.0f); /* -1/d, where a lane needs it (R_S is small: seldom) */
    if (ANY(sep)) away = DIV(LANE_F(-1.0f), SQRT(SELECT(sep, p.d2, LANE_F(1.0f))));
    kit_sums t;
    t.sep_x = MASK(p.d.x * away, sep), t.sep_y = MASK(p.d.y * away, sep);
    t.coh_x = MASK(p.d.x, flock), t.coh_y = MASK(p.d.y, flock);
    t.ali_x = MASK(p.v.x, flock), t.ali_y = MASK(p.v.y, flock);
    t.n = LANE_BIT(flock);
    t.flee_x = LANE_F(0.0f), t.flee_y = LANE_F(0.0f), t.flee_z = LANE_F(0.0f);
#if BOIDS_DIMS == 3
    t.sep_z = MASK(p.d.z * away, sep), t.coh_z = MASK(p.d.z, flock);
    t.ali_z = MASK(p.v.z, flock);
#else
    t.sep_z = LANE_F(0.0f), t.coh_z = LANE_F(0.0f), t.ali_z = LANE_F(0.0f);
#endif
    return t;
}

/* What one predator at offset d (squared length d2 > 0) adds: within R_P (eq. 6) the unit vector
 * away from it. */
RULES_FN kit_sums kit_flee_pair(RULES_CTX kit_zones z, lane_vec d, lane_f d2)
{
    RULES_CTX_UNUSED;
    lane_m flee = d2 <= z.rp2;
    lane_f away = LANE_F(0.0f); /* -1/d, where a lane needs it */
    if (ANY(flee)) away = DIV(LANE_F(-1.0f), SQRT(SELECT(flee, d2, LANE_F(1.0f))));
    kit_sums t;
    t.sep_x = LANE_F(0.0f), t.sep_y = LANE_F(0.0f), t.coh_x = LANE_F(0.0f);
    t.coh_y = LANE_F(0.0f), t.ali_x = LANE_F(0.0f), t.ali_y = LANE_F(0.0f), t.n = LANE_U(0u);
    t.sep_z = LANE_F(0.0f), t.coh_z = LANE_F(0.0f), t.ali_z = LANE_F(0.0f);
    t.flee_x = MASK(d.x * away, flee), t.flee_y = MASK(d.y * away, flee);
#if BOIDS_DIMS == 3
    t.flee_z = MASK(d.z * away, flee);
#else
    t.flee_z = LANE_F(0.0f);
#endif
    return t;
}

/* The GPU's pair walk's hooks for kit (shaders/walk_pairs.glsl): a boid's own zones, the
 * predators' walk and its reach. (The CPU's lane groups call these functions themselves:
 * walk.c.) */
#if defined(BOIDS_GLSL)
#define RULES_ZONES_AT kit_zones_at
#define RULES_FLEE_PAIR kit_flee_pair
#define RULES_FLEE_REACH2(z) (z).flee_reach2
#endif

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
