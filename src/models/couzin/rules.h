/* couzin (docs/models.md (couzin)): Couzin, Krause, James, Ruxton & Franks 2002, "Collective
 * memory and spatial sorting in animal groups" (J. Theor. Biol. 218, 1). One source for both
 * backends (rules/lang.h); couzin_pair says what one neighbour adds to couzin_sums, and the pair
 * walk of each backend (rules/common.h: src/cpu/walk_pairs.h, shaders/walk_pairs.glsl) runs it.
 *
 *   zones around individual i, of the others it perceives (not in the blind volume behind it:
 *   the offsets within alpha/2 of its heading), r_ij the unit vector towards j:
 *     repulsion   |c_j - c_i| < r_r                     d_r = -sum r_ij           eq. 1
 *     orientation r_r <= |c_j - c_i| < r_o               d_o = sum v_j / |v_j|     eq. 2
 *     attraction  r_o <= |c_j - c_i| < r_a               d_a = sum r_ij            eq. 3
 *     r_o = r_r + delta r_o, r_a = r_o + delta r_a
 *   d_i = d_r where anyone is in the repulsion zone; else d_o, d_a, or (d_o + d_a) / 2 where both
 *   have someone; where d_i is zero (nobody, or sums that cancel), i keeps its heading
 *   noise: d_i turned by a spherically wrapped Gaussian of sd sigma (the tangent plane's Gaussian
 *   wrapped onto the circle or sphere: flat, an angle N(0, sigma^2); 3D, a polar angle of
 *   Rayleigh law, sigma its mode, at a uniform azimuth), from draws 0 and 1 of noise()
 *   turn: i heads along d_i if it is within theta tau of its heading v_i, else turns theta tau
 *   towards it; v_i(t + tau) = s times the new heading, c_i(t + tau) = c_i + tau v_i(t + tau)
 *
 * Choices where the paper is silent or could be read two ways (docs/models.md says why):
 *   - the zones count the others; with own_heading = 1 (eq. 2's sum runs from j = 1, eqs. 1 and 3
 *     leave j = i out) i's own heading adds to d_o where someone is in the orientation zone;
 *   - (d_o + d_a) / 2 averages the two as unit vectors, so neither zone wins by its head count;
 *   - the blind volume hides neighbours from every zone (blind_repulsion = 0: not the repulsion);
 *   - a neighbour at distance 0 has no direction and counts in no zone, as in every walk here;
 *   - with several swarms, everyone repels, and only i's own swarm orients and attracts it;
 *   - an individual at rest (a state read from a file) takes d_i without the turn limit;
 *   - d_i exactly opposite the heading turns theta tau about the basis' first axis (flat: left);
 *   - the external forces (obstacles, the mouse tool) push the new heading: s Theta[v + e tau].
 * The speed s is max_speed (the preset sets min_speed to it too); tau is dt. */
#ifndef BOIDS_RULES_COUZIN_H
#define BOIDS_RULES_COUZIN_H

#include "rules/common.h"

/* The zones as the walks test them: the squared radii r_r^2, r_o^2, r_a^2 and the cosine of the
 * half field of perception (the same in every lane). */
RULES_STRUCT(couzin_zones) { float rr2, ro2, ra2, cos_view; }
RULES_STRUCT_END(couzin_zones)

RULES_FN couzin_zones couzin_zones_of(RULES_CTX_ONLY)
{
    couzin_zones z;
    /* precise: the walks of both backends compare with these very bits */
    PRECISE float rr = UNIFORM(couzin.repulsion_radius);
    PRECISE float ro = rr + UNIFORM(couzin.orientation_width);
    PRECISE float ra = ro + UNIFORM(couzin.attraction_width);
    z.rr2 = rr * rr;
    z.ro2 = ro * ro;
    z.ra2 = ra * ra;
    lane_f c = cos_deg(LANE_F(UNIFORM(couzin.perception) * 0.5f));
#if defined(BOIDS_GLSL)
    z.cos_view = c;
#else
    z.cos_view = c[0];
#endif
    return z;
}

/* What the walk gathers: eq. 1's, 2's and 3's sums and how many are in each zone. */
RULES_STRUCT(couzin_sums)
{
    lane_f rep_x, rep_y, ori_x, ori_y, att_x, att_y;
    lane_u n_r, n_o, n_a;
    lane_f rep_z, ori_z, att_z; /* 0 in a flat world */
}
RULES_STRUCT_END(couzin_sums)

/* The sums' fields, for the pair walk (rules/common.h). */
#define couzin_sums_fields(F, U, Z)                                                                \
    F(rep_x)                                                                                       \
    F(rep_y) F(ori_x) F(ori_y) F(att_x) F(att_y) U(n_r) U(n_o) U(n_a) Z(rep_z) Z(ori_z) Z(att_z)

/* The walk's reach, r_a; the nearest (orientation and attraction in a world of nearest:K) are
 * those perceived beyond r_r. */
RULES_FN rules_pair_reach couzin_reach(couzin_zones z)
{
    return pair_reach(z.ra2, z.rr2, true, z.cos_view);
}

/* What one other individual adds: the unit vector towards it in the zone of repulsion (eq. 1,
 * every swarm, perceived or not unless blind_repulsion), its heading in the zone of orientation
 * (eq. 2; one at rest counts but adds no heading) or the unit vector towards it in the zone of
 * attraction (eq. 3), both of its own swarm and perceived. In a world of nearest:K repulsion
 * stays metric and the K nearest perceived beyond r_r orient and attract, whatever their
 * distance. One division, then products, for each unit vector. */
RULES_FN couzin_sums couzin_pair(RULES_CTX couzin_zones z, rules_pair p, uint phase)
{
    lane_m none = NOT(LANE_TRUE);
    lane_m rep = p.d2 < z.rr2;
    lane_m seen = in_view(p.me, p.d, p.d2, LANE_F(z.cos_view));
    lane_m in_rep = UNIFORM(couzin.blind_repulsion) != 0.0f ? AND(rep, seen) : rep;
    lane_m beyond = AND(AND(NOT(rep), p.same), seen); /* orientation or attraction */
    if (phase == RULES_PAIR_BESIDE) beyond = none;    /* the nearest's to come */
    if (phase == RULES_PAIR_NEAREST) in_rep = none, beyond = LANE_TRUE; /* the search's filter */
    lane_m orient = AND(beyond, p.d2 < z.ro2), attract = AND(beyond, NOT(p.d2 < z.ro2));
    lane_f v2 = length2(p.v);
    lane_m heads = AND(orient, v2 > 0.0f);
    PRECISE lane_f inv = DIV(1.0f, SQRT(p.d2));
    PRECISE lane_f hinv = DIV(1.0f, SQRT(v2)); /* (inf at rest: no heading is added) */
    PRECISE lane_vec u = VEC(p.d.x * inv, p.d.y * inv, p.d.z * inv);
    PRECISE lane_vec h = VEC(p.v.x * hinv, p.v.y * hinv, p.v.z * hinv);
    couzin_sums t;
    t.rep_x = MASK(u.x, in_rep), t.rep_y = MASK(u.y, in_rep);
    t.ori_x = MASK(h.x, heads), t.ori_y = MASK(h.y, heads);
    t.att_x = MASK(u.x, attract), t.att_y = MASK(u.y, attract);
#if BOIDS_DIMS == 3
    t.rep_z = MASK(u.z, in_rep), t.ori_z = MASK(h.z, heads), t.att_z = MASK(u.z, attract);
#else
    t.rep_z = t.ori_z = t.att_z = LANE_F(0.0f);
#endif
    t.n_r = LANE_BIT(in_rep), t.n_o = LANE_BIT(orient), t.n_a = LANE_BIT(attract);
    return t;
}

/* Unit vector u turned by the spherically wrapped Gaussian of sd sigma radians: the tangent
 * plane's Gaussian by Box-Muller, radius rho = sigma sqrt(-2 ln(1 - r0)) at the azimuth phi of
 * r1, wrapped onto the circle or sphere. Flat: the angle rho cos(phi), N(0, sigma^2), wrapped to
 * [-180, 180) degrees. 3D: the turn by the polar angle rho towards the azimuth phi (rho mod 360
 * degrees; beyond 180, as 360 - rho towards phi + 180, which lands on the same point). */
RULES_FN lane_vec couzin_noisy(RULES_CTX lane_vec u, lane_u id)
{
    lane_f r0 = noise(RULES_PASS id, LANE_U(0u));
    lane_f phi = MAD(noise(RULES_PASS id, LANE_U(1u)), LANE_F(360.0f), LANE_F(-180.0f));
    lane_f rho = SQRT(ln_of(1.0f - r0) * -2.0f) * LANE_F(UNIFORM(couzin.noise) * 57.2957795f);
#if BOIDS_DIMS == 3
    lane_f a = rho - 360.0f * FLOOR(rho * (1.0f / 360.0f));
    lane_m over = a > 180.0f; /* a at phi is 360 - a at phi + 180 */
    a = SELECT(over, 360.0f - a, a);
    phi = SELECT(over, SELECT(phi > 0.0f, phi - 180.0f, phi + 180.0f), phi);
    return turned(u, cos_deg(MIN(a, LANE_F(180.0f))), phi);
#else
    lane_f xi = rho * cos_deg(ABS(phi));
    xi = xi - 360.0f * FLOOR((xi + 180.0f) * (1.0f / 360.0f));
    return turned(u, MIN(MAX(xi, LANE_F(-180.0f)), LANE_F(180.0f)));
#endif
}

RULES_FN rules_boid couzin_steer(RULES_CTX couzin_sums m, rules_boid b)
{
    lane_f s = PARAM(base.max_speed);
    lane_vec v = boid_velocity(b);
    lane_m moving = nonzero(v);
    lane_vec u = set_length(v, LANE_F(1.0f)); /* the heading (0 at rest) */
    lane_vec rep = VEC(-m.rep_x, -m.rep_y, -m.rep_z);
    lane_vec ori = VEC(m.ori_x, m.ori_y, m.ori_z);
    if (UNIFORM(couzin.own_heading) != 0.0f) ori = vselect(m.n_o > 0u, vadd(ori, u), ori);
    lane_vec att = VEC(m.att_x, m.att_y, m.att_z);
    lane_vec uo = set_length(ori, LANE_F(1.0f)), ua = set_length(att, LANE_F(1.0f));
    lane_vec both =
        VEC((uo.x + ua.x) * 0.5f, (uo.y + ua.y) * 0.5f, (uo.z + ua.z) * 0.5f); /* (d_o + d_a)/2 */
    lane_m o = m.n_o > 0u, a = m.n_a > 0u;
    lane_vec want = vselect(AND(o, a), both, vselect(o, ori, vselect(a, att, u)));
    want = vselect(m.n_r > 0u, rep, want);
    /* nobody, or sums that cancel: the heading it has (at rest: +x) */
    lane_vec way = vselect(nonzero(want), want,
                           vselect(moving, u, VEC(LANE_F(1.0f), LANE_F(0.0f), LANE_F(0.0f))));
    lane_vec d = couzin_noisy(RULES_PASS set_length(way, LANE_F(1.0f)), b.id);
    /* the turn: at most theta tau (in degrees, at most 180) towards d */
    lane_f turn = MIN(PARAM(couzin.turning_rate) * RULES_DT, LANE_F(180.0f));
    lane_f cmax = cos_deg(turn), smax = sin_deg(turn);
    lane_f c = vdot(u, d);
    lane_vec w = VEC(MAD(-c, u.x, d.x), MAD(-c, u.y, d.y), MAD(-c, u.z, d.z)); /* d's part off u */
#if BOIDS_DIMS == 3
    lane_vec side = turned(u, LANE_F(0.0f), LANE_F(0.0f)); /* the basis' first axis */
#else
    lane_vec side = VEC(-u.y, u.x, 0);
#endif
    lane_vec uw = set_length(vselect(nonzero(w), w, side), LANE_F(1.0f));
    lane_vec limited =
        VEC(MAD(cmax, u.x, smax * uw.x), MAD(cmax, u.y, smax * uw.y), MAD(cmax, u.z, smax * uw.z));
    lane_vec h = vselect(AND(moving, c < cmax), limited, d);
    lane_vec nv = set_length(h, s);
    return with_velocity(b, external_turn(RULES_PASS nv, boid_external(b), s));
}

#endif
