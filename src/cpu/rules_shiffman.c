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

#include "cpu/simd.h"
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

/* A boid's sums over its neighbours: the mean of what each behaviour sums, and how many. */
typedef struct sums {
    float sep_x, sep_y, ali_x, ali_y, coh_x, coh_y;
    uint32_t sep_n, ali_n, coh_n;
} sums;

/* The steering from the sums, and the step (one boid). */
static void finish(const boids_cpu_step *s, uint32_t slot, const sums *m)
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

/* One boid's walk over its candidates. */
static void walk_one(const boids_cpu_step *s, uint32_t slot, sums *m)
{
    const boids_reynolds_params *rp = &s->params->reynolds;
    const float rs2 = rp->sep_radius * rp->sep_radius;
    const float ra2 = rp->align_radius * rp->align_radius;
    const float rc2 = rp->cohesion_radius * rp->cohesion_radius;
    const float rmax2 = fmaxf(rs2, fmaxf(ra2, rc2));
    const float *cvx = s->cand.vx, *cvy = s->cand.vy;
    const uint32_t *cid = s->cand.id, *cswarm = s->cand.swarm;
    const uint32_t id = cid[slot], swarm = cswarm[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot];
    *m = (sums){0};
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
            m->sep_x -= boids_mask(dx / d2_safe, sep); /* (p_i - p_j)/|p_i - p_j|/d = -(dx, dy)/d^2 */
            m->sep_y -= boids_mask(dy / d2_safe, sep);
            m->ali_x += boids_mask(cvx[k], ali);
            m->ali_y += boids_mask(cvy[k], ali);
            m->coh_x += boids_mask(dx, coh);
            m->coh_y += boids_mask(dy, coh);
            m->sep_n += (uint32_t)sep;
            m->ali_n += (uint32_t)ali;
            m->coh_n += (uint32_t)coh;
        }
    }
}

/* The walk of a group, one boid per lane (see boids_cpu_group): walk_one's operations on every
 * lane at once, so each lane's sums are walk_one's bits. */
BOIDS_SIMD_CLONES static void walk_group(const boids_cpu_step *s, uint32_t slot, const boids_cpu_group *g, sums *out)
{
    const boids_reynolds_params *rp = &s->params->reynolds;
    const float rs2s = rp->sep_radius * rp->sep_radius;
    const float ra2s = rp->align_radius * rp->align_radius;
    const float rc2s = rp->cohesion_radius * rp->cohesion_radius;
    const boids_vf rs2 = boids_vf_all(rs2s), ra2 = boids_vf_all(ra2s), rc2 = boids_vf_all(rc2s);
    const boids_vf zero = boids_vf_all(0.0f), one = boids_vf_all(1.0f);
    const float w = s->sim->def.width, h = s->sim->def.height, hw = s->sim->half_w, hh = s->sim->half_h;
    boids_vf x = zero, y = zero;
    boids_vu id = boids_vu_all(UINT32_MAX), swarm = boids_vu_all(UINT32_MAX);
    for (uint32_t l = 0; l < g->lanes; ++l) {
        x[l] = s->cand.x[slot + l], y[l] = s->cand.y[slot + l];
        id[l] = s->cand.id[slot + l], swarm[l] = s->cand.swarm[slot + l];
    }
    boids_vf sep_x = zero, sep_y = zero, ali_x = zero, ali_y = zero, coh_x = zero, coh_y = zero;
    boids_vi sep_n = (boids_vi)boids_vu_all(0), ali_n = sep_n, coh_n = sep_n;
    for (uint32_t j = 0; j < g->rows; ++j) {
        boids_vu own_b = boids_vu_all(UINT32_MAX), own_e = boids_vu_all(0); /* empty for unused lanes */
        for (uint32_t l = 0; l < g->lanes; ++l) own_b[l] = g->own_begin[j][l], own_e[l] = g->own_end[j][l];
        for (uint32_t k = g->begin[j]; k < g->end[j]; ++k) {
            const boids_vu kk = boids_vu_all(k);
            const boids_vf dx = boids_vmin_image(x, boids_vf_all(s->cand.x[k]), w, hw);
            const boids_vf dy = boids_vmin_image(y, boids_vf_all(s->cand.y[k]), h, hh);
            const boids_vf d2 = dx * dx + dy * dy;
            const boids_vi mine = (kk >= own_b) & (kk < own_e);
            const boids_vi near = mine & (d2 > zero) & (boids_vu_all(s->cand.id[k]) != id);
            const boids_vi sep = near & (d2 < rs2);
            const boids_vi same = near & (boids_vu_all(s->cand.swarm[k]) == swarm);
            const boids_vi ali = same & (d2 < ra2), coh = same & (d2 < rc2);
            const boids_vf d2_safe = d2 + boids_vmask(one, d2 == zero);
            sep_x -= boids_vmask(dx / d2_safe, sep);
            sep_y -= boids_vmask(dy / d2_safe, sep);
            ali_x += boids_vmask(boids_vf_all(s->cand.vx[k]), ali);
            ali_y += boids_vmask(boids_vf_all(s->cand.vy[k]), ali);
            coh_x += boids_vmask(dx, coh);
            coh_y += boids_vmask(dy, coh);
            sep_n -= sep; /* masks are -1 */
            ali_n -= ali;
            coh_n -= coh;
        }
    }
    for (uint32_t l = 0; l < g->lanes; ++l)
        out[l] = (sums){sep_x[l], sep_y[l], ali_x[l], ali_y[l], coh_x[l], coh_y[l],
                        (uint32_t)sep_n[l], (uint32_t)ali_n[l], (uint32_t)coh_n[l]};
}

void boids_cpu_rules_shiffman(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    for (uint32_t slot = begin; slot < end;) {
        boids_cpu_group g;
        sums m[BOIDS_GROUP_MAX];
        boids_cpu_group_at(s, slot, end, BOIDS_LANES, &g);
        if (g.lanes > 1) {
            walk_group(s, slot, &g, m);
        } else {
            walk_one(s, slot, &m[0]);
        }
        for (uint32_t l = 0; l < g.lanes; ++l) finish(s, slot + l, &m[l]);
        slot += g.lanes;
    }
}
