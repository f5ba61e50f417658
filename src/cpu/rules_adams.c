/* adams (docs/models.md (adams); docs/models.md (shiffman-per-second)), CPU reference: the
 * pseudocode, frame-based (one step = one frame), in its order:
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
 * exactly zero speed has no direction to be raised to min along and keeps v = 0. The order of
 * every operation matches shaders/rules_adams.glsl. */
#include <math.h>

#include "cpu/steer.h"

/* One boid's step from its sums (the walk: walk_reynolds.c with radii.adams, which sums in the
 * pseudocode's order: close = sep, pos_avg = coh, vel_avg = ali, n = ali_n). */
static void steer(const boids_cpu_step *s, uint32_t slot, const boids_cpu_sums *m)
{
    const boids_params *p = s->params;
    const boids_adams_params *ap = &p->adams;
    const float W = s->sim->def.width, H = s->sim->def.height;
    const uint32_t n1 = (uint32_t)ap->scout1_count, n2 = (uint32_t)ap->scout2_count;
    const uint32_t id = s->cand.id[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot];
    float vx = s->cand.vx[slot], vy = s->cand.vy[slot];
    if (m->ali_n > 0) {
        float fn = (float)m->ali_n;
        vx = vx + m->coh_x / fn * ap->centering_factor + (m->ali_x / fn - vx) * ap->matching_factor;
        vy = vy + m->coh_y / fn * ap->centering_factor + (m->ali_y / fn - vy) * ap->matching_factor;
    }
    vx = vx + m->sep_x * ap->avoid_factor;
    vy = vy + m->sep_y * ap->avoid_factor;
    if (p->base.edges == BOIDS_EDGES_BOUNDED) {
        if (y < ap->margin) vy = vy + ap->turn_factor;     /* top (y points down) */
        if (x > W - ap->margin) vx = vx - ap->turn_factor; /* right */
        if (x < ap->margin) vx = vx + ap->turn_factor;     /* left */
        if (y > H - ap->margin) vy = vy - ap->turn_factor; /* bottom */
    }
    float ex, ey;
    boids_cpu_external_force(s, id, x, y, &ex, &ey);
    vx += ex;
    vy += ey;

    const uint32_t local = id % s->sim->per_replica; /* scouts are the first ids of each replica */
    int group = local < n1 ? 1 : local - n1 < n2 ? 2 : 0;
    if (group) {
        float bias = boids_cpu_attr_float(s, BOIDS_ATTR_BIAS, id);
        if (ap->dynamic_bias != 0.0f) {
            int toward = group == 1 ? vx > 0.0f : vx < 0.0f;
            bias = toward ? fminf(ap->max_bias, bias + ap->bias_increment)
                          : fmaxf(ap->bias_increment, bias - ap->bias_increment);
        } else {
            bias = ap->bias;
        }
        vx = (1.0f - bias) * vx + bias * (group == 1 ? 1.0f : -1.0f);
        boids_cpu_set_attr_float(s, BOIDS_ATTR_BIAS, id, bias);
    }

    float speed = sqrtf(vx * vx + vy * vy);
    if (speed < p->base.min_speed && speed > 0.0f) {
        vx = vx / speed * p->base.min_speed;
        vy = vy / speed * p->base.min_speed;
    }
    if (speed > p->base.max_speed) {
        vx = vx / speed * p->base.max_speed;
        vy = vy / speed * p->base.max_speed;
    }
    boids_cpu_move(s, slot, x, y, vx, vy);
}

void boids_cpu_rules_adams(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_adams_params *ap = &s->params->adams;
    const float pr2 = ap->protected_range * ap->protected_range, vr = ap->visual_range,
                vr2 = vr * vr;
    const boids_cpu_radii radii = {.sep2 = pr2,
                                   .ali2 = vr2,
                                   .coh2 = vr2,
                                   .sep_raw = true,
                                   .adams = true,
                                   .flock_in_sep = ap->include_protected != 0.0f,
                                   .box = vr};
    boids_cpu_steer_reynolds(s, begin, end, &radii, steer);
}
