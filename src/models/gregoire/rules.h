/* gregoire-chate (docs/models.md (gregoire-chate)): G. Gregoire & H. Chate 2004, "Onset of
 * collective and cohesive motion" (Phys. Rev. Lett. 92, 025702), one step a frame (dt = 1). One
 * source for both backends (rules/lang.h): gregoire_pair says what one neighbour adds to
 * gregoire_sums, and the pair walk of each backend (rules/common.h) runs it.
 *
 *   v_i(t+1) = v_0 Theta[ alpha sum_{j ~ i} v_j / v_0 + beta sum_{j ~ i} f_ij e_ij
 *                         + eta n_i xi_i ]
 *   x_i(t+1) = x_i(t) + v_i(t+1)
 *   j ~ i: the particles within r_0 (with nearest:K, the K nearest beyond r_c); e_ij the unit
 *   vector from i to j at distance r_ij; n_i the neighbours' count; xi_i a random unit vector
 *   (uniform on the circle or the sphere: random_unit, draws 0 and 1 of noise()); Theta[u] =
 *   u / |u|, and
 *     f_ij = -infinity                          r_ij < r_c    (the hard core)
 *     f_ij = (r_ij - r_e) / (4 (r_a - r_e))     r_c < r_ij < r_a
 *     f_ij = 1                                  r_a < r_ij < r_0
 *
 * Our readings (docs/models.md says why):
 *   - the hard core: f = -infinity is the limit of a weight that outgrows every other term, so
 *     where anyone is within r_c the new heading is Theta[-sum e_ij] over those within r_c alone
 *     (the others and the noise vanish beside it); where that sum cancels exactly, the finite
 *     terms decide;
 *   - the alignment sums i's own velocity too (Vicsek's convention, which the paper keeps), and
 *     n_i counts i; the pair force, undefined for j = i, sums the others;
 *   - every swarm's particles are hard cores; only i's own swarm aligns and pulls it;
 *   - with nearest:K, the hard core stays metric and the K nearest beyond r_c are the neighbours,
 *     whatever their distance (f = 1 beyond r_a: the plateau goes on);
 *   - where the sum is exactly zero, the particle keeps its heading (at rest: +x); the external
 *     forces (obstacles, the mouse tool) turn the heading, v_0 Theta[v_i(t+1) + e dt];
 *   - in 3D, xi_i is uniform on the sphere (the paper's runs are flat). */
#ifndef BOIDS_RULES_GREGOIRE_H
#define BOIDS_RULES_GREGOIRE_H

#include "rules/common.h"

/* The bands as the walks test them (the same in every lane): the squared radii r_c^2, r_a^2 and
 * the walk's reach max(r_0, r_c)^2; r_e and the spring's slope 1 / (4 (r_a - r_e)). */
RULES_STRUCT(gregoire_zones) { float rc2, ra, ra2, reach2, re, slope; }
RULES_STRUCT_END(gregoire_zones)

RULES_FN gregoire_zones gregoire_zones_of(RULES_CTX_ONLY)
{
    gregoire_zones z;
    /* precise: the walks of both backends compare with these very bits */
    PRECISE float rc = UNIFORM(gregoire.core_radius);
    PRECISE float r0 = UNIFORM(gregoire.radius);
    PRECISE float reach = r0 > rc ? r0 : rc;
    z.rc2 = rc * rc;
    z.ra = UNIFORM(gregoire.attraction_radius);
    z.ra2 = z.ra * z.ra;
    z.reach2 = reach * reach;
    z.re = UNIFORM(gregoire.equilibrium);
    PRECISE float span = (z.ra - z.re) * 4.0f;
    z.slope = DIV(1.0f, span);
    return z;
}

/* What the walk gathers: the unit vectors towards those within r_c (any swarm) and their count,
 * the neighbours' velocities (its own not yet), sum f_ij e_ij and the neighbours' count. */
RULES_STRUCT(gregoire_sums)
{
    lane_f core_x, core_y, ali_x, ali_y, frc_x, frc_y;
    lane_u n_c, n;
    lane_f core_z, ali_z, frc_z; /* 0 in a flat world */
}
RULES_STRUCT_END(gregoire_sums)

/* The sums' fields, for the pair walk (rules/common.h). */
#define gregoire_sums_fields(F, U, Z)                                                              \
    F(core_x) F(core_y) F(ali_x) F(ali_y) F(frc_x) F(frc_y) U(n_c) U(n) Z(core_z) Z(ali_z) Z(frc_z)

/* The walk's reach, max(r_0, r_c); the nearest (the neighbours in a world of nearest:K) are those
 * beyond r_c. */
RULES_FN rules_pair_reach gregoire_reach(gregoire_zones z)
{
    return pair_reach(z.reach2, z.rc2, false, -1.0f);
}

/* What one other particle adds: within the hard core r_c (every swarm) the unit vector towards
 * it; else, of its own swarm within r_0, its velocity and f_ij e_ij = (f / r) d. In a world of
 * nearest:K the hard core stays metric and the K nearest beyond r_c are the neighbours, whatever
 * their distance. One division, then products. */
RULES_FN gregoire_sums gregoire_pair(RULES_CTX gregoire_zones z, rules_pair p, uint phase)
{
    RULES_CTX_UNUSED;
    lane_m none = NOT(LANE_TRUE);
    lane_m core = p.d2 < z.rc2;
    lane_m near = AND(NOT(core), p.same);
    if (phase == RULES_PAIR_BESIDE) near = none;                    /* the nearest's to come */
    if (phase == RULES_PAIR_NEAREST) core = none, near = LANE_TRUE; /* the search's filter */
    PRECISE lane_f r = SQRT(p.d2);
    PRECISE lane_f inv = DIV(1.0f, r);
    PRECISE lane_f f = SELECT(p.d2 < z.ra2, (r - z.re) * z.slope, LANE_F(1.0f));
    PRECISE lane_f w = f * inv;
    PRECISE lane_vec u = VEC(p.d.x * inv, p.d.y * inv, p.d.z * inv);
    PRECISE lane_vec fe = VEC(p.d.x * w, p.d.y * w, p.d.z * w);
    gregoire_sums t;
    t.core_x = MASK(u.x, core), t.core_y = MASK(u.y, core);
    t.ali_x = MASK(p.v.x, near), t.ali_y = MASK(p.v.y, near);
    t.frc_x = MASK(fe.x, near), t.frc_y = MASK(fe.y, near);
#if BOIDS_DIMS == 3
    t.core_z = MASK(u.z, core), t.ali_z = MASK(p.v.z, near), t.frc_z = MASK(fe.z, near);
#else
    t.core_z = t.ali_z = t.frc_z = LANE_F(0.0f);
#endif
    t.n_c = LANE_BIT(core), t.n = LANE_BIT(near);
    return t;
}

RULES_FN rules_boid gregoire_steer(RULES_CTX gregoire_sums m, rules_boid b)
{
    lane_f v0 = PARAM(base.max_speed);
    lane_vec v = boid_velocity(b);
    lane_vec s = vadd(VEC(m.ali_x, m.ali_y, m.ali_z), v); /* itself included */
    lane_f a = DIV(PARAM(gregoire.alpha), v0), be = PARAM(gregoire.beta);
    lane_f k = PARAM(gregoire.eta) * LANE_TO_F(m.n + 1u);
    lane_vec xi = random_unit(RULES_PASS b.id);
    lane_vec t =
        VEC(MAD(k, xi.x, MAD(be, m.frc_x, a * s.x)), MAD(k, xi.y, MAD(be, m.frc_y, a * s.y)),
            MAD(k, xi.z, MAD(be, m.frc_z, a * s.z)));
    /* the hard core: away from those within r_c, all else vanishing beside it */
    lane_vec away = VEC(-m.core_x, -m.core_y, -m.core_z);
    t = vselect(AND(m.n_c > 0u, nonzero(away)), away, t);
    /* a sum that cancels: the heading it has (at rest: +x) */
    lane_vec way = vselect(nonzero(t), t,
                           vselect(nonzero(v), v, VEC(LANE_F(1.0f), LANE_F(0.0f), LANE_F(0.0f))));
    lane_vec nv = set_length(way, v0);
    return with_velocity(b, external_turn(RULES_PASS nv, boid_external(b), v0));
}

#endif
