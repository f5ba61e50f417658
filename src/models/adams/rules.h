/* adams (docs/models.md (adams)): the pseudocode, frame-based (one step = one frame), in its
 * order. One source for both backends (rules/lang.h).
 *
 *   for every other boid with |dx| < visual and |dy| < visual (dx = boid - other):
 *     d^2 < protected^2:        close += dx
 *     else if d^2 < visual^2:   pos_avg += other offset, vel_avg += other.v, n++
 *                               (include_protected = 1: the protected ones count here too)
 *   n > 0: v += (pos_avg/n) * centering + (vel_avg/n - v) * matching
 *   v += close * avoid
 *   bounded world: past a margin, turn by turn_factor (top, right, left, bottom)
 *   scouts (ids [0, n1): right; [n1, n1 + n2): left): dynamic bias update, then
 *     vx = (1 - bias) vx + bias * (+1 or -1)
 *   speed < min: v = v/speed * min; speed > max: v = v/speed * max (speed computed once)
 *   p += v
 *
 * Choices: cohesion uses the mean offset to the neighbours (= mean position - p, and right
 * across a wrap); Adams has no swarms, so every boid counts whatever its swarm; a boid with
 * exactly zero speed has no direction to be raised to min along and keeps v = 0. In 3D the rules
 * are the same on three components, the margins turn boids on all six faces (the pseudocode's
 * four, then near and far) and the scouts' bias stays along x. Adams steers v
 * itself, not through a force: the external forces are added to v where the obstacles' push
 * would be, before the scouts' bias. */
#ifndef BOIDS_RULES_ADAMS_H
#define BOIDS_RULES_ADAMS_H

#include "rules/common.h"

/* The walk in the pseudocode's order: close = sep, pos_avg = coh, vel_avg = ali, n = ali_n. */
RULES_FN reynolds_radii adams_radii(RULES_CTX_ONLY)
{
    float vr = UNIFORM(adams.visual_range);
    reynolds_radii r = reynolds_radii_of(UNIFORM(adams.protected_range), vr, vr, true);
    r.adams = true;
    r.flock_in_sep = UNIFORM(adams.include_protected) != 0.0f;
    r.box = vr;
    return r;
}

RULES_FN rules_boid adams_steer(RULES_CTX reynolds_sums m, rules_boid b)
{
    lane_f vx = b.vx, vy = b.vy;
#if BOIDS_DIMS == 3
    lane_f vz = b.vz;
#endif
    lane_m any = m.ali_n > 0u;
    lane_f fn = SELECT(any, LANE_TO_F(m.ali_n), LANE_F(1.0f));
    lane_f cf = PARAM(adams.centering_factor), mf = PARAM(adams.matching_factor);
    vx = SELECT(any, vx + DIV(m.coh_x, fn) * cf + (DIV(m.ali_x, fn) - vx) * mf, vx);
    vy = SELECT(any, vy + DIV(m.coh_y, fn) * cf + (DIV(m.ali_y, fn) - vy) * mf, vy);
#if BOIDS_DIMS == 3
    vz = SELECT(any, vz + DIV(m.coh_z, fn) * cf + (DIV(m.ali_z, fn) - vz) * mf, vz);
#endif
    vx = MAD(m.sep_x, PARAM(adams.avoid_factor), vx);
    vy = MAD(m.sep_y, PARAM(adams.avoid_factor), vy);
#if BOIDS_DIMS == 3
    vz = MAD(m.sep_z, PARAM(adams.avoid_factor), vz);
#endif
    if (RULES_EDGES == BOIDS_EDGES_BOUNDED) {
        lane_f margin = PARAM(adams.margin), t = PARAM(adams.turn_factor);
        vy = SELECT(b.y < margin, vy + t, vy);                 /* top (y points down) */
        vx = SELECT(b.x > RULES_WORLD_W - margin, vx - t, vx); /* right */
        vx = SELECT(b.x < margin, vx + t, vx);                 /* left */
        vy = SELECT(b.y > RULES_WORLD_H - margin, vy - t, vy); /* bottom */
#if BOIDS_DIMS == 3
        /* the two faces along z, after the pseudocode's four (ours: it is flat) */
        vz = SELECT(b.z < margin, vz + t, vz);                 /* near */
        vz = SELECT(b.z > RULES_WORLD_D - margin, vz - t, vz); /* far */
#endif
    }
    vx += b.ex;
    vy += b.ey;
#if BOIDS_DIMS == 3
    vz += b.ez;
#endif

    /* scouts are the first ids of each replica: n1 of group 1, then n2 of group 2 */
    lane_u local = RULES_LOCAL(b.id);
    uint n1 = UNIFORM(adams.scout1_count), n2 = UNIFORM(adams.scout2_count);
    lane_m first = local < n1, scout = OR(first, local - n1 < n2);
    if (ANY(scout)) {
        lane_f bias = b.attr[BOIDS_ATTR_BIAS];
        if (UNIFORM(adams.dynamic_bias) != 0.0f) {
            lane_m toward = SELECT_M(first, vx > 0.0f, vx < 0.0f);
            lane_f inc = PARAM(adams.bias_increment);
            bias = SELECT(toward, MIN(PARAM(adams.max_bias), bias + inc), MAX(inc, bias - inc));
        } else {
            bias = PARAM(adams.bias);
        }
        lane_f pull = SELECT(first, LANE_F(1.0f), LANE_F(-1.0f));
        vx = SELECT(scout, (1.0f - bias) * vx + bias * pull, vx);
        b.attr[BOIDS_ATTR_BIAS] = SELECT(scout, bias, b.attr[BOIDS_ATTR_BIAS]);
    }

    lane_f speed = SQRT(length2(VEC(vx, vy, vz)));
    lane_f vmin = PARAM(base.min_speed), vmax = PARAM(base.max_speed);
    lane_m slow = AND(speed<vmin, speed> 0.0f), fast = speed > vmax;
    vx = SELECT(slow, DIV(vx, speed) * vmin, vx);
    vy = SELECT(slow, DIV(vy, speed) * vmin, vy);
    vx = SELECT(fast, DIV(vx, speed) * vmax, vx);
    vy = SELECT(fast, DIV(vy, speed) * vmax, vy);
#if BOIDS_DIMS == 3
    vz = SELECT(slow, DIV(vz, speed) * vmin, vz);
    vz = SELECT(fast, DIV(vz, speed) * vmax, vz);
#endif
    return with_velocity(b, VEC(vx, vy, vz));
}

#endif
