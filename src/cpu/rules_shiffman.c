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

/* The steering from the sums, and the step (one boid). */
static void finish(const boids_cpu_step *s, uint32_t slot, const boids_cpu_sums *m)
{
    const boids_params *p = s->params;
    const boids_reynolds_params *rp = &p->reynolds;
    const float vmax = p->base.max_speed;
    const uint32_t id = s->cand.id[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot], vx0 = s->cand.vx[slot], vy0 = s->cand.vy[slot];
    float fx = 0.0f, fy = 0.0f, sx, sy;
    if (m->sep_n > 0) {
        float mx = m->sep_x / (float)m->sep_n, my = m->sep_y / (float)m->sep_n;
        if (mx != 0.0f || my != 0.0f) {
            seek_dir(mx, my, vx0, vy0, vmax, rp->max_force, &sx, &sy);
            fx += rp->sep_weight * sx;
            fy += rp->sep_weight * sy;
        }
    }
    if (m->ali_n > 0) {
        seek_dir(m->ali_x / (float)m->ali_n, m->ali_y / (float)m->ali_n, vx0, vy0, vmax, rp->max_force, &sx, &sy);
        fx += rp->align_weight * sx;
        fy += rp->align_weight * sy;
    }
    if (m->coh_n > 0) {
        seek_dir(m->coh_x / (float)m->coh_n, m->coh_y / (float)m->coh_n, vx0, vy0, vmax, rp->max_force, &sx, &sy);
        fx += rp->cohesion_weight * sx;
        fy += rp->cohesion_weight * sy;
    }
    boids_cpu_apply_force(s, id, x, y, vx0, vy0, fx, fy);
}

void boids_cpu_rules_shiffman(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_reynolds_params *rp = &s->params->reynolds;
    const boids_cpu_radii radii = {rp->sep_radius * rp->sep_radius, rp->align_radius * rp->align_radius,
                                   rp->cohesion_radius * rp->cohesion_radius, false};
    boids_cpu_steer_reynolds(s, begin, end, &radii, finish);
}
