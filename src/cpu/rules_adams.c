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

void boids_cpu_rules_adams(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_params *p = s->params;
    const boids_adams_params *ap = &p->adams;
    const float pr2 = ap->protected_range * ap->protected_range, vr = ap->visual_range, vr2 = vr * vr;
    const float W = s->sim->def.width, H = s->sim->def.height;
    const int include_protected = ap->include_protected != 0.0f;
    const uint32_t n1 = (uint32_t)ap->scout1_count, n2 = (uint32_t)ap->scout2_count;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id;

    for (uint32_t slot = begin; slot < end; ++slot) {
        const uint32_t id = cid[slot];
        const float x = s->cand.x[slot], y = s->cand.y[slot];
        float close_x = 0.0f, close_y = 0.0f, pos_x = 0.0f, pos_y = 0.0f, vel_x = 0.0f, vel_y = 0.0f;
        uint32_t n = 0;
        boids_cpu_ranges r;
        boids_cpu_candidates(s, id, &r);
        for (uint32_t q = 0; q < r.count; ++q) {
            for (uint32_t k = r.begin[q]; k < r.end[q]; ++k) {
                if (cid[k] == id) continue;
                float dx, dy;
                boids_cand_offset(s, x, y, k, &dx, &dy); /* other - boid */
                if (!(fabsf(dx) < vr && fabsf(dy) < vr)) continue;
                float d2 = dx * dx + dy * dy;
                int prot = d2 < pr2;
                if (prot) {
                    close_x -= dx; /* boid.x - otherboid.x */
                    close_y -= dy;
                }
                if ((include_protected || !prot) && d2 < vr2) {
                    pos_x += dx;
                    pos_y += dy;
                    vel_x += cvx[k];
                    vel_y += cvy[k];
                    n++;
                }
            }
        }

        float vx = cvx[slot], vy = cvy[slot];
        if (n > 0) {
            float fn = (float)n;
            vx = vx + pos_x / fn * ap->centering_factor + (vel_x / fn - vx) * ap->matching_factor;
            vy = vy + pos_y / fn * ap->centering_factor + (vel_y / fn - vy) * ap->matching_factor;
        }
        vx = vx + close_x * ap->avoid_factor;
        vy = vy + close_y * ap->avoid_factor;
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
        boids_cpu_move(s, id, x, y, vx, vy);
    }
}
