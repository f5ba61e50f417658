/* hybrid (hybrid-model.md §3), CPU reference:
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
    const boids_world_def *def = s->def;
    const boids_params *p = &def->params;
    const float rs2 = p->sep_radius * p->sep_radius;
    const float ra2 = p->align_radius * p->align_radius;
    const float rc2 = p->cohesion_radius * p->cohesion_radius;
    const float rmax2 = fmaxf(rs2, fmaxf(ra2, rc2));
    const float W = def->width, H = def->height, dt = s->dt;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id, *cswarm = s->cand.swarm;

    for (uint32_t slot = begin; slot < end; ++slot) {
        uint32_t id = cid[slot];
        const boids_boid self = s->cur[id];
        float sep_x = 0.0f, sep_y = 0.0f, ali_x = 0.0f, ali_y = 0.0f, coh_x = 0.0f, coh_y = 0.0f;
        uint32_t ali_n = 0, coh_n = 0;
        boids_cpu_ranges r;
        boids_cpu_candidates(s, id, &r);
        for (uint32_t q = 0; q < r.count; ++q) {
            for (uint32_t k = r.begin[q]; k < r.end[q]; ++k) {
                float dx, dy;
                boids_cand_offset(s, self.x, self.y, k, &dx, &dy);
                float d2 = dx * dx + dy * dy;
                if (!(d2 < rmax2)) continue; /* out of every radius: would add only +0s */
                int near = (d2 > 0.0f) & (cid[k] != id);
                int sep = near & (d2 < rs2);
                int same = near & (cswarm[k] == self.swarm);
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

        float fx = sep_x * p->sep_weight, fy = sep_y * p->sep_weight;
        if (ali_n > 0) {
            float ux = ali_x / (float)ali_n, uy = ali_y / (float)ali_n;
            boids_set_length(&ux, &uy, p->max_speed);
            fx += (ux - self.vx) * p->align_weight;
            fy += (uy - self.vy) * p->align_weight;
        }
        if (coh_n > 0) {
            float ux = coh_x / (float)coh_n, uy = coh_y / (float)coh_n;
            boids_set_length(&ux, &uy, p->max_speed);
            fx += (ux - self.vx) * p->cohesion_weight;
            fy += (uy - self.vy) * p->cohesion_weight;
        }
        boids_limit(&fx, &fy, p->max_force);
        float tx, ty;
        boids_tool_force(s, self.x, self.y, &tx, &ty);
        fx += tx;
        fy += ty;

        float vx = self.vx + fx * dt, vy = self.vy + fy * dt;
        float v2 = vx * vx + vy * vy;
        if (v2 > p->max_speed * p->max_speed)
            boids_set_length(&vx, &vy, p->max_speed);
        else if (v2 < p->min_speed * p->min_speed && (vx != 0.0f || vy != 0.0f))
            boids_set_length(&vx, &vy, p->min_speed);
        boids_boid *out = &s->next[id];
        out->x = self.x + vx * dt;
        out->y = self.y + vy * dt;
        boids_apply_edges(s->edges, p->border_r, W, H, &out->x, &out->y);
        out->vx = vx;
        out->vy = vy;
        out->swarm = self.swarm;
        out->bias = self.bias;
    }
}
