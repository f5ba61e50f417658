/* priority and mean (docs/models.md (priority, mean)), CPU reference: Reynolds 1987's acceleration
 * arbitration. Three vectors, weighted:
 *
 *   vector 3 (priority 1): sum over neighbours within sep_radius of (p_i - p_j) / d^2: the
 *                          separation (the paper's "weighted sum of differences"; we weight
 *                          each by 1/d^2, i.e. a unit vector / d, so closer counts more)
 *   vector 2 (priority 2): mean velocity of the neighbours within neighbor_radius - v
 *   vector 1 (priority 3): mean position of those neighbours - p (mean offset; across a wrap)
 *
 *   mean:     a = w3 v3 + w2 v2 + w1 v1, truncated to max_accel (mean_set_length = 1: its
 *             length set to max_accel; the text's "rescaled" reads either way)
 *   priority: boids_priority_allocate(w3 v3, w2 v2, w1 v1, max_accel)
 *   v' = v + a dt within [min_speed, max_speed] (ours: the paper has no speed limits; the
 *   presets keep min_speed = 0); p' = p + v' dt
 *
 * Separation counts every swarm, vectors 1 and 2 the boid's own swarm (as in the other models).
 * Obstacles join vector 3, as the paper's "differences from stationary objects": obstacle_factor
 * times the sum of (p - o)/d^2 over the obstacle centres within obstacle_radius (the manifest's
 * BOIDS_FEATURE_OBSTACLE_RULE: the external-force hook leaves them to these rules). Operation
 * order matches shaders/rules_allocation.glsl. */
#include <math.h>

#include "cpu/steer.h"

void boids_priority_allocate(const float x[2], const float y[2], const float z[2], float m,
                             float out[2])
{
    float ax = x[0], ay = x[1];
    float m2 = m * m;
    if (ax * ax + ay * ay > m2) { /* the highest priority alone exceeds the maximum: rescaled */
        boids_set_length(&ax, &ay, m);
        out[0] = ax;
        out[1] = ay;
        return;
    }
    const float *next[2] = {y, z};
    for (int i = 0; i < 2; ++i) {
        float yx = next[i][0], yy = next[i][1];
        float y2 = yx * yx + yy * yy;
        if (!(y2 > 0.0f)) continue; /* nothing to add */
        float xy = ax * yx + ay * yy, x2 = ax * ax + ay * ay;
        float disc = (2.0f * xy) * (2.0f * xy) + 4.0f * y2 * (m2 - x2);
        float alpha = (-2.0f * xy + sqrtf(fmaxf(disc, 0.0f))) / (2.0f * y2);
        if (alpha > 1.0f) { /* all of it fits */
            ax = ax + yx;
            ay = ay + yy;
        } else { /* the part that reaches the maximum, and no more vectors */
            ax = ax + alpha * yx;
            ay = ay + alpha * yy;
            break;
        }
    }
    out[0] = ax;
    out[1] = ay;
}

/* Vector 3's part from the obstacles within obstacle_radius: sum of (p - o)/d^2, as for flockmates.
 */
static void obstacle_differences(const boids_cpu_step *s, uint32_t replica, float x, float y,
                                 float *ox, float *oy)
{
    const boids_obstacle_grid *og = &s->sim->obstacle_grid;
    const float reach = s->params->obstacles.obstacle_radius, r2 = reach * reach;
    float sx = 0.0f, sy = 0.0f;
    boids_cpu_ranges r;
    boids_cpu_obstacles_near(s, replica, x, y, &r);
    for (uint32_t q = 0; q < r.count; ++q)
        for (uint32_t k = r.begin[q]; k < r.end[q]; ++k) {
            float dx = boids_min_image(x, og->sorted[4 * k], s->sim->def.width, s->sim->half_w);
            float dy =
                boids_min_image(y, og->sorted[4 * k + 1], s->sim->def.height, s->sim->half_h);
            float d2 = dx * dx + dy * dy;
            if (!(d2 > 0.0f && d2 <= r2)) continue;
            sx -= dx / d2;
            sy -= dy / d2;
        }
    *ox = sx;
    *oy = sy;
}

/* One boid's step from its sums: the three vectors, then the allocation. */
static void steer(const boids_cpu_step *s, uint32_t slot, const boids_cpu_sums *m)
{
    const boids_params *p = s->params;
    const boids_allocation_params *ap = &p->allocation;
    const uint32_t id = s->cand.id[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = s->cand.vx[slot],
                vy0 = s->cand.vy[slot];
    /* the velocities and offsets of the neighbours: alignment's and cohesion's sums */
    const float sep_x = m->sep_x, sep_y = m->sep_y, vel_x = m->ali_x, vel_y = m->ali_y;
    const float off_x = m->coh_x, off_y = m->coh_y;
    const uint32_t n = m->ali_n;
    float v3[2] = {sep_x * ap->sep_weight, sep_y * ap->sep_weight};
    if (s->sim->obstacle_count > 0) { /* "differences from stationary objects" */
        float ox, oy;
        obstacle_differences(s, boids_cpu_replica(s, id), x, y, &ox, &oy);
        v3[0] += ox * p->obstacles.obstacle_factor;
        v3[1] += oy * p->obstacles.obstacle_factor;
    }
    float v2[2] = {0.0f, 0.0f}, v1[2] = {0.0f, 0.0f};
    if (n > 0) {
        float fn = (float)n;
        v2[0] = (vel_x / fn - vx0) * ap->align_weight;
        v2[1] = (vel_y / fn - vy0) * ap->align_weight;
        v1[0] = off_x / fn * ap->cohesion_weight;
        v1[1] = off_y / fn * ap->cohesion_weight;
    }
    float a[2];
    if (s->sim->def.model == BOIDS_MODEL_PRIORITY) {
        boids_priority_allocate(v3, v2, v1, ap->max_accel, a);
    } else {
        a[0] = v3[0] + v2[0] + v1[0];
        a[1] = v3[1] + v2[1] + v1[1];
        if (ap->mean_set_length != 0.0f)
            boids_set_length(&a[0], &a[1], ap->max_accel);
        else
            boids_limit(&a[0], &a[1], ap->max_accel);
    }
    boids_cpu_apply_force(s, slot, x, y, vx0, vy0, a[0], a[1]);
}

void boids_cpu_rules_allocation(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_allocation_params *ap = &s->params->allocation;
    const float rn2 = ap->neighbor_radius * ap->neighbor_radius;
    const boids_cpu_radii radii = {.sep2 = ap->sep_radius * ap->sep_radius,
                                   .ali2 = rn2,
                                   .coh2 = rn2}; /* one neighbour radius */
    boids_cpu_steer_reynolds(s, begin, end, &radii, steer);
}
