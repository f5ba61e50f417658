/* reynolds-pairs (model.h beside it): Reynolds' three sums as a pair rule, and Shiffman's steering
 * of them (src/models/shiffman/rules.h). One pair adds what the Reynolds walk adds for it, in the
 * same operations: within r_sep (every swarm) -(dx, dy, dz) / d^2, within r_ali (its own swarm)
 * the other's velocity, within r_coh (its own swarm) the offset, and a count each; the pair walk
 * adds them in the candidates' order, as the Reynolds walk does, so the sums are the same bits. */
#ifndef BOIDS_EXAMPLE_REYNOLDS_PAIRS_RULES_H
#define BOIDS_EXAMPLE_REYNOLDS_PAIRS_RULES_H

#include "models/shiffman/rules.h"

/* The squared radii, and the walk's reach: the largest of them. */
RULES_STRUCT(reynolds_pairs_zones) { float sep2, ali2, coh2, reach2; }
RULES_STRUCT_END(reynolds_pairs_zones)

RULES_FN reynolds_pairs_zones reynolds_pairs_zones_of(RULES_CTX_ONLY)
{
    reynolds_radii r = shiffman_radii(RULES_PASS_ONLY);
    reynolds_pairs_zones z;
    z.sep2 = r.sep2, z.ali2 = r.ali2, z.coh2 = r.coh2;
    float most = z.sep2 > z.ali2 ? z.sep2 : z.ali2;
    z.reach2 = most > z.coh2 ? most : z.coh2;
    return z;
}

/* The Reynolds walk's sums (reynolds_sums), as fields the pair walk adds one by one. */
RULES_STRUCT(reynolds_pairs_sums)
{
    lane_f sep_x, sep_y, ali_x, ali_y, coh_x, coh_y;
    lane_u sep_n, ali_n, coh_n;
    lane_f sep_z, ali_z, coh_z; /* 0 in a flat world */
}
RULES_STRUCT_END(reynolds_pairs_sums)

/* clang-format off */
#define reynolds_pairs_sums_fields(F, U, Z)                                                        \
    F(sep_x) F(sep_y) F(ali_x) F(ali_y) F(coh_x) F(coh_y)                                          \
    U(sep_n) U(ali_n) U(coh_n)                                                                     \
    Z(sep_z) Z(ali_z) Z(coh_z)
/* clang-format on */

RULES_FN rules_pair_reach reynolds_pairs_reach(reynolds_pairs_zones z)
{
    return pair_reach(z.reach2, 0.0f, false, -1.0f);
}

/* One pair's terms. -(d / d^2) added is the Reynolds walk's d / d^2 subtracted, bit for bit. */
RULES_FN reynolds_pairs_sums reynolds_pairs_pair(RULES_CTX reynolds_pairs_zones z, rules_pair p,
                                                 uint phase)
{
    RULES_CTX_UNUSED;
    lane_m sep = p.d2 < z.sep2, ali = AND(p.same, p.d2 < z.ali2), coh = AND(p.same, p.d2 < z.coh2);
    PRECISE lane_f inv_d2 = DIV(LANE_F(1.0f), p.d2);
    reynolds_pairs_sums t;
    t.sep_x = MASK(-(p.d.x * inv_d2), sep), t.sep_y = MASK(-(p.d.y * inv_d2), sep);
    t.ali_x = MASK(p.v.x, ali), t.ali_y = MASK(p.v.y, ali);
    t.coh_x = MASK(p.d.x, coh), t.coh_y = MASK(p.d.y, coh);
#if BOIDS_DIMS == 3
    t.sep_z = MASK(-(p.d.z * inv_d2), sep), t.ali_z = MASK(p.v.z, ali);
    t.coh_z = MASK(p.d.z, coh);
#else
    t.sep_z = t.ali_z = t.coh_z = LANE_F(0.0f);
#endif
    t.sep_n = LANE_BIT(sep), t.ali_n = LANE_BIT(ali), t.coh_n = LANE_BIT(coh);
    return t;
}

RULES_FN rules_boid reynolds_pairs_steer(RULES_CTX reynolds_pairs_sums m, rules_boid b)
{
    reynolds_sums r;
    r.sep_x = m.sep_x, r.sep_y = m.sep_y, r.sep_z = m.sep_z;
    r.ali_x = m.ali_x, r.ali_y = m.ali_y, r.ali_z = m.ali_z;
    r.coh_x = m.coh_x, r.coh_y = m.coh_y, r.coh_z = m.coh_z;
    r.sep_n = m.sep_n, r.ali_n = m.ali_n, r.coh_n = m.coh_n;
    return shiffman_steer(RULES_PASS r, b);
}

#endif
