/* The Shiffman models, CPU reference: shiffman-per-second (docs/models.md (shiffman-per-second)) and
 * the frame-based shiffman-processing and shiffman-noc (§2, tables 2.6 and 2.7), which are the
 * same rules with dt = 1 frame, no v_min (0) and Processing's borders().
 *
 *   separation: s = mean over N_p(i) of (p_i - p_j) / d^2   (unit vector / d), every swarm
 *   alignment:  mean velocity of same-swarm neighbours within r_ali
 *   cohesion:   mean offset to same-swarm neighbours within r_coh (minimum image)
 *   each: f = truncate(normalize(desired) * v_max - v, f_max); F = w_s f_s + w_a f_a + w_c f_c
 *   v' = truncate(v + F dt, v_max), raised to v_min if slower; p' = edges(p + v' dt)
 *
 * Degenerate cases follow Processing's PVector, which the model comes from: neighbours at
 * distance 0 are ignored (Shiffman's `d > 0`); normalising a zero vector gives zero, so a zero
 * mean velocity steers towards rest (desired = 0); separation steers only when |s| > 0; a boid
 * with exactly zero velocity has no direction to be raised to v_min along and keeps v = 0.
 * The operations and their order match shaders/rules_shiffman.glsl, so the two
 * backends agree bit for bit where the GPU rounds as IEEE does (llvmpipe). The three models are
 * one rules function: their manifest lines differ only in presets and time base. */
#include <math.h>

#include "cpu/steer.h"

/* Reynolds steering towards a direction at full speed: truncate(normalize(dir) * v_max - v, f_max).
 * A zero direction gives desired = 0 (PVector.normalize leaves zero alone). */
static inline void seek_dir(float dx, float dy, float vx, float vy, float vmax, float fmax,
                            float *fx, float *fy)
{
    boids_set_length(&dx, &dy, vmax);
    *fx = dx - vx;
    *fy = dy - vy;
    boids_limit(fx, fy, fmax);
}

void boids_cpu_rules_shiffman(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_params *p = s->params;
    const boids_reynolds_params *rp = &p->reynolds;
    const float rs2 = rp->sep_radius * rp->sep_radius;
    const float ra2 = rp->align_radius * rp->align_radius;
    const float rc2 = rp->cohesion_radius * rp->cohesion_radius;
    const float rmax2 = fmaxf(rs2, fmaxf(ra2, rc2));
    const float vmax = p->base.max_speed;
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id, *cswarm = s->cand.swarm;

    for (uint32_t slot = begin; slot < end; ++slot) {
        const uint32_t id = cid[slot], swarm = cswarm[slot];
        const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = cvx[slot], vy0 = cvy[slot];
        float sep_x = 0.0f, sep_y = 0.0f, ali_x = 0.0f, ali_y = 0.0f, coh_x = 0.0f, coh_y = 0.0f;
        uint32_t sep_n = 0, ali_n = 0, coh_n = 0;
        boids_cpu_ranges r;
        boids_cpu_candidates(s, id, &r);
        for (uint32_t q = 0; q < r.count; ++q) {
            for (uint32_t k = r.begin[q]; k < r.end[q]; ++k) {
                float dx, dy;
                boids_cand_offset(s, x, y, k, &dx, &dy);
                float d2 = dx * dx + dy * dy;
                if (!(d2 < rmax2)) continue; /* most candidates: out of every radius (adds +0s) */
                /* Masks, not branches: which neighbours fall in which radius is a coin toss the
                 * branch predictor loses (see boids_mask). Coincident boids (d2 = 0) and the boid
                 * itself are no neighbours (Shiffman's d > 0). */
                int near = (d2 > 0.0f) & (cid[k] != id);
                int sep = near & (d2 < rs2);
                int same = near & (cswarm[k] == swarm);
                int ali = same & (d2 < ra2), coh = same & (d2 < rc2);
                float d2_safe = d2 + (float)(d2 == 0.0f); /* never 0/0, even where masked out */
                sep_x -= boids_mask(dx / d2_safe, sep); /* (p_i - p_j)/|p_i - p_j|/d = -(dx, dy)/d^2 */
                sep_y -= boids_mask(dy / d2_safe, sep);
                ali_x += boids_mask(cvx[k], ali);
                ali_y += boids_mask(cvy[k], ali);
                coh_x += boids_mask(dx, coh);
                coh_y += boids_mask(dy, coh);
                sep_n += (uint32_t)sep;
                ali_n += (uint32_t)ali;
                coh_n += (uint32_t)coh;
            }
        }

        float fx = 0.0f, fy = 0.0f, sx, sy;
        if (sep_n > 0) {
            float mx = sep_x / (float)sep_n, my = sep_y / (float)sep_n;
            if (mx != 0.0f || my != 0.0f) {
                seek_dir(mx, my, vx0, vy0, vmax, rp->max_force, &sx, &sy);
                fx += rp->sep_weight * sx;
                fy += rp->sep_weight * sy;
            }
        }
        if (ali_n > 0) {
            seek_dir(ali_x / (float)ali_n, ali_y / (float)ali_n, vx0, vy0, vmax, rp->max_force, &sx, &sy);
            fx += rp->align_weight * sx;
            fy += rp->align_weight * sy;
        }
        if (coh_n > 0) {
            seek_dir(coh_x / (float)coh_n, coh_y / (float)coh_n, vx0, vy0, vmax, rp->max_force, &sx, &sy);
            fx += rp->cohesion_weight * sx;
            fy += rp->cohesion_weight * sy;
        }

        boids_cpu_apply_force(s, id, x, y, vx0, vy0, fx, fy);
    }
}
