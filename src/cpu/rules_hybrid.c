/* hybrid (docs/models.md (hybrid)), CPU reference:
 *
 *   f_sep = sum over N_p(i) of (p_i - p_j)            raw offsets (Model A), every swarm
 *   f_ali = (normalize(mean v_j) v_max - v) w_ali      same swarm, no truncation
 *   f_coh = (normalize(mean offset) v_max - v) w_coh   same swarm, no truncation
 *   F = truncate(f_sep w_sep + f_ali + f_coh, F_max)   one clamp, on the total
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * Neighbours at distance 0 add nothing to f_sep and are left out of the averages (as in the
 * Shiffman models); normalising zero gives zero. Operation order matches shaders/rules_hybrid.glsl. */
#include <math.h>

#include "cpu/steer.h"

void boids_cpu_rules_hybrid(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_params *p = s->params;
    const boids_hybrid_params *hp = &p->hybrid;
    const boids_cpu_radii radii = {hp->sep_radius * hp->sep_radius, hp->align_radius * hp->align_radius,
                                   hp->cohesion_radius * hp->cohesion_radius, true}; /* Adams' separation */
    const float vmax = p->base.max_speed;
    boids_cpu_sums m[BOIDS_GROUP_MAX];
    for (uint32_t slot = begin, lanes = 0, l = 0; slot < end; ++slot, ++l) {
        if (l == lanes) lanes = boids_cpu_walk_reynolds(s, slot, end, &radii, m), l = 0;
        const uint32_t id = s->cand.id[slot];
        const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = s->cand.vx[slot], vy0 = s->cand.vy[slot];
        const float sep_x = m[l].sep_x, sep_y = m[l].sep_y, ali_x = m[l].ali_x, ali_y = m[l].ali_y;
        const float coh_x = m[l].coh_x, coh_y = m[l].coh_y;
        const uint32_t ali_n = m[l].ali_n, coh_n = m[l].coh_n;

        float fx = sep_x * hp->sep_weight, fy = sep_y * hp->sep_weight;
        if (ali_n > 0) {
            float ux = ali_x / (float)ali_n, uy = ali_y / (float)ali_n;
            boids_set_length(&ux, &uy, vmax);
            fx += (ux - vx0) * hp->align_weight;
            fy += (uy - vy0) * hp->align_weight;
        }
        if (coh_n > 0) {
            float ux = coh_x / (float)coh_n, uy = coh_y / (float)coh_n;
            boids_set_length(&ux, &uy, vmax);
            fx += (ux - vx0) * hp->cohesion_weight;
            fy += (uy - vy0) * hp->cohesion_weight;
        }
        boids_limit(&fx, &fy, hp->max_force);
        boids_cpu_apply_force(s, id, x, y, vx0, vy0, fx, fy);
    }
}
