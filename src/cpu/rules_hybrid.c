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
    const float rs2 = hp->sep_radius * hp->sep_radius;
    const float ra2 = hp->align_radius * hp->align_radius;
    const float rc2 = hp->cohesion_radius * hp->cohesion_radius;
    const float rmax2 = fmaxf(rs2, fmaxf(ra2, rc2));
    const float vmax = p->base.max_speed;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id, *cswarm = s->cand.swarm;

    for (uint32_t slot = begin; slot < end; ++slot) {
        const uint32_t id = cid[slot], swarm = cswarm[slot];
        const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = cvx[slot], vy0 = cvy[slot];
        float sep_x = 0.0f, sep_y = 0.0f, ali_x = 0.0f, ali_y = 0.0f, coh_x = 0.0f, coh_y = 0.0f;
        uint32_t ali_n = 0, coh_n = 0;
        boids_cpu_ranges r;
        boids_cpu_candidates(s, id, &r);
        for (uint32_t q = 0; q < r.count; ++q) {
            for (uint32_t k = r.begin[q]; k < r.end[q]; ++k) {
                float dx, dy;
                boids_cand_offset(s, x, y, k, &dx, &dy);
                float d2 = dx * dx + dy * dy;
                if (!(d2 < rmax2)) continue; /* out of every radius: would add only +0s */
                int near = (d2 > 0.0f) & (cid[k] != id);
                int sep = near & (d2 < rs2);
                int same = near & (cswarm[k] == swarm);
                int ali = same & (d2 < ra2), coh = same & (d2 < rc2);
                sep_x -= boids_mask(dx, sep); /* p_i - p_j */
                sep_y -= boids_mask(dy, sep);
                ali_x += boids_mask(cvx[k], ali);
                ali_y += boids_mask(cvy[k], ali);
                coh_x += boids_mask(dx, coh);
                coh_y += boids_mask(dy, coh);
                ali_n += (uint32_t)ali;
                coh_n += (uint32_t)coh;
            }
        }

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
