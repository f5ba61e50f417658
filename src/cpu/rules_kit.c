/* kit (docs/models.md (kit)), CPU reference: the boids' rules.
 *
 *   individuality (eq. 7-9): a = (age - 0.5)^2; R = view_radius - c_view_radius a,
 *     alpha = view_angle - c_view_angle a, v_max = max_speed - c_maxspeed a
 *   view field V: other boids at distance <= R whose offset is within alpha of the heading
 *   F_c = c_c (mean offset to V)              eq. 1 (minimum image: the mean position - x)
 *   F_a = c_a (mean velocity of V - v)        eq. 2
 *   F_s = -c_s sum (x_n - x)/|x_n - x|        eq. 3, every boid within R_S, seen or not
 *   F_pa = -c_pa sum (p_n - x)/|p_n - x|      eq. 6, every predator within R_P
 *   F_oa = -c_oa sum (o_n - x)/|o_n - x|      eq. 4, through the external-force hook
 *   v' = v + F_tot (no dt: eq. 10), cut to [v_min, v_max(age)] (eq. 11), x' = x + dt v' (eq. 12),
 *   wrapped (a torus).
 *
 * Dead boids (caught) and the boids of a stopped replica do not move; dead boids are in the
 * grid's graveyard, so nobody sees them. Distances are inclusive (<=), as in the authors' code;
 * a neighbour at distance 0 has no direction and counts in no sum; a boid at rest sees all
 * around and stays at rest. The view cone test compares squares (boids_in_view). The order of
 * every operation matches shaders/rules_kit.glsl. */
#include <math.h>

#include "cpu/steer.h"

void boids_cpu_rules_kit(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_params *p = s->params;
    const boids_kit_params *k = &p->kit;
    const float rs2 = k->sep_radius * k->sep_radius, rp2 = k->predator_radius * k->predator_radius;
    const float W = s->sim->def.width, H = s->sim->def.height;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id;

    for (uint32_t slot = begin; slot < end; ++slot) {
        const uint32_t id = cid[slot], replica = boids_cpu_replica(s, id);
        const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = cvx[slot], vy0 = cvy[slot];
        if (s->attr[BOIDS_ATTR_ALIVE][id] == 0 || boids_cpu_stopped(s, replica)) {
            s->out_x[id] = x, s->out_y[id] = y, s->out_vx[id] = vx0, s->out_vy[id] = vy0;
            continue;
        }
        const float age = boids_cpu_attr_float(s, BOIDS_ATTR_AGE, id), a = (age - 0.5f) * (age - 0.5f);
        const float R = k->view_radius - k->c_view_radius * a, R2 = R * R;
        const float cos_view = boids_cos_deg(k->view_angle - k->c_view_angle * a);
        const float vmax = p->base.max_speed - k->c_maxspeed * a;
        const float rmax2 = fmaxf(R2, rs2);

        float sep_x = 0.0f, sep_y = 0.0f, coh_x = 0.0f, coh_y = 0.0f, ali_x = 0.0f, ali_y = 0.0f;
        uint32_t n = 0;
        boids_cpu_ranges r;
        boids_cpu_candidates(s, id, &r);
        for (uint32_t q = 0; q < r.count; ++q) {
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                if (cid[j] == id) continue;
                float dx, dy;
                boids_cand_offset(s, x, y, j, &dx, &dy);
                float d2 = dx * dx + dy * dy;
                if (!(d2 > 0.0f && d2 <= rmax2)) continue;
                if (d2 <= rs2) { /* eq. 3: every boid within R_S */
                    float inv_d = 1.0f / sqrtf(d2); /* one division, two products (as the shader) */
                    sep_x -= dx * inv_d;
                    sep_y -= dy * inv_d;
                }
                if (d2 <= R2 && boids_in_view(vx0, vy0, dx, dy, d2, cos_view)) { /* the view field */
                    coh_x += dx;
                    coh_y += dy;
                    ali_x += cvx[j];
                    ali_y += cvy[j];
                    n++;
                }
            }
        }
        /* eq. 6: the predators within R_P, from the predators' grid */
        float flee_x = 0.0f, flee_y = 0.0f;
        boids_cpu_ranges_near(&s->pred_grid->dims, s->pred_grid->cell_start,
                              boids_cell_of(&s->pred_grid->dims, replica, x, y), &r);
        for (uint32_t q = 0; q < r.count; ++q)
            for (uint32_t j = r.begin[q]; j < r.end[q]; ++j) {
                float dx = boids_min_image(x, s->pred.x[j], W, s->sim->half_w);
                float dy = boids_min_image(y, s->pred.y[j], H, s->sim->half_h);
                float d2 = dx * dx + dy * dy;
                if (!(d2 > 0.0f && d2 <= rp2)) continue;
                float inv_d = 1.0f / sqrtf(d2);
                flee_x -= dx * inv_d;
                flee_y -= dy * inv_d;
            }

        float fx = sep_x * k->separation_factor + flee_x * k->predator_factor;
        float fy = sep_y * k->separation_factor + flee_y * k->predator_factor;
        if (n > 0) {
            float fn = (float)n;
            fx += coh_x / fn * k->cohesion_factor + (ali_x / fn - vx0) * k->alignment_factor;
            fy += coh_y / fn * k->cohesion_factor + (ali_y / fn - vy0) * k->alignment_factor;
        }
        float ex, ey; /* the obstacles (eq. 4) and the mouse tool */
        boids_cpu_external_force(s, id, x, y, &ex, &ey);
        float vx = vx0 + (fx + ex), vy = vy0 + (fy + ey); /* eq. 10: v += F, no dt */
        boids_cpu_speed_limits(&vx, &vy, p->base.min_speed, vmax);
        boids_cpu_move(s, id, x, y, vx, vy);
    }
}
