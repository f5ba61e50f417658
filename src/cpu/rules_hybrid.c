/* hybrid (docs/models.md (hybrid)), CPU reference:
 *
 *   f_sep = sum over N_p(i) of (p_i - p_j)            raw offsets (Model A), every swarm
 *   f_ali = (normalize(mean v_j) v_max - v) w_ali      same swarm, no truncation
 *   f_coh = (normalize(mean offset) v_max - v) w_coh   same swarm, no truncation
 *   F = truncate(f_sep w_sep + f_ali + f_coh, F_max)   one clamp, on the total
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * Neighbours at distance 0 add nothing to f_sep and are left out of the averages (as in the
 * Shiffman models); normalising zero gives zero. Operation order matches shaders/rules_hybrid.glsl.
 */
#include <math.h>

#include "cpu/steer.h"

/* One boid's step from its sums. */
static void steer(const boids_cpu_step *s, uint32_t slot, const boids_cpu_sums *m)
{
    const boids_params *p = s->params;
    const boids_hybrid_params *hp = &p->hybrid;
    const float vmax = p->base.max_speed;
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = s->cand.vx[slot],
                vy0 = s->cand.vy[slot];
    float fx = m->sep_x * hp->sep_weight, fy = m->sep_y * hp->sep_weight;
    if (m->ali_n > 0) {
        float ux = m->ali_x / (float)m->ali_n, uy = m->ali_y / (float)m->ali_n;
        boids_set_length(&ux, &uy, vmax);
        fx += (ux - vx0) * hp->align_weight;
        fy += (uy - vy0) * hp->align_weight;
    }
    if (m->coh_n > 0) {
        float ux = m->coh_x / (float)m->coh_n, uy = m->coh_y / (float)m->coh_n;
        boids_set_length(&ux, &uy, vmax);
        fx += (ux - vx0) * hp->cohesion_weight;
        fy += (uy - vy0) * hp->cohesion_weight;
    }
    boids_limit(&fx, &fy, hp->max_force);
    boids_cpu_apply_force(s, slot, x, y, vx0, vy0, fx, fy);
}

void boids_cpu_rules_hybrid(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_hybrid_params *hp = &s->params->hybrid;
    const boids_cpu_radii radii = {.sep2 = hp->sep_radius * hp->sep_radius,
                                   .ali2 = hp->align_radius * hp->align_radius,
                                   .coh2 = hp->cohesion_radius * hp->cohesion_radius,
                                   .sep_raw = true}; /* Adams' separation */
    boids_cpu_steer_reynolds(s, begin, end, &radii, steer);
}
