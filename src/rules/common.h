/* What the rules of every model share, written once for the CPU's lanes and the GPU's invocations
 * (rules/lang.h): the vectors' lengths, the speed limits, the integration of a force, cos in
 * degrees, the view cone, the seeded noise, and what the Reynolds walk gathers.
 *
 * Each helper computes every path a lane might take and selects its own, so a lane gets the bits
 * of the one path it takes, on both backends. */
#ifndef BOIDS_RULES_COMMON_H
#define BOIDS_RULES_COMMON_H

#include "rules/lang.h"

/* ---- vectors -----------------------------------------------------------------------------------
 */

/* |v|^2, as every walk compares it with a squared radius. */
RULES_FN lane_f length2(lane_v2 v) { return MAD(v.x, v.x, v.y * v.y); }

/* v scaled to length len where `on` (Processing's normalize() then mult(len): divide by the
 * length, then multiply); elsewhere v. A zero v stays zero (PVector leaves it alone). Where the
 * squares overflow (|v| above ~1.8e19) or underflow (below ~1e-19), v is first divided by its
 * largest component, so the direction survives instead of becoming inf/inf or 0; that rare path
 * runs only where some lane needs it. */
RULES_FN lane_v2 set_length_where(lane_v2 v, lane_f len, lane_m on)
{
    lane_f m2 = length2(v);
    lane_m plain = AND(m2 > 0.0f, m2 <= 3.40282347e+38f); /* finite and not zero */
    lane_m rescue = AND(NOT(plain), OR(v.x != 0.0f, v.y != 0.0f));
    lane_f m = SQRT(SELECT(plain, m2, LANE_F(1.0f)));
    lane_f px = DIV(v.x, m) * len, py = DIV(v.y, m) * len;
    lane_f rx = v.x, ry = v.y;
    if (ANY(AND(on, rescue))) {
        lane_f ax = ABS(v.x), ay = ABS(v.y);
        lane_f big = SELECT(rescue, SELECT(ax < ay, ay, ax), LANE_F(1.0f));
        lane_f ux = DIV(v.x, big), uy = DIV(v.y, big);
        lane_f um = SQRT(length2(LANE_V2(ux, uy)));
        rx = DIV(ux, um) * len;
        ry = DIV(uy, um) * len;
    }
    return LANE_V2(SELECT(AND(on, plain), px, SELECT(AND(on, rescue), rx, v.x)),
                   SELECT(AND(on, plain), py, SELECT(AND(on, rescue), ry, v.y)));
}

RULES_FN lane_v2 set_length(lane_v2 v, lane_f len) { return set_length_where(v, len, LANE_TRUE); }

/* v truncated to length m (Processing's PVector.limit). */
RULES_FN lane_v2 limit_length(lane_v2 v, lane_f m)
{
    return set_length_where(v, m, length2(v) > m * m);
}

/* Reynolds' speed limits: v truncated to vmax, or, slower than vmin (and not at rest), raised to
 * vmin along its heading. */
RULES_FN lane_v2 speed_limits(lane_v2 v, lane_f vmin, lane_f vmax)
{
    lane_f v2 = length2(v);
    lane_m fast = v2 > vmax * vmax;
    lane_m slow = AND(AND(NOT(fast), v2 < vmin * vmin), OR(v.x != 0.0f, v.y != 0.0f));
    return set_length_where(v, SELECT(fast, vmax, vmin), OR(fast, slow));
}

/* The end of a step for every model whose update takes a force: its own f and the external
 * forces e (the obstacles' push and the mouse tool, which each backend finds: boids_cpu_external_
 * force, external_force()) make v' = v + (f + e) dt, within the speed limits. */
RULES_FN lane_v2 integrate_force(RULES_CTX lane_v2 v, lane_v2 f, lane_v2 e)
{
    lane_f fx = f.x + e.x, fy = f.y + e.y;
    return speed_limits(LANE_V2(MAD(fx, RULES_DT, v.x), MAD(fy, RULES_DT, v.y)),
                        PARAM(base.min_speed), PARAM(base.max_speed));
}

/* ---- the mouse tool
 * ------------------------------------------------------------------------------
 */

/* Whether the mouse tool reaches a boid whose offset to it (minimum image) is d: within its
 * radius, and not at its very centre. */
RULES_FN lane_m tool_reaches(RULES_CTX lane_v2 d)
{
    lane_f d2 = length2(d), r = LANE_F(RULES_TOOL(radius));
    return AND(d2 > 0.0f, d2 < r * r);
}

/* The tool's force on a boid it reaches, f being the other external forces on it: a constant pull
 * of the tool's strength towards it (BOIDS_TOOL_ATTRACT), or a push away, whatever the distance.
 * Part of every model's external-force hook (each backend's external_force, which finds d and
 * the obstacles' push, and reports the tool's event). */
RULES_FN lane_v2 tool_force(RULES_CTX lane_v2 d, lane_v2 f)
{
    lane_v2 t = set_length(d, LANE_F(RULES_TOOL(strength)));
    return RULES_TOOL(kind) == BOIDS_TOOL_REPEL ? LANE_V2(f.x - t.x, f.y - t.y)
                                                : LANE_V2(f.x + t.x, f.y + t.y);
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
RULES_FN lane_v2 apply_edges(RULES_CTX lane_v2 p)
{
    lane_f w = RULES_WORLD_W, h = RULES_WORLD_H;
    if (RULES_EDGES == BOIDS_EDGES_WRAP) return LANE_V2(wrap_coord(p.x, w), wrap_coord(p.y, h));
    if (RULES_EDGES == BOIDS_EDGES_PROCESSING) {
        lane_f r = PARAM(base.border_r);
        p.x = SELECT(p.x < -r, w + r, p.x);
        p.y = SELECT(p.y < -r, h + r, p.y);
        p.x = SELECT(p.x > w + r, -r, p.x);
        p.y = SELECT(p.y > h + r, -r, p.y);
        return p;
    }
    lane_f m = LANE_F(BOIDS_MAX_POSITION);
    return LANE_V2(SELECT(p.x > m, m, SELECT(p.x < -m, -m, p.x)),
                   SELECT(p.y > m, m, SELECT(p.y < -m, -m, p.y)));
}

/* Step t+1's position of an agent at p whose velocity of step t+1 is v: p + v dt, through the
 * world's edges (every model's move, and the predators'). */
RULES_FN lane_v2 moved_position(RULES_CTX lane_v2 p, lane_v2 v)
{
    return apply_edges(RULES_PASS LANE_V2(MAD(v.x, RULES_DT, p.x), MAD(v.y, RULES_DT, p.y)));
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

/* Whether offset d (d2 its squared length, > 0) is within the half-angle whose cosine is c of
 * heading v: compared in squares, no square root, no division. A boid at rest sees all around
 * (its heading is undefined). */
RULES_FN lane_m in_view(lane_v2 v, lane_v2 d, lane_f d2, lane_f c)
{
    lane_f v2 = length2(v);
    lane_f dot = MAD(v.x, d.x, v.y * d.y), lhs = dot * dot, rhs = c * c * v2 * d2;
    lane_m ahead = dot >= 0.0f;
    lane_m narrow = AND(ahead, lhs >= rhs), wide = OR(ahead, lhs <= rhs);
    return OR(NOT(v2 > 0.0f), SELECT_M(c >= 0.0f, narrow, wide));
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
 * function of the world's seed, the step, the id and k, so a run is the same on both backends, in
 * any order of the boids and any number of threads, and another --seed gives another run. */
RULES_FN lane_f noise(RULES_CTX lane_u id, lane_u k)
{
    lane_u h =
        rules_hash(rules_hash(LANE_U(RULES_SEED) ^ (k * 0x632BE5ABu), LANE_U(RULES_STEP)), id);
    return LANE_TO_F(h >> 8u) * (1.0f / 16777216.0f);
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
    /* Adams' own reading (rules/adams.h; implies sep_raw): a candidate counts only inside the
     * box |dx|, |dy| < box; coincident boids and every swarm count; alignment and cohesion
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
    lane_f x, y, vx, vy;
    lane_u id;
    lane_f ex, ey; /* the external forces on it: the obstacles' push (unless the model has its own
                      obstacle rule) and the mouse tool; integrate_force() adds them, and a model
                      that does not finish through it adds them itself */
    lane_f ox, oy; /* a model with its own obstacle rule (BOIDS_FEATURE_OBSTACLE_RULE): the sum of
                      (p - o) / d^2 over the obstacles within obstacle_radius; else 0 */
    lane_f attr[BOIDS_ATTR_COUNT]; /* the model's attributes (a UINT one as its bits) */
}
RULES_STRUCT_END(rules_boid)

/* A boid's sums from the Reynolds walk. */
RULES_STRUCT(reynolds_sums)
{
    lane_f sep_x, sep_y; /* sum of -(dx, dy) / d^2 (sep_raw: of -(dx, dy)) */
    lane_f ali_x, ali_y; /* sum of the neighbours' velocities */
    lane_f coh_x, coh_y; /* sum of the offsets to them (minimum image) */
    lane_u sep_n, ali_n, coh_n;
}
RULES_STRUCT_END(reynolds_sums)

#endif
