/* spring (model.h beside it): a linear spring between each pair within r_s, and alignment. One
 * source for both backends (src/rules/lang.h).
 *
 *   F = truncate(k sum_{j, r_ij < r_s} (r_ij - r_e) e_ij + w_a (mean_{j same swarm} v_j - v),
 *                F_max)
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * e_ij is the unit vector from i to j; every swarm's boids are springs, only i's own aligns it.
 * In a world of nearest:K the springs stay metric and the K nearest of its swarm align it. */
#ifndef BOIDS_EXAMPLE_SPRING_RULES_H
#define BOIDS_EXAMPLE_SPRING_RULES_H

#include "rules/common.h"

/* What the pair rule compares with, the same in every lane. */
RULES_STRUCT(spring_zones) { float r2, rest; }
RULES_STRUCT_END(spring_zones)

RULES_FN spring_zones spring_zones_of(RULES_CTX_ONLY)
{
    spring_zones z;
    PRECISE float r = UNIFORM(spring.radius); /* precise: both walks compare with these bits */
    z.r2 = r * r;
    z.rest = UNIFORM(spring.rest);
    return z;
}

/* What the walk gathers: the springs' sum, the aligning neighbours' velocities and count. */
RULES_STRUCT(spring_sums)
{
    lane_f frc_x, frc_y, ali_x, ali_y;
    lane_u n;
    lane_f frc_z, ali_z; /* 0 in a flat world */
}
RULES_STRUCT_END(spring_sums)

#define spring_sums_fields(F, U, Z) F(frc_x) F(frc_y) F(ali_x) F(ali_y) U(n) Z(frc_z) Z(ali_z)

/* The walk's reach r_s; the nearest (nearest:K) are any of its swarm, none filtered out. */
RULES_FN rules_pair_reach spring_reach(spring_zones z)
{
    return pair_reach(z.r2, 0.0f, false, -1.0f);
}

/* What one other boid adds: within r_s its spring (r - r_e) e_ij, and of its own swarm its
 * velocity. With nearest:K the springs stay metric (BESIDE) and the K nearest align (NEAREST). */
RULES_FN spring_sums spring_pair(RULES_CTX spring_zones z, rules_pair p, uint phase)
{
    RULES_CTX_UNUSED;
    lane_m within = p.d2 < z.r2;
    lane_m spring = within, align = AND(within, p.same);
    if (phase == RULES_PAIR_BESIDE) align = NOT(LANE_TRUE);
    if (phase == RULES_PAIR_NEAREST) spring = NOT(LANE_TRUE), align = LANE_TRUE;
    PRECISE lane_f r = SQRT(p.d2);
    PRECISE lane_f w = DIV(r - z.rest, r); /* (r - r_e) / r: times d, the unit vector's share */
    spring_sums t;
    t.frc_x = MASK(p.d.x * w, spring), t.frc_y = MASK(p.d.y * w, spring);
    t.ali_x = MASK(p.v.x, align), t.ali_y = MASK(p.v.y, align);
#if BOIDS_DIMS == 3
    t.frc_z = MASK(p.d.z * w, spring), t.ali_z = MASK(p.v.z, align);
#else
    t.frc_z = t.ali_z = LANE_F(0.0f);
#endif
    t.n = LANE_BIT(align);
    return t;
}

RULES_FN rules_boid spring_steer(RULES_CTX spring_sums m, rules_boid b)
{
    lane_vec v = boid_velocity(b);
    lane_f k = PARAM(spring.stiffness);
    lane_vec f = VEC(m.frc_x * k, m.frc_y * k, m.frc_z * k);
    lane_m ali = m.n > 0u; /* a mean needs a neighbour */
    lane_f na = SELECT(ali, LANE_TO_F(m.n), LANE_F(1.0f));
    lane_vec to_mean_v = vsub(mean_of(VEC(m.ali_x, m.ali_y, m.ali_z), na), v);
    f = add_weighted(ali, PARAM(spring.align), to_mean_v, f);
    f = limit_length(f, PARAM(spring.force_limit));
    return with_velocity(b, integrate_force(RULES_PASS v, f, boid_external(b)));
}

#endif
