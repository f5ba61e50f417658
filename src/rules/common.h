/* What the rules of every model share, written once for the CPU's lanes and the GPU's invocations
 * (rules/lang.h): the vectors' lengths, the speed limits, the integration of a force, cos and sin
 * in degrees, a heading's turn, the view cone, the seeded noise, a logarithm, and what the
 * Reynolds walk gathers.
 *
 * Each helper computes every path a lane might take and selects its own, so a lane gets the bits
 * of the one path it takes, on both backends. */
#ifndef BOIDS_RULES_COMMON_H
#define BOIDS_RULES_COMMON_H

#include "rules/lang.h"

/* ---- vectors -----------------------------------------------------------------------------------
 */

/* |v|^2, as every walk compares it with a squared radius. (3D: z's square is added to y's first,
 * so a vector with z = 0 has the flat length's bits.) */
RULES_FN lane_f length2(lane_vec v)
{
#if BOIDS_DIMS == 3
    return MAD(v.x, v.x, MAD(v.y, v.y, v.z * v.z));
#else
    return MAD(v.x, v.x, v.y * v.y);
#endif
}

/* Whether any component of v is not zero. */
RULES_FN lane_m nonzero(lane_vec v)
{
#if BOIDS_DIMS == 3
    return OR(OR(v.x != 0.0f, v.y != 0.0f), v.z != 0.0f);
#else
    return OR(v.x != 0.0f, v.y != 0.0f);
#endif
}

/* Component by component: a where m, else b; a + b; a - b; a * s. */
RULES_FN lane_vec vselect(lane_m m, lane_vec a, lane_vec b)
{
#if BOIDS_DIMS == 3
    return VEC(SELECT(m, a.x, b.x), SELECT(m, a.y, b.y), SELECT(m, a.z, b.z));
#else
    return VEC(SELECT(m, a.x, b.x), SELECT(m, a.y, b.y), 0);
#endif
}
RULES_FN lane_vec vadd(lane_vec a, lane_vec b)
{
#if BOIDS_DIMS == 3
    return VEC(a.x + b.x, a.y + b.y, a.z + b.z);
#else
    return VEC(a.x + b.x, a.y + b.y, 0);
#endif
}
RULES_FN lane_vec vsub(lane_vec a, lane_vec b)
{
#if BOIDS_DIMS == 3
    return VEC(a.x - b.x, a.y - b.y, a.z - b.z);
#else
    return VEC(a.x - b.x, a.y - b.y, 0);
#endif
}

/* a . b, added as length2 adds (z's term into y's first). */
RULES_FN lane_f vdot(lane_vec a, lane_vec b)
{
#if BOIDS_DIMS == 3
    return MAD(a.x, b.x, MAD(a.y, b.y, a.z * b.z));
#else
    return MAD(a.x, b.x, a.y * b.y);
#endif
}

/* acc + w f where m (the weighted sum of the steering forces, each added where it steers). */
RULES_FN lane_vec add_weighted(lane_m m, lane_f w, lane_vec f, lane_vec acc)
{
    return vselect(m, VEC(MAD(w, f.x, acc.x), MAD(w, f.y, acc.y), MAD(w, f.z, acc.z)), acc);
}

/* A sum over n neighbours, divided by n (n = 1 where there are none: the sum is 0). */
RULES_FN lane_vec mean_of(lane_vec sum, lane_f n)
{
    return VEC(DIV(sum.x, n), DIV(sum.y, n), DIV(sum.z, n));
}

/* v scaled to length len where `on` (Processing's normalize() then mult(len): divide by the
 * length, then multiply); elsewhere v. A zero v stays zero (PVector leaves it alone). Where the
 * squares overflow (|v| above ~1.8e19) or underflow (below ~1e-19), v is first divided by its
 * largest component, so the direction survives instead of becoming inf/inf or 0; that rare path
 * runs only where some lane needs it. */
RULES_FN lane_vec set_length_where(lane_vec v, lane_f len, lane_m on)
{
    lane_f m2 = length2(v);
    lane_m plain = AND(m2 > 0.0f, m2 <= 3.40282347e+38f); /* finite and not zero */
    lane_m rescue = AND(NOT(plain), nonzero(v));
    lane_f m = SQRT(SELECT(plain, m2, LANE_F(1.0f)));
    lane_f px = DIV(v.x, m) * len, py = DIV(v.y, m) * len;
    lane_f rx = v.x, ry = v.y;
#if BOIDS_DIMS == 3
    lane_f pz = DIV(v.z, m) * len, rz = v.z;
#endif
    if (ANY(AND(on, rescue))) {
        lane_f ax = ABS(v.x), ay = ABS(v.y);
        lane_f big = SELECT(ax < ay, ay, ax);
#if BOIDS_DIMS == 3
        lane_f az = ABS(v.z);
        big = SELECT(big < az, az, big);
#endif
        big = SELECT(rescue, big, LANE_F(1.0f));
        lane_f ux = DIV(v.x, big), uy = DIV(v.y, big);
#if BOIDS_DIMS == 3
        lane_f uz = DIV(v.z, big);
        lane_f um = SQRT(length2(VEC(ux, uy, uz)));
        rz = DIV(uz, um) * len;
#else
        lane_f um = SQRT(length2(VEC(ux, uy, 0)));
#endif
        rx = DIV(ux, um) * len;
        ry = DIV(uy, um) * len;
    }
    lane_m use_p = AND(on, plain), use_r = AND(on, rescue);
    return VEC(SELECT(use_p, px, SELECT(use_r, rx, v.x)), SELECT(use_p, py, SELECT(use_r, ry, v.y)),
               SELECT(use_p, pz, SELECT(use_r, rz, v.z)));
}

RULES_FN lane_vec set_length(lane_vec v, lane_f len) { return set_length_where(v, len, LANE_TRUE); }

/* v truncated to length m (Processing's PVector.limit). */
RULES_FN lane_vec limit_length(lane_vec v, lane_f m)
{
    return set_length_where(v, m, length2(v) > m * m);
}

/* Reynolds' speed limits: v truncated to vmax, or, slower than vmin (and not at rest), raised to
 * vmin along its heading. */
RULES_FN lane_vec speed_limits(lane_vec v, lane_f vmin, lane_f vmax)
{
    lane_f v2 = length2(v);
    lane_m fast = v2 > vmax * vmax;
    lane_m slow = AND(AND(NOT(fast), v2 < vmin * vmin), nonzero(v));
    return set_length_where(v, SELECT(fast, vmax, vmin), OR(fast, slow));
}

/* The end of a step for every model whose update takes a force: its own f and the external
 * forces e (the obstacles' push and the mouse tool, which each backend finds: boids_cpu_external_
 * force, external_force()) make v' = v + (f + e) dt, within the speed limits. */
RULES_FN lane_vec integrate_force(RULES_CTX lane_vec v, lane_vec f, lane_vec e)
{
    lane_vec t = vadd(f, e);
    return speed_limits(
        VEC(MAD(t.x, RULES_DT, v.x), MAD(t.y, RULES_DT, v.y), MAD(t.z, RULES_DT, v.z)),
        PARAM(base.min_speed), PARAM(base.max_speed));
}

/* The end of a step for a model that sets its velocity nv at speed s itself (Vicsek's, Couzin's,
 * Gregoire & Chate's): the external forces e turn it, s Theta[nv + e dt], and leave it as it is
 * where there are none. */
RULES_FN lane_vec external_turn(RULES_CTX lane_vec nv, lane_vec e, lane_f s)
{
    lane_vec pushed =
        VEC(MAD(e.x, RULES_DT, nv.x), MAD(e.y, RULES_DT, nv.y), MAD(e.z, RULES_DT, nv.z));
    return vselect(nonzero(e), set_length(pushed, s), nv);
}

/* ---- the mouse tool
 * ------------------------------------------------------------------------------
 */

/* Whether the mouse tool reaches a boid whose offset to it (minimum image) is d: within its
 * radius, and not at its very centre. */
RULES_FN lane_m tool_reaches(RULES_CTX lane_vec d)
{
    lane_f d2 = length2(d), r = LANE_F(RULES_TOOL(radius));
    return AND(d2 > 0.0f, d2 < r * r);
}

/* The tool's force on a boid it reaches, f being the other external forces on it: a constant pull
 * of the tool's strength towards it (BOIDS_TOOL_ATTRACT), or a push away, whatever the distance.
 * Part of every model's external-force hook (each backend's external_force, which finds d and
 * the obstacles' push, and reports the tool's event). */
RULES_FN lane_vec tool_force(RULES_CTX lane_vec d, lane_vec f)
{
    lane_vec t = set_length(d, LANE_F(RULES_TOOL(strength)));
    return RULES_TOOL(kind) == BOIDS_TOOL_REPEL ? vsub(f, t) : vadd(f, t);
}

/* ---- the world's edges --------------------------------------------------------------------------
 */

/* x kept inside [0, size): the wrap of the toroidal world, robust to any finite x. One size off is
 * the common case; far outside, or x + size rounded up to size, takes the floor. (The host's own
 * placements, initial states and the tool, wrap with core/geometry.h's boids_wrap, the same
 * arithmetic on one float.) */
RULES_FN lane_f wrap_coord(lane_f x, lane_f size)
{
    x = SELECT(x < 0.0f, x + size, SELECT(x >= size, x - size, x));
    lane_m far = OR(x < 0.0f, x >= size);
    if (ANY(far)) {
        lane_f y = x - size * FLOOR(DIV(x, size));
        x = SELECT(far, SELECT(OR(NOT(y < size), y < 0.0f), LANE_F(0.0f), y), x);
    }
    return x;
}

/* Where an agent that moved to p ends up by the world's edges (BOIDS_EDGES_*): wrapped into
 * [0, size) on a torus; Processing's borders() at border_r, in the sketch's order; in a bounded
 * box, held within the positions a state may hold. */
RULES_FN lane_vec apply_edges(RULES_CTX lane_vec p)
{
    lane_f w = RULES_WORLD_W, h = RULES_WORLD_H;
#if BOIDS_DIMS == 3
    lane_f d = RULES_WORLD_D;
#endif
    if (RULES_EDGES == BOIDS_EDGES_WRAP)
        return VEC(wrap_coord(p.x, w), wrap_coord(p.y, h), wrap_coord(p.z, d));
    if (RULES_EDGES == BOIDS_EDGES_PROCESSING) {
        lane_f r = PARAM(base.border_r);
        p.x = SELECT(p.x < -r, w + r, p.x);
        p.y = SELECT(p.y < -r, h + r, p.y);
#if BOIDS_DIMS == 3
        p.z = SELECT(p.z < -r, d + r, p.z);
#endif
        p.x = SELECT(p.x > w + r, -r, p.x);
        p.y = SELECT(p.y > h + r, -r, p.y);
#if BOIDS_DIMS == 3
        p.z = SELECT(p.z > d + r, -r, p.z);
#endif
        return p;
    }
    lane_f m = LANE_F(BOIDS_MAX_POSITION);
    return VEC(SELECT(p.x > m, m, SELECT(p.x < -m, -m, p.x)),
               SELECT(p.y > m, m, SELECT(p.y < -m, -m, p.y)),
               SELECT(p.z > m, m, SELECT(p.z < -m, -m, p.z)));
}

/* Step t+1's position of an agent at p whose velocity of step t+1 is v: p + v dt, through the
 * world's edges (every model's move, and the predators'). */
RULES_FN lane_vec moved_position(RULES_CTX lane_vec p, lane_vec v)
{
    return apply_edges(
        RULES_PASS VEC(MAD(v.x, RULES_DT, p.x), MAD(v.y, RULES_DT, p.y), MAD(v.z, RULES_DT, p.z)));
}

/* ---- angles ------------------------------------------------------------------------------------
 */

/* cos of an angle in degrees, 0 <= deg <= 180, to about 1e-8: a fixed polynomial, so both
 * backends get the same bits where libm's cosf and a GPU's cos would not. Reduced to [0, 90] by
 * cos(x) = -cos(180 - x); a Taylor series in x^2. */
RULES_FN lane_f cos_deg(lane_f deg)
{
    lane_m obtuse = deg > 90.0f;
    deg = SELECT(obtuse, 180.0f - deg, deg);
    lane_f sign = SELECT(obtuse, LANE_F(-1.0f), LANE_F(1.0f));
    lane_f x = deg * 0.0174532925199432958f, t = x * x;
    lane_f c =
        1.0f + t * (-0.5f + t * (0.0416666667f +
                                 t * (-0.00138888889f +
                                      t * (0.0000248015873f +
                                           t * (-0.000000275573192f + t * 0.00000000208767570f)))));
    return sign * c;
}

/* sin of an angle in degrees, -180 <= deg <= 180: cos_deg(90 - |deg|), with deg's sign (cos_deg
 * of 90 - |deg| in [-90, 90] is its series in x^2, even in x). */
RULES_FN lane_f sin_deg(lane_f deg)
{
    return SELECT(deg < 0.0f, LANE_F(-1.0f), LANE_F(1.0f)) * cos_deg(90.0f - ABS(deg));
}

/* A unit vector u turned by the angles a noise draws: flat, by xi degrees (-180 <= xi <= 180); in
 * 3D, to the polar angle whose cosine is ct and the azimuth phi degrees around u (-180 <= phi <=
 * 180), from an orthonormal basis around u built without a branch (Duff et al. 2017, "Building an
 * orthonormal basis, revisited"). No turn (xi = 0; ct = 1) leaves u's bits as they are, so a
 * plane of a 3D world steps as a flat world. */
#if BOIDS_DIMS == 3
RULES_FN lane_vec turned(lane_vec u, lane_f ct, lane_f phi)
{
    lane_f st = SQRT(MAX(LANE_F(0.0f), MAD(-ct, ct, LANE_F(1.0f))));
    lane_f cp = cos_deg(ABS(phi)), sp = sin_deg(phi);
    lane_f sign = SELECT(u.z < 0.0f, LANE_F(-1.0f), LANE_F(1.0f));
    lane_f a = DIV(LANE_F(-1.0f), sign + u.z), b = u.x * u.y * a;
    lane_vec b1 = VEC(MAD(sign * u.x, u.x * a, LANE_F(1.0f)), sign * b, -sign * u.x);
    lane_vec b2 = VEC(b, MAD(u.y, u.y * a, sign), -u.y);
    lane_vec w = VEC(MAD(cp, b1.x, sp * b2.x), MAD(cp, b1.y, sp * b2.y), MAD(cp, b1.z, sp * b2.z));
    return VEC(MAD(ct, u.x, st * w.x), MAD(ct, u.y, st * w.y), MAD(ct, u.z, st * w.z));
}
#else
RULES_FN lane_vec turned(lane_vec u, lane_f xi)
{
    lane_f c = cos_deg(ABS(xi)), s = sin_deg(xi);
    return VEC(MAD(c, u.x, -(s * u.y)), MAD(s, u.x, c * u.y), 0);
}
#endif

/* Whether offset d (d2 its squared length, > 0) is within the half-angle whose cosine is c of
 * heading v: compared in squares, no square root, no division. A boid at rest sees all around
 * (its heading is undefined). */
RULES_FN lane_m in_view(lane_vec v, lane_vec d, lane_f d2, lane_f c)
{
    lane_f v2 = length2(v);
    lane_f dot = vdot(v, d), lhs = dot * dot, rhs = c * c * v2 * d2;
    lane_m ahead = dot >= 0.0f;
    lane_m narrow = AND(ahead, lhs >= rhs), wide = OR(ahead, lhs <= rhs);
    /* c = -1 (a half-angle of 180 degrees) sees all round, whatever the squares' rounding */
    return OR(OR(NOT(v2 > 0.0f), c <= -1.0f), SELECT_M(c >= 0.0f, narrow, wide));
}

/* ---- noise -------------------------------------------------------------------------------------
 */

/* A counter-based hash of two words (two rounds of a multiply-xorshift mix): the same bits in any
 * order of evaluation, on both backends. */
RULES_FN lane_u rules_hash(lane_u a, lane_u b)
{
    lane_u h = (a * 0x9E3779B1u) ^ ((b + 0x7F4A7C15u) * 0x85EBCA77u);
    h ^= h >> 16u;
    h *= 0x7FEB352Du;
    h ^= h >> 15u;
    h *= 0x846CA68Bu;
    return h ^ (h >> 16u);
}

/* The random number draw k of boid id in this step, uniform in [0, 1) in steps of 2^-24: a
 * function of its replica's seed (the world's seed + the replica, as the world of its own that a
 * replica stands for has: the 64-bit sum's halves folded into 32 bits), the step, its place in
 * the replica and k, so a run is the same on both backends, in any order of the boids, any number
 * of threads, alone or as a replica of any batch, and another --seed gives another run. */
RULES_FN lane_f noise(RULES_CTX lane_u id, lane_u k)
{
    lane_u lo = LANE_U(RULES_SEED) + RULES_REPLICA(id);
    lane_u hi = LANE_U(RULES_SEED_HI) + LANE_BIT(lo < LANE_U(RULES_SEED)); /* the carry */
    lane_u seed = lo ^ hi;
    lane_u h =
        rules_hash(rules_hash(seed ^ (k * 0x632BE5ABu), LANE_U(RULES_STEP)), RULES_LOCAL(id));
    return LANE_TO_F(h >> 8u) * (1.0f / 16777216.0f);
}

/* A random unit vector, uniform on the circle (draw 0) or the sphere (draws 0 and 1): the
 * vectorial noise's xi (Gregoire & Chate 2004; vicsek's vectorial = 1, gregoire-chate). */
RULES_FN lane_vec random_unit(RULES_CTX lane_u id)
{
    lane_f phi = MAD(noise(RULES_PASS id, LANE_U(0u)), LANE_F(360.0f), LANE_F(-180.0f));
#if BOIDS_DIMS == 3
    lane_f z = MAD(noise(RULES_PASS id, LANE_U(1u)), LANE_F(-2.0f), LANE_F(1.0f));
    lane_f r = SQRT(MAX(LANE_F(0.0f), MAD(-z, z, LANE_F(1.0f))));
    return VEC(r * cos_deg(ABS(phi)), r * sin_deg(phi), z);
#else
    return VEC(cos_deg(ABS(phi)), sin_deg(phi), 0);
#endif
}

/* ln x for a positive normal float x, to about 1e-7 relative: x = m 2^e with m in [sqrt(1/2),
 * sqrt(2)), and ln m = 2 atanh(s) = 2 (s + s^3/3 + ... + s^9/9), s = (m - 1) / (m + 1), |s| <
 * 0.172 (the series' rest is below 1e-9). A fixed sequence of IEEE operations on the float's
 * bits, so both backends get the same bits where libm's logf and a GPU's log would not. */
RULES_FN lane_f ln_of(lane_f x)
{
    lane_u bits = BITS(x);
    lane_f m = FROM_BITS((bits & 0x007FFFFFu) | 0x3F800000u); /* in [1, 2) */
    lane_f e = LANE_TO_F(bits >> 23u) - 127.0f;
    lane_m big = m > 1.41421356f;
    m = SELECT(big, m * 0.5f, m);
    e = SELECT(big, e + 1.0f, e);
    lane_f s = DIV(m - 1.0f, m + 1.0f), t = s * s;
    lane_f series = t * (0.333333333f + t * (0.2f + t * (0.142857143f + t * 0.111111111f)));
    return MAD(e, LANE_F(0.693147181f), MAD(s, series, s) * 2.0f);
}

/* ---- the Reynolds walk -------------------------------------------------------------------------
 */

/* What a model has the Reynolds walk (cpu/walk_reynolds.c, shaders/walk_reynolds.glsl) gather: a
 * boid's neighbours within each squared radius, separation over every swarm, alignment and
 * cohesion over its own. One value for every boid of a step. */
RULES_STRUCT(reynolds_radii)
{
    float sep2, ali2, coh2;
    bool sep_raw; /* separation sums the offsets p_i - p_j themselves (Adams'), not over d^2 */
    /* Adams' own reading (models/adams/rules.h; implies sep_raw): a candidate counts only inside
     * the box |dx|, |dy| < box; coincident boids and every swarm count; alignment and cohesion
     * leave out the separation zone unless flock_in_sep. */
    bool adams, flock_in_sep;
    float box;
}
RULES_STRUCT_END(reynolds_radii)

/* The radii of a Reynolds walk from the radii themselves (their squares taken here); nothing of
 * Adams' reading. */
RULES_FN reynolds_radii reynolds_radii_of(float sep, float ali, float coh, bool sep_raw)
{
    reynolds_radii r;
    r.sep2 = sep * sep;
    r.ali2 = ali * ali;
    r.coh2 = coh * coh;
    r.sep_raw = sep_raw;
    r.adams = false;
    r.flock_in_sep = false;
    r.box = 0.0f;
    return r;
}

/* ---- a boid ------------------------------------------------------------------------------------
 */

/* A boid as its rules see it, and as they return it: step t, and its velocity and attributes of
 * step t+1 once its rules have set them (the backend then moves it through the world's edges). */
RULES_STRUCT(rules_boid)
{
    lane_f x, y, z, vx, vy, vz; /* z and vz: 0 in a flat world, whose rules never read them */
    lane_u id;
    lane_f ex, ey, ez; /* the external forces on it: the obstacles' push (unless the model has its
                          own obstacle rule) and the mouse tool; integrate_force() adds them, and
                          a model that does not finish through it adds them itself */
    lane_f ox, oy, oz; /* a model with its own obstacle rule (BOIDS_FEATURE_OBSTACLE_RULE): the sum
                          of (p - o) / d^2 over the obstacles within obstacle_radius; else 0 */
    lane_f attr[BOIDS_ATTR_COUNT]; /* the model's attributes (a UINT one as its bits) */
}
RULES_STRUCT_END(rules_boid)

/* A boid's sums from the Reynolds walk. */
RULES_STRUCT(reynolds_sums)
{
    lane_f sep_x, sep_y, sep_z; /* sum of -(dx, dy, dz) / d^2 (sep_raw: of -(dx, dy, dz)) */
    lane_f ali_x, ali_y, ali_z; /* sum of the neighbours' velocities */
    lane_f coh_x, coh_y, coh_z; /* sum of the offsets to them (minimum image); the z sums are 0
                                   in a flat world */
    lane_u sep_n, ali_n, coh_n;
}
RULES_STRUCT_END(reynolds_sums)

/* ---- the pair walk ------------------------------------------------------------------------------
 * A model whose rule looks at each neighbour in its own way (BOIDS_FEATURE_PAIR_RULE: couzin's
 * zones, gregoire-chate's bands) writes only what one pair adds to its sums; one walk per backend
 * (src/cpu/walk_pairs.h, shaders/walk_pairs.glsl) owns the rest: the candidates, the reach, the
 * nearest:K search, the loop limits and the stores. In its rules.h:
 *
 *   <rules>_zones_of(ctx)                 what the pair rule compares with (its own struct)
 *   <rules>_reach(zones)                  rules_pair_reach: the walk's reach and nearest filter
 *   <rules>_pair(ctx, zones, pair, phase) the sums (its <rules>_sums) of that one pair, every
 *                                         field set, a term the pair does not add being 0
 *   <rules>_sums_fields(F, U, Z)          the sums' fields: F(name) a float sum, U(name) a count,
 *                                         Z(name) a float sum of 3D worlds only (0 in flat ones)
 *
 * The walk adds each pair's terms field by field, in the candidates' order (then the nearest's,
 * nearest first), so both backends add the same terms in the same order and their sums are the
 * same bits; a term of 0 adds nothing (a sum that starts at +0 never becomes -0). On the CPU a
 * pair's lanes are several candidates of one boid at once.
 *
 * A built-in model whose CPU walk is lane groups of its own (BOIDS_FEATURE_LANE_WALK: kit's
 * walk.c, which calls its pair rule with a boid per lane) may give the GPU's pair walk three
 * hooks, in GLSL: RULES_ZONES_AT(zones, boid), its zones for one boid (kit's view from its age);
 * RULES_FLEE_PAIR(zones, d, d2), what one predator at offset d adds, and RULES_FLEE_REACH2(zones),
 * how far the predators' walk looks. The CPU's pair walk has none of them. */
#define RULES_PAIR_METRIC 0u  /* the candidates within the reach, in a metric world */
#define RULES_PAIR_BESIDE 1u  /* the same in a world of nearest:K: what stays metric there */
#define RULES_PAIR_NEAREST 2u /* the K nearest that pass the filter, nearest first */

/* A boid and another: the offset to it (the minimum image on a torus), its squared length (> 0),
 * the other's velocity, the boid's own, and whether the two are of one swarm. */
RULES_STRUCT(rules_pair)
{
    lane_vec d;
    lane_f d2;
    lane_vec v, me;
    lane_m same;
}
RULES_STRUCT_END(rules_pair)

/* What the walk asks of a model's zones: pairs at d2 >= reach2 add nothing (the metric loop skips
 * them); the nearest are those of the boid's swarm at least nearest_min2 away, and, where
 * nearest_view, within the view cone of half-angle cosine cos_view around its heading. */
RULES_STRUCT(rules_pair_reach)
{
    float reach2, nearest_min2;
    bool nearest_view;
    float cos_view;
}
RULES_STRUCT_END(rules_pair_reach)

RULES_FN rules_pair_reach pair_reach(float reach2, float nearest_min2, bool view, float cos_view)
{
    rules_pair_reach r;
    r.reach2 = reach2;
    r.nearest_min2 = nearest_min2;
    r.nearest_view = view;
    r.cos_view = cos_view;
    return r;
}

/* A boid's position, velocity, external forces (as vectors of the world's dimension). */
RULES_FN lane_vec boid_position(rules_boid b) { return VEC(b.x, b.y, b.z); }
RULES_FN lane_vec boid_velocity(rules_boid b) { return VEC(b.vx, b.vy, b.vz); }
RULES_FN lane_vec boid_external(rules_boid b) { return VEC(b.ex, b.ey, b.ez); }
/* b with velocity v. */
RULES_FN rules_boid with_velocity(rules_boid b, lane_vec v)
{
    b.vx = v.x;
    b.vy = v.y;
#if BOIDS_DIMS == 3
    b.vz = v.z;
#endif
    return b;
}

#endif
