/* The Shiffman models, CPU reference: shiffman-per-second (docs/models.md (shiffman-per-second))
 * and the frame-based shiffman-processing and shiffman-noc (§2, tables 2.6 and 2.7), which are the
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
#include <string.h>

#include "cpu/steer.h"

#include "cpu/simd.h"

/* Reynolds steering towards a direction at full speed, lane by lane:
 * truncate(normalize(dir) * v_max - v, f_max). A zero direction gives desired = 0
 * (PVector.normalize leaves zero alone). */
BOIDS_VINLINE void seek_dir(boids_vf dx, boids_vf dy, boids_vf vx, boids_vf vy, boids_vf vmax,
                            boids_vf fmax, boids_vf *fx, boids_vf *fy)
{
    boids_vset_length(&dx, &dy, vmax, (boids_vi)boids_vu_all(UINT32_MAX));
    *fx = dx - vx;
    *fy = dy - vy;
    boids_vlimit(fx, fy, fmax);
}

/* boids_cpu_apply_force (cpu/steer.h) for the boids in slots [slot, slot + lanes): the same
 * operations, lane by lane, so the speed limits' square root and divisions run on all lanes at
 * once; the external forces (where the world has obstacles or a tool) and the edges stay per
 * boid. A lane without external forces adds +0, as the scalar code does. */
BOIDS_VINLINE void apply_force_lanes(const boids_cpu_step *s, uint32_t slot, uint32_t lanes,
                                     boids_vf vx, boids_vf vy, boids_vf fx, boids_vf fy)
{
    const boids_sim *sim = s->sim;
    const boids_base_params *b = &s->params->base;
    const float *x = s->cand.x + slot, *y = s->cand.y + slot;
    const uint32_t *id = s->cand.id + slot;
    boids_vf ex = boids_vf_all(0.0f), ey = boids_vf_all(0.0f);
    if (sim->obstacle_push || sim->tool.kind != BOIDS_TOOL_NONE)
        for (uint32_t l = 0; l < lanes; ++l) {
            float fx1, fy1; /* (no address of a vector lane: clang refuses it) */
            boids_cpu_external_force(s, id[l], x[l], y[l], &fx1, &fy1);
            ex[l] = fx1, ey[l] = fy1;
        }
    fx += ex;
    fy += ey;
    const boids_vf dt = boids_vf_all(sim->dt);
    vx = vx + fx * dt;
    vy = vy + fy * dt;
    boids_vspeed_limits(&vx, &vy, boids_vf_all(b->min_speed), boids_vf_all(b->max_speed));
    for (uint32_t l = 0; l < lanes; ++l) boids_cpu_move(s, slot + l, x[l], y[l], vx[l], vy[l]);
}

/* The steering from the sums, and the step, of the boids in slots [slot, slot + lanes): the
 * model's force and the integration on SIMD lanes (the per-boid divisions and square roots are
 * most of a step after the walk). A lane computes what one boid's scalar code would, operation
 * for operation, and a rule that does not apply to it adds +0. */
BOIDS_SIMD_CLONES static void finish(const boids_cpu_step *s, uint32_t slot, uint32_t lanes,
                                     const boids_cpu_lane_sums *m)
{
    const boids_params *p = s->params;
    const boids_reynolds_params *rp = &p->reynolds;
    const boids_vf zero = boids_vf_all(0.0f), one = boids_vf_all(1.0f);
    const boids_vf vmax = boids_vf_all(p->base.max_speed), fmax = boids_vf_all(rp->max_force);
    const boids_vf vx = boids_vf_load(s->cand.vx + slot, lanes, 0.0f),
                   vy = boids_vf_load(s->cand.vy + slot, lanes, 0.0f);
    boids_vf sep_x, sep_y, ali_x, ali_y, coh_x, coh_y;
    boids_vi sep_c, ali_c, coh_c;
    memcpy(&sep_x, m->sep_x, sizeof sep_x), memcpy(&sep_y, m->sep_y, sizeof sep_y);
    memcpy(&ali_x, m->ali_x, sizeof ali_x), memcpy(&ali_y, m->ali_y, sizeof ali_y);
    memcpy(&coh_x, m->coh_x, sizeof coh_x), memcpy(&coh_y, m->coh_y, sizeof coh_y);
    memcpy(&sep_c, m->sep_n, sizeof sep_c), memcpy(&ali_c, m->ali_n, sizeof ali_c);
    memcpy(&coh_c, m->coh_n, sizeof coh_c);
    /* the counts as floats, as the scalar (float)n (they are far below 2^31) */
    boids_vf sep_n = __builtin_convertvector(sep_c, boids_vf),
             ali_n = __builtin_convertvector(ali_c, boids_vf);
    boids_vf coh_n = __builtin_convertvector(coh_c, boids_vf);
    /* the means (of lanes with neighbours: the others divide by 1 and are masked) */
    const boids_vi sep_any = sep_n > zero, ali_on = ali_n > zero, coh_on = coh_n > zero;
    sep_n = boids_vselect(sep_any, sep_n, one), ali_n = boids_vselect(ali_on, ali_n, one);
    coh_n = boids_vselect(coh_on, coh_n, one);
    const boids_vf mx = sep_x / sep_n, my = sep_y / sep_n;
    const boids_vi sep_on =
        sep_any & ((mx != zero) | (my != zero)); /* separation steers only when |s| > 0 */
    boids_vf fx = zero, fy = zero, sx, sy;
    seek_dir(mx, my, vx, vy, vmax, fmax, &sx, &sy);
    fx += boids_vmask(boids_vf_all(rp->sep_weight) * sx, sep_on);
    fy += boids_vmask(boids_vf_all(rp->sep_weight) * sy, sep_on);
    seek_dir(ali_x / ali_n, ali_y / ali_n, vx, vy, vmax, fmax, &sx, &sy);
    fx += boids_vmask(boids_vf_all(rp->align_weight) * sx, ali_on);
    fy += boids_vmask(boids_vf_all(rp->align_weight) * sy, ali_on);
    seek_dir(coh_x / coh_n, coh_y / coh_n, vx, vy, vmax, fmax, &sx, &sy);
    fx += boids_vmask(boids_vf_all(rp->cohesion_weight) * sx, coh_on);
    fy += boids_vmask(boids_vf_all(rp->cohesion_weight) * sy, coh_on);
    apply_force_lanes(s, slot, lanes, vx, vy, fx, fy);
}

void boids_cpu_rules_shiffman(const boids_cpu_step *s, uint32_t begin, uint32_t end)
{
    const boids_reynolds_params *rp = &s->params->reynolds;
    const boids_cpu_radii radii = {.sep2 = rp->sep_radius * rp->sep_radius,
                                   .ali2 = rp->align_radius * rp->align_radius,
                                   .coh2 = rp->cohesion_radius * rp->cohesion_radius};
    boids_cpu_lane_sums m;
    for (uint32_t slot = begin; slot < end;) {
        const uint32_t n = boids_cpu_walk_reynolds(s, slot, end, &radii, &m);
        finish(s, slot, n, &m);
        slot += n;
    }
}
