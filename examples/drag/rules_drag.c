/* drag (examples/drag/model.h), CPU reference:
 *
 *   F = truncate(f_sep w_sep + f_ali w_ali + f_coh w_coh, F_max) - c_d v
 *   f_sep = sum of (p_i - p_j) over N_sep(i)     raw offsets, every swarm
 *   f_ali = mean v_j - v                         same swarm
 *   f_coh = mean (p_j - p_i)                     same swarm
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * The drag comes after the truncation: it is friction, not steering. The order of every
 * operation is that of examples/drag/rules_drag.glsl, so the two agree bit for bit. */
#include "cpu/steer.h"

/* One boid's step from the sums the walk gathered for it. */
static void steer(const boids_cpu_step *s, uint32_t slot, const boids_cpu_sums *m)
{
    const boids_reynolds_params *rp = &s->params->reynolds;
    const float x = s->cand.x[slot], y = s->cand.y[slot];
    const float vx = s->cand.vx[slot], vy = s->cand.vy[slot];
    float fx = m->sep_x * rp->sep_weight, fy = m->sep_y * rp->sep_weight;
    if (m->ali_n > 0) {
        fx += (m->ali_x / (float)m->ali_n - vx) * rp->align_weight;
        fy += (m->ali_y / (float)m->ali_n - vy) * rp->align_weight;
    }
    if (m->coh_n > 0) {
        fx += m->coh_x / (float)m->coh_n * rp->cohesion_weight;
        fy += m->coh_y / (float)m->coh_n * rp->cohesion_weight;
    }
    boids_limit(&fx, &fy, rp->max_force);
    const float drag = s->params->drag.drag;
    fx -= drag * vx;
    fy -= drag * vy;
    boids_cpu_apply_force(s, slot, x, y, vx, vy, fx, fy);
}

/* The rules: the radii of the walk, then one steer() per boid of [begin, end). */
void boids_cpu_rules_drag(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_reynolds_params *rp = &s->params->reynolds;
    const boids_cpu_radii radii = {.sep2 = rp->sep_radius * rp->sep_radius,
                                   .ali2 = rp->align_radius * rp->align_radius,
                                   .coh2 = rp->cohesion_radius * rp->cohesion_radius,
                                   .sep_raw = true};
    boids_cpu_steer_reynolds(s, begin, end, &radii, steer);
}
